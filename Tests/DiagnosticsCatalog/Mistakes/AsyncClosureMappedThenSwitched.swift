// `map` to async work, then `switchToLatest()`: the inner signals fail, the outer one does not.
// Expect: promoteError(_:)
import ReactiveCocoaSwift

func asyncClosureMappedThenSwitched(query: Signal<String, Never>, api: SearchAPI) -> Signal<[String], any Error> {
    query.map { text in Signal { try await api.search(text) } }.switchToLatest()
}
