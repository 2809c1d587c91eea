import ReactiveCocoaSwift

func neverFailingInnerOfFailingOuter(requests: Signal<String, any Error>, api: SearchAPI) -> Signal<[String], any Error> {
    requests.flattenMap { text in api.suggestions(for: text).promoteError() }
}
