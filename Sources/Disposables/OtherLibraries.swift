extension Disposable {
    /// RxSwift's `disposed(by: bag)`. Here the bag is a ``CompoundDisposable``, and the
    /// disposable is added to it: `bag.add(disposable)`; disposing the bag disposes it. To end it
    /// when an owner goes, add it to the owner's `Lifetime` (module Signals):
    /// `lifetime += disposable`, or subscribe to `signal.take(during: lifetime)`.
    ///
    /// Unavailable: it is here so that the compiler names the way to write it.
    @available(*, unavailable, message: "add it to a CompoundDisposable: bag.add(disposable), and dispose the bag in its owner's deinit (a CompoundDisposable does not dispose when released, as a DisposeBag does); or, to end it with its owner, add it to the owner's Lifetime: lifetime += disposable (module Signals: Lifetime.make())")
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
    @available(*, unavailable, message: "add it to a CompoundDisposable: bag.add(disposable), and dispose the bag in its owner's deinit (a CompoundDisposable does not dispose when released, as a DisposeBag does); or, to end it with its owner, add it to the owner's Lifetime: lifetime += disposable (module Signals: Lifetime.make())")
    public func store(in bag: CompoundDisposable) {
        bag.add(self)
    }
}

extension Disposable {
    /// Combine's `store(in: &cancellables)` with a `Set<AnyCancellable>` (this module's
    /// unavailable ``AnyCancellable``): as ``store(in:)``, so that the set's type does not hide the
    /// message.
    ///
    /// Unavailable: it is here so that the compiler names the way to write it.
    @available(*, unavailable, message: "add it to a CompoundDisposable: bag.add(disposable), and dispose the bag in its owner's deinit (a CompoundDisposable does not dispose when released, as a DisposeBag does); or, to end it with its owner, add it to the owner's Lifetime: lifetime += disposable (module Signals: Lifetime.make())")
    public func store(in set: inout Set<AnyCancellable>) {}
}

// Other libraries' type names for a disposable, each an unavailable type alias, so that code typed
// from memory makes the compiler name ours instead of saying "cannot find 'DisposeBag' in scope".
// An unavailable declaration never competes with an available one: where a module that defines
// the real type (RxSwift, ReactiveSwift, Combine or OpenCombine, during a migration) is imported
// too, the plain name means that module's type, as if these did not exist.

/// RxSwift's `DisposeBag`: the owner's `Lifetime` here (module Signals: `lifetime += disposable`),
/// which ends when the owner goes, or a ``CompoundDisposable`` (`bag.add(disposable)`) that the
/// owner disposes in `deinit`: unlike a `DisposeBag`, it disposes nothing when released.
@available(*, unavailable, message: "RxSwift's DisposeBag disposes when released; here that is the owner's Lifetime (module Signals): let (lifetime, token) = Lifetime.make(), the owner keeps the token, lifetime += disposable; or a CompoundDisposable (bag.add(disposable)) that the owner disposes in deinit: released, it disposes nothing")
public typealias DisposeBag = CompoundDisposable

/// ReactiveSwift's and RxSwift's `CompositeDisposable`: ``CompoundDisposable`` here.
@available(*, unavailable, renamed: "CompoundDisposable")
public typealias CompositeDisposable = CompoundDisposable

/// ReactiveSwift's `AnyDisposable`: ``Disposable`` here, made with the action to run:
/// `Disposable { … }`.
@available(*, unavailable, renamed: "Disposable")
public typealias AnyDisposable = Disposable

/// Combine's `AnyCancellable`: ``Disposable`` here, which does not dispose when released;
/// ``ScopedDisposable`` does, as `AnyCancellable` cancels on `deinit`; a `Set<AnyCancellable>` is a
/// ``CompoundDisposable``.
///
/// A type of its own, `Hashable` as `AnyCancellable` is, so that `Set<AnyCancellable>` reaches
/// this error and not "does not conform to protocol 'Hashable'".
@available(*, unavailable, message: "Combine's AnyCancellable is Disposable here, which does not dispose when released; one that does is ScopedDisposable(disposable); a Set<AnyCancellable> is the owner's Lifetime (lifetime += disposable), or a CompoundDisposable (bag.add(disposable)) that the owner disposes in deinit")
public struct AnyCancellable: Hashable {
    public init(_ cancel: @escaping () -> Void) {}
    public func cancel() {}
    public func store(in set: inout Set<AnyCancellable>) {}
}

/// Combine's `Cancellable`: ``Disposable`` here (`cancel()` is `dispose()`).
@available(*, unavailable, message: "Combine's Cancellable is Disposable here, and cancel() is dispose()")
public typealias Cancellable = Disposable

/// RxSwift's `Disposables.create()`, written with this module's name: `Disposable()` here.
@available(*, unavailable, message: "RxSwift's Disposables.create() is Disposable() here (a disposable with nothing to do)")
public func create() -> Disposable {
    Disposable()
}

/// RxSwift's `Disposables.create(with:)` (and `Disposables.create { … }`), written with this
/// module's name: `Disposable { … }` here.
@available(*, unavailable, message: "RxSwift's Disposables.create { ... } is Disposable { ... } here: the closure runs once, when it is disposed")
public func create(with dispose: @escaping @Sendable () -> Void) -> Disposable {
    Disposable(dispose)
}

/// RxSwift's `Disposables.create(_:_:)` of several disposables: ``CompoundDisposable`` here.
@available(*, unavailable, message: "RxSwift's Disposables.create(a, b) is CompoundDisposable([a, b]) here")
public func create(_ first: Disposable, _ others: Disposable...) -> Disposable {
    CompoundDisposable([first] + others)
}
