// `store(in: &cancellables)` alone, the set declared elsewhere: the call names the way, not the
// set's type ("cannot convert 'Set<AnyCancellable>' to 'CompoundDisposable'", as it used to).
// The set's own type draws the `AnyCancellable` message first, on its line.
import ReactiveCocoaSwift

func storeInASetOfCancellables(numbers: Signal<Int, Never>, cancellables: inout Set<AnyCancellable>) {    // first error: Lifetime
    numbers.subscribeNext { print($0) }.store(in: &cancellables)    // first error: 'store(in:)' is unavailable: add it to a CompoundDisposable
}
