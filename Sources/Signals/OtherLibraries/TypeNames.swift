import Foundation

// Other libraries' type names for a signal and its observer, each an unavailable type alias, so
// that code typed from memory makes the compiler name ours instead of saying "cannot find
// 'Observable' in scope". An unavailable declaration never competes with an available one: where
// a module that defines the real type (RxSwift, ReactiveSwift, Combine or OpenCombine, during a
// migration) is imported too, the plain name means that module's type, as if these did not exist
// (Tests/AdoptionTests/DiagnosticsCatalogTests.swift proves it with a module of its own that
// declares them). ReactiveSwift's `Signal` is the one name both libraries use: with both imported,
// write `ReactiveSwift.Signal` or `Signals.Signal`.

/// RxSwift's `Observable`: ``Signal`` here, which names its error type:
/// `Signal<Element, any Error>`.
@available(*, unavailable, message: "RxSwift's Observable<Element> is Signal<Element, any Error> here (Signal<Element, Never> if it never fails); Observable.just(x) is Signal<Element, any Error>.return(x), Observable.create { ... } is Signal { subscriber in ... }")
public typealias Observable<Element> = Signal<Element, any Error>

/// RxSwift's `Infallible`: a ``Signal`` that never fails, `Signal<Element, Never>`.
@available(*, unavailable, message: "RxSwift's Infallible<Element> is Signal<Element, Never> here")
public typealias Infallible<Element> = Signal<Element, Never>

/// RxSwift's `Single`: a ``Signal`` that sends one value, then completes: made from async work
/// with `Signal { try await … }`.
@available(*, unavailable, message: "RxSwift's Single<Element> is a Signal<Element, any Error> that sends one value, then completes: Signal { try await work() }; await signal.firstValue() reads it")
public typealias Single<Element> = Signal<Element, any Error>

/// RxSwift's `Completable`: a ``Signal`` that sends no value, only its end.
@available(*, unavailable, message: "RxSwift's Completable is a signal that sends no value, only its end: Signal<Never, any Error>, or ignoreValues() of any signal")
public typealias Completable = Signal<Never, any Error>

/// RxCocoa's `Driver`: a ``Signal`` that never fails, delivered on the main thread; to keep and
/// replay the latest value, a `Property` (module Subjects).
@available(*, unavailable, message: "RxCocoa's Driver<Element> is a Signal<Element, Never> delivered on the main thread here: signal.deliverOnMainThread(); to hold the latest value too, a Property (module Subjects)")
public typealias Driver<Element> = Signal<Element, Never>

/// RxSwift's `AnyObserver`: ``Subscriber`` here (`onNext(_:)` is `sendNext(_:)`).
@available(*, unavailable, message: "RxSwift's AnyObserver<Element> is Subscriber<Element, any Error> here; onNext(_:) is sendNext(_:)")
public typealias AnyObserver<Element> = Subscriber<Element, any Error>

/// ReactiveSwift's `SignalProducer`: ``Signal`` here, which is cold, as a producer is.
@available(*, unavailable, renamed: "Signal")
public typealias SignalProducer<Value, Error: Swift.Error> = Signal<Value, Error>

/// Combine's `AnyPublisher`: ``Signal`` here.
@available(*, unavailable, renamed: "Signal")
public typealias AnyPublisher<Output, Failure: Error> = Signal<Output, Failure>

// Combine's publishers that a program makes (`Just(1)`, `Fail(error:)`) are signals of their own
// with Combine's initializers, so that `flatMap { _ in Just(1) }` type-checks up to the one error
// that names ours.

/// Combine's `Just`: `Signal.return(_:)` here.
@available(*, unavailable, message: "Combine's Just(value) is Signal<Output, Never>.return(value) here")
public final class Just<Output>: Signal<Output, Never>, @unchecked Sendable {
    public init(_ output: Output) { super.init { _ in nil } }
}

/// Combine's `Future`: a ``Signal`` made from async work here, `Signal { try await … }`.
@available(*, unavailable, message: "Combine's Future { promise in ... } is Signal { try await work() } here, a cold signal: the work runs for each subscription")
public final class Future<Output, Failure: Error>: Signal<Output, Failure>, @unchecked Sendable {
    public init(_ attemptToFulfill: @escaping (@escaping (Result<Output, Failure>) -> Void) -> Void) { super.init { _ in nil } }
}

/// Combine's `Deferred`: `Signal.defer(_:)` here.
@available(*, unavailable, message: "Combine's Deferred { publisher } is Signal.defer { signal } here")
public final class Deferred<Output, Failure: Error>: Signal<Output, Failure>, @unchecked Sendable {
    public init(createPublisher: @escaping () -> Signal<Output, Failure>) { super.init { _ in nil } }
}

/// Combine's `Empty`: `Signal.empty` here (`Signal.never` for `Empty(completeImmediately: false)`).
@available(*, unavailable, message: "Combine's Empty() is Signal<Output, Failure>.empty here; Empty(completeImmediately: false) is Signal.never")
public final class Empty<Output, Failure: Error>: Signal<Output, Failure>, @unchecked Sendable {
    public init(completeImmediately: Bool = true) { super.init { _ in nil } }
}

/// Combine's `Fail`: `Signal.error(_:)` here.
@available(*, unavailable, message: "Combine's Fail(error: e) is Signal<Output, Failure>.error(e) here")
public final class Fail<Output, Failure: Error>: Signal<Output, Failure>, @unchecked Sendable {
    public init(error: Failure) { super.init { _ in nil } }
}
