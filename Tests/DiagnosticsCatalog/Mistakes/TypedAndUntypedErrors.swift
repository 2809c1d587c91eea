// A typed error and `any Error`: promoteError cannot help, mapError can.
// Expect: mapError(_:)
import ReactiveCocoaSwift

func typedAndUntypedErrors(requests: Signal<String, any Error>, api: SearchAPI) -> Signal<[String], any Error> {
    requests.flatMapLatest { text in api.typedResults(for: text) }
}
