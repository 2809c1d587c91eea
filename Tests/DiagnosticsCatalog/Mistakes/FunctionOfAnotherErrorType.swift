// A function that makes failing signals, passed to `flatMapLatest` of one that never fails: the
// compiler printed both function types and no way out.
// Expect: promoteError(_:)
// Expect: mapError(_:)
import ReactiveCocoaSwift

func functionOfAnotherErrorType(query: Signal<String, Never>, api: SearchAPI) -> Signal<[String], any Error> {
    query.flatMapLatest(api.results(for:))
}
