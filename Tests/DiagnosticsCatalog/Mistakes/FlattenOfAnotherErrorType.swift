// `flatten()` of failing signals sent by one that never fails.
// Expect: promoteError(_:)
import ReactiveCocoaSwift

func flattenOfAnotherErrorType(requests: Signal<Signal<[String], any Error>, Never>) -> Signal<[String], any Error> {
    requests.flatten()
}
