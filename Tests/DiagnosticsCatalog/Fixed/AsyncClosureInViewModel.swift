import ReactiveCocoaSwift

final class AsyncClosureInViewModel: @unchecked Sendable {
    var results: [String] = []
    let subscriptions = CompoundDisposable()

    init(query: Signal<String, Never>, api: SearchAPI) {
        subscriptions.add(
            query
                .throttle(0.3, on: .main)
                .flatMapLatest { text in Signal { (try? await api.search(text)) ?? [] } }
                .deliver(on: .main)
                .subscribe(next: { [weak self] items in
                    self?.results = items
                })
        )
    }
}
