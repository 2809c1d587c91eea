import ReactiveCocoaSwift

func zipOfAnotherErrorType(numbers: Signal<Int, Never>, failing: Signal<Int, any Error>) {
    _ = numbers.promoteError().zip(with: failing)
}
