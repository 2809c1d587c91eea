import ReactiveCocoaSwift

func combineLatestOfAnotherErrorType(numbers: Signal<Int, Never>, failing: Signal<Int, any Error>) {
    _ = numbers.promoteError().combineLatest(with: failing)
}
