import ReactiveCocoaSwift

func typedAndUntypedErrors(requests: Signal<String, any Error>, api: SearchAPI) -> Signal<[String], any Error> {
    requests.flatMapLatest { text in api.typedResults(for: text).mapError { $0 as any Error } }
}
