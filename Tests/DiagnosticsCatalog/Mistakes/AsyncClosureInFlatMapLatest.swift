// A search screen's query never fails, and the async API throws: the inner signal cannot be a
// `Signal<_, Never>`. (The compiler used to pick ReactiveSwift's `init(value:)` stub for the
// closure and name `return(_:)`.)
// Expect: promoteError(_:)
import ReactiveCocoaSwift

func asyncClosureInFlatMapLatest(query: Signal<String, Never>, api: SearchAPI) -> Signal<[String], any Error> {
    query.flatMapLatest { text in Signal { try await api.search(text) } }
}
