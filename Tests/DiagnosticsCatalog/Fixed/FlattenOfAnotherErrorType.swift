import ReactiveCocoaSwift

func flattenOfAnotherErrorType(requests: Signal<Signal<[String], any Error>, Never>) -> Signal<[String], any Error> {
    requests.promoteError().flatten()
}
