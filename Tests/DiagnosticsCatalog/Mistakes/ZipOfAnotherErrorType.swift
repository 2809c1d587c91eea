// `zip` of a signal that never fails with one that does.
// Expect: promoteError(_:)
import ReactiveCocoaSwift

func zipOfAnotherErrorType(numbers: Signal<Int, Never>, failing: Signal<Int, any Error>) {
    _ = numbers.zip(with: failing)
}
