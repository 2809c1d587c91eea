import ReactiveCocoaSwift

func withLatestFromOfAnotherErrorType(numbers: Signal<Int, Never>, failing: Signal<Int, any Error>) {
    _ = numbers.promoteError().withLatestFrom(failing)
}
