// A view model written from RxSwift memory: each of its four spellings has a rename; the first
// one is reported first (the one error that used to hide them, `self?.results = items`, is gone
// with AsyncClosureInViewModel's fix).
// Expect: throttle(_:on:)
import ReactiveCocoaSwift

final class RxSwiftViewModel: @unchecked Sendable {
    var results: [String] = []
    let bag = CompoundDisposable()

    init(query: Signal<String, Never>, api: SearchAPI) {
        query
            .debounce(0.3, on: .main)
            .flatMapLatest { text in api.suggestions(for: text) }
            .observe(on: .main)
            .subscribe(onNext: { [weak self] items in
                self?.results = items
            })
            .disposed(by: bag)
    }
}
