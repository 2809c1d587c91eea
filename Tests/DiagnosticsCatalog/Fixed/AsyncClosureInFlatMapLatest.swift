import ReactiveCocoaSwift

func asyncClosureInFlatMapLatest(query: Signal<String, Never>, api: SearchAPI) -> Signal<[String], any Error> {
    query.promoteError((any Error).self).flatMapLatest { text in Signal { try await api.search(text) } }
}
