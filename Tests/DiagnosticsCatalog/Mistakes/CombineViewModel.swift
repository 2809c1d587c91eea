// A view model written from Combine memory: `Set<AnyCancellable>` and `store(in:)`. The first
// error must say what disposes when the owner goes (a `CompoundDisposable`, which the advice used
// to lead with, disposes nothing when released).
// Expect: Lifetime
import ReactiveCocoaSwift

final class CombineViewModel: @unchecked Sendable {
    var results: [String] = []
    var cancellables = Set<AnyCancellable>()

    init(query: Signal<String, Never>, api: SearchAPI) {
        query
            .flatMapLatest { text in api.suggestions(for: text) }
            .subscribeNext { [weak self] items in self?.results = items }
            .store(in: &cancellables)
    }
}
