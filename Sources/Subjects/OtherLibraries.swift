import Signals

// The multicasting spellings of RxSwift and Combine whose twin here, in this module, has another
// name: unavailable declarations with their argument labels, so that the compiler names ours (see
// Sources/Signals/OtherLibraries/ReactiveSwift.swift for the rules; the stubs that only need
// module Signals's types, such as `replayLazily(upTo:)`, live there, so that they work without
// this module).

extension Signal {
    /// Combine's `makeConnectable()`: `publish()` here.
    @available(*, unavailable, renamed: "publish()")
    public func makeConnectable() -> MulticastConnection<Value, Failure> {
        publish()
    }

    /// Combine's `multicast(subject:)`: `multicast(_:)` here.
    @available(*, unavailable, renamed: "multicast(_:)")
    public func multicast(subject: Subject<Value, Failure>) -> MulticastConnection<Value, Failure> {
        multicast(subject)
    }
}

extension MulticastConnection {
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

