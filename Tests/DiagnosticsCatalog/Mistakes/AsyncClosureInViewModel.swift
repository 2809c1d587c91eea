// The same mistake inside a view model's subscription: the compiler used to type `items` as a
// closure (through ReactiveSwift's `init(value:)` stub) and report `self?.results = items`
// ("function produces expected type '[String]'"), hiding every other hint.
// Expect: promoteError(_:)
import ReactiveCocoaSwift

final class AsyncClosureInViewModel: @unchecked Sendable {
    var results: [String] = []
    let subscriptions = CompoundDisposable()

    init(query: Signal<String, Never>, api: SearchAPI) {
        subscriptions.add(
            query
                .throttle(0.3, on: .main)
                .flatMapLatest { text in Signal { try await api.search(text) } }
                .deliver(on: .main)
                .subscribe(next: { [weak self] items in
                    self?.results = items
                })
        )
    }
}
