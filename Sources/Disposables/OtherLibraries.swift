extension Disposable {
    /// RxSwift's `disposed(by: bag)`. Here the bag is a ``CompoundDisposable``, and the
    /// disposable is added to it: `bag.add(disposable)`; disposing the bag disposes it. To end it
    /// when an owner goes, add it to the owner's `Lifetime` (module Signals):
    /// `lifetime += disposable`, or subscribe to `signal.take(during: lifetime)`.
    ///
    /// Unavailable: it is here so that the compiler names the way to write it.
    @available(*, unavailable, message: "add it to a CompoundDisposable: bag.add(disposable); or, to end it with an owner, to the owner's Lifetime: lifetime += disposable")
    public func disposed(by bag: CompoundDisposable) {
        bag.add(self)
    }
}

extension Disposable {
    /// Combine's `store(in: &cancellables)`. Here the set is a ``CompoundDisposable``, and the
    /// disposable is added to it: `bag.add(disposable)`; disposing the bag disposes it. To end it
    /// when an owner goes, add it to the owner's `Lifetime` (module Signals):
    /// `lifetime += disposable`, or subscribe to `signal.take(during: lifetime)`.
    ///
    /// Unavailable: it is here so that the compiler names the way to write it.
    @available(*, unavailable, message: "add it to a CompoundDisposable: bag.add(disposable); or, to end it with an owner, to the owner's Lifetime: lifetime += disposable")
    public func store(in bag: CompoundDisposable) {
        bag.add(self)
    }
}
