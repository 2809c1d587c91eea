// `combineLatest` of a signal that never fails with one that does.
// Expect: promoteError(_:)
import ReactiveCocoaSwift

func combineLatestOfAnotherErrorType(numbers: Signal<Int, Never>, failing: Signal<Int, any Error>) {
    _ = numbers.combineLatest(with: failing)
}
