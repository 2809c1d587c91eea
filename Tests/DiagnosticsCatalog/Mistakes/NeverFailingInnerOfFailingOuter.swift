// The other way round: the outer signal fails, the inner ones never do.
// Expect: promoteError(_:)
import ReactiveCocoaSwift

func neverFailingInnerOfFailingOuter(requests: Signal<String, any Error>, api: SearchAPI) -> Signal<[String], any Error> {
    requests.flattenMap { text in api.suggestions(for: text) }
}
