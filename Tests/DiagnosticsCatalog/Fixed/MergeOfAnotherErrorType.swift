import ReactiveCocoaSwift

func mergeOfAnotherErrorType(numbers: Signal<Int, Never>, failing: Signal<Int, any Error>) {
    _ = numbers.promoteError().merge(failing)
}
