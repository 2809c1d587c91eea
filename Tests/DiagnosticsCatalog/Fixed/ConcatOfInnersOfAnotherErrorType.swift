import ReactiveCocoaSwift

func concatOfInnersOfAnotherErrorType(requests: Signal<Signal<[String], any Error>, Never>) {
    _ = requests.promoteError((any Error).self).concat().subscribeNext { print($0) }
}
