import ReactiveCocoaSwift

func thenOfAnotherErrorType(numbers: Signal<Int, Never>, failing: Signal<Int, any Error>) {
    _ = numbers.promoteError().then { failing }
}
