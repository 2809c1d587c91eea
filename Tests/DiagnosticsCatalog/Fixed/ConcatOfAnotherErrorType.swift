import ReactiveCocoaSwift

func concatOfAnotherErrorType(numbers: Signal<Int, Never>, failing: Signal<Int, any Error>) {
    _ = numbers.promoteError().concat(failing)
}
