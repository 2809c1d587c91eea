// `concat()` of failing signals sent by one that never fails, its result used in a chain.
// Expect: promoteError(_:)
import ReactiveCocoaSwift

func concatOfInnersOfAnotherErrorType(requests: Signal<Signal<[String], any Error>, Never>) {
    _ = requests.concat().subscribeNext { print($0) }
}
