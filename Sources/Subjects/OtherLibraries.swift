import Disposables
import Signals

// The multicasting spellings of RxSwift and Combine whose twin here, in this module, has another
// name: unavailable declarations with their argument labels, so that the compiler names ours (see
// Sources/Signals/OtherLibraries/ReactiveSwift.swift for the rules; the stubs that only need
// module Signals's types, such as `replayLazily(upTo:)`, live there, so that they work without
// this module).

extension Signal {
    /// Combine's `makeConnectable()`: `publish()` here. Combine's `makeConnectable().autoconnect()`
    /// is ``share(replay:)`` here: Combine's `autoconnect()` disconnects when the last subscriber
    /// cancels and connects again for the next, where ``MulticastConnection/autoconnect()``, RAC
    /// 2.5's, connects once and never again.
    @available(
        *, unavailable,
        message: "makeConnectable().autoconnect() is share() here, which connects again after every subscriber has left (autoconnect() here connects once, never again); makeConnectable() alone is publish()"
    )
    public func makeConnectable() -> MulticastConnection<Value, Failure> {
        publish()
    }

    /// RxSwift's `replay(_:)`, a connectable signal that keeps `bufferSize` values:
    /// `multicast(ReplaySubject(capacity: bufferSize))` here, connected by `connect()`; or
    /// ``share(replay:)``, which connects on the first subscriber (RxSwift's `share(replay:)`).
    @available(
        *, unavailable,
        message: "RxSwift's replay(n) is multicast(ReplaySubject(capacity: n)) here, connected with connect(); share(replay: n) connects on the first subscriber; replay() here connects at once and keeps every value"
    )
    public func replay(_ bufferSize: Int) -> MulticastConnection<Value, Failure> {
        multicast(ReplaySubject(capacity: bufferSize))
    }

    /// RxSwift's `replayAll()`: `multicast(ReplaySubject())` here, connected by `connect()`;
    /// ``replay()`` connects at once, ``replayLazily()`` on the first subscription.
    @available(
        *, unavailable,
        message: "RxSwift's replayAll() is multicast(ReplaySubject()) here, connected with connect(); replay() connects at once and replayLazily() on the first subscription, each keeping every value"
    )
    public func replayAll() -> MulticastConnection<Value, Failure> {
        multicast(ReplaySubject())
    }

    /// RxSwift's `share(replay:scope:)`: ``share(replay:)`` here, which is its default scope,
    /// `.whileConnected`. For `.forever`, ``replayLazily()`` (every value) or
    /// `multicast(ReplaySubject(capacity: n))` connected once.
    @available(
        *, unavailable,
        message: "share(replay:) here is RxSwift's scope .whileConnected: drop the scope; for .forever, replayLazily() (every value) or multicast(ReplaySubject(capacity: n)) connected once"
    )
    public func share(replay: Int = 0, scope: SubjectLifetimeScope) -> Signal {
        share(replay: replay)
    }

    /// RxSwift's `multicast(makeSubject:)`: ``share(replay:)`` here, which makes a new subject for
    /// each connection; `multicast(_:)` takes one subject, connected once.
    @available(
        *, unavailable,
        message: "a subject for each connection is share() here (share(replay: n) for a ReplaySubject); multicast(_:) takes one subject, connected once"
    )
    public func multicast(makeSubject: @escaping @Sendable () -> Subject<Value, Failure>) -> Signal {
        share()
    }

    /// Combine's `multicast(subject:)`: `multicast(_:)` here.
    @available(*, unavailable, renamed: "multicast(_:)")
    public func multicast(subject: Subject<Value, Failure>) -> MulticastConnection<Value, Failure> {
        multicast(subject)
    }
}

extension MulticastConnection {
    /// RxSwift's subscription to a `ConnectableObservable`: subscribe to ``signal`` here.
    @available(*, unavailable, message: "a MulticastConnection is not a signal: subscribe to its signal, connection.signal.subscribe(next:), then connect()")
    public func subscribe(
        next: (@Sendable (Value) -> Void)? = nil,
        error: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) -> Disposable {
        signal.subscribe(next: next, error: error, completed: completed)
    }

    /// RxSwift's `refCount()`: `share()` here, called on the signal itself (`source.share()` for
    /// RxSwift's `source.publish().refCount()`). RxSwift's `publish()` makes a new subject for
    /// each connection, so its `refCount()` connects again after every subscriber has left, as
    /// `share(replay:)` does; `autoconnect()`, RAC 2.5's, connects once and never again.
    @available(
        *, unavailable,
        message: "publish().refCount() is share() here, on the signal itself, which connects again after every subscriber has left; autoconnect() connects once"
    )
    public func refCount() -> Signal<Value, Failure> {
        autoconnect()
    }
}

extension ReplaySubject {
    /// RxSwift's `ReplaySubject.create(bufferSize:)`: `ReplaySubject(capacity:)` here.
    @available(*, unavailable, message: "RxSwift's ReplaySubject.create(bufferSize: n) is ReplaySubject<Element, any Error>(capacity: n) here (Never for one that never fails)")
    public static func create(bufferSize: Int) -> ReplaySubject {
        ReplaySubject(capacity: bufferSize)
    }
}

// Other libraries' type names for subjects and mutable values, each an unavailable type alias, so
// that code typed from memory makes the compiler name ours instead of saying "cannot find
// 'PublishSubject' in scope". An unavailable declaration never competes with an available one:
// where a module that defines the real type (RxSwift, RxRelay, ReactiveSwift, Combine or
// OpenCombine, during a migration) is imported too, the plain name means that module's type.

/// RxSwift's `PublishSubject`: ``Subject`` here, which names its error type:
/// `Subject<Element, any Error>()`.
@available(*, unavailable, message: "RxSwift's PublishSubject<Element> is Subject<Element, any Error>() here (Subject<Element, Never>() if it never fails); onNext(_:) is sendNext(_:)")
public typealias PublishSubject<Element> = Subject<Element, any Error>

/// RxRelay's `PublishRelay`: a ``Subject`` that never fails, `Subject<Element, Never>()`.
@available(*, unavailable, message: "RxRelay's PublishRelay<Element> is Subject<Element, Never>() here; accept(_:) is sendNext(_:)")
public typealias PublishRelay<Element> = Subject<Element, Never>

/// RxRelay's `BehaviorRelay`: ``ObservableValue`` here (`value` read and written, `signal` the
/// current value then every change), or ``BehaviorSubject`` of a never-failing signal.
///
/// A type of its own, with `BehaviorRelay`'s initializer and members, so that a program written
/// with it type-checks up to this one error.
@available(*, unavailable, message: "RxRelay's BehaviorRelay(value:) is ObservableValue(initial) here: set .value instead of accept(_:), subscribe to .signal instead of asObservable(); or BehaviorSubject<Element, Never>(value:)")
public struct BehaviorRelay<Element: Sendable> {
    public init(value: Element) {}
    public var value: Element { unreachableStubBody() }
    public func accept(_ event: Element) {}
    public func asObservable() -> Signal<Element, Never> { .never }
}

/// RxRelay's `ReplayRelay`: a ``ReplaySubject`` that never fails.
///
/// A type of its own, with `ReplayRelay`'s members, so that a program written with it type-checks
/// up to this one error.
@available(*, unavailable, message: "RxRelay's ReplayRelay.create(bufferSize: n) is ReplaySubject<Element, Never>(capacity: n) here; accept(_:) is sendNext(_:)")
public struct ReplayRelay<Element> {
    public static func create(bufferSize: Int) -> ReplayRelay { ReplayRelay() }
    public func accept(_ event: Element) {}
    public func asObservable() -> Signal<Element, Never> { .never }
}

/// Combine's `PassthroughSubject`: ``Subject`` here (`send(_:)` is `sendNext(_:)`).
@available(*, unavailable, renamed: "Subject")
public typealias PassthroughSubject<Output, Failure: Error> = Subject<Output, Failure>

/// Combine's `CurrentValueSubject`: ``BehaviorSubject`` here, made with `BehaviorSubject(value:)`;
/// or ``ObservableValue`` for a value that never fails.
///
/// A type of its own, with `CurrentValueSubject`'s initializer and members, so that a program
/// written with it type-checks up to this one error.
@available(*, unavailable, message: "Combine's CurrentValueSubject(initial) is BehaviorSubject<Output, Failure>(value: initial) here; for a value read and written, ObservableValue(initial)")
public struct CurrentValueSubject<Output, Failure: Error> {
    public init(_ value: Output) {}
    public var value: Output { unreachableStubBody() }
    public func send(_ input: Output) {}
    public func eraseToAnyPublisher() -> Signal<Output, Failure> { .never }
}

/// ReactiveSwift's `MutableProperty`: ``ObservableValue`` here (`value` read and written,
/// `signal` the current value then every change); its read-only view is ``Property``, whose
/// `changes` sends every change.
@available(*, unavailable, message: "ReactiveSwift's MutableProperty(initial) is ObservableValue(initial) here: .value, and .signal for its producer; its read-only view is Property(cell), whose .changes is its signal")
public typealias MutableProperty<Value: Sendable> = ObservableValue<Value>

/// RxSwift's `SubjectLifetimeScope`, the scope of its `share(replay:scope:)`: ``Signal/share(replay:)``
/// here is `.whileConnected`, and takes no scope.
@available(*, unavailable, message: "share(replay:) here is RxSwift's scope .whileConnected: drop the scope; for .forever, replayLazily() or multicast(ReplaySubject(capacity: n)) connected once")
public enum SubjectLifetimeScope {
    case whileConnected
    case forever
}
