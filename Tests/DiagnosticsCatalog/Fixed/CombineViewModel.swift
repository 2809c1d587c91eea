import ReactiveCocoaSwift

final class CombineViewModel: @unchecked Sendable {
    var results: [String] = []
    let lifetime: Lifetime
    private let token: Lifetime.Token

    init(query: Signal<String, Never>, api: SearchAPI) {
        (lifetime, token) = Lifetime.make()
        lifetime += query
            .flatMapLatest { text in api.suggestions(for: text) }
            .subscribeNext { [weak self] items in self?.results = items }
    }
}
