import ReactiveCocoaSwift

func storeInASetOfCancellables(numbers: Signal<Int, Never>, cancellables: CompoundDisposable) {
    cancellables.add(numbers.subscribeNext { print($0) })
}
