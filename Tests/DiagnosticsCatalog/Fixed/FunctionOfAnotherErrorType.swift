import ReactiveCocoaSwift

func functionOfAnotherErrorType(query: Signal<String, Never>, api: SearchAPI) -> Signal<[String], any Error> {
    query.promoteError().flatMapLatest(api.results(for:))
}
