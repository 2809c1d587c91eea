import ReactiveCocoaSwift

final class RxSwiftViewModel: @unchecked Sendable {
    var results: [String] = []
    let bag = CompoundDisposable()

    init(query: Signal<String, Never>, api: SearchAPI) {
        bag.add(
            query
                .throttle(0.3, on: .main)
                .flatMapLatest { text in api.suggestions(for: text) }
                .deliver(on: .main)
                .subscribe(next: { [weak self] items in
                    self?.results = items
                })
        )
    }
}
