import ReactiveCocoaSwift

func asyncClosureMappedThenSwitched(query: Signal<String, Never>, api: SearchAPI) -> Signal<[String], any Error> {
    query.promoteError((any Error).self).map { text in Signal { try await api.search(text) } }.switchToLatest()
}
