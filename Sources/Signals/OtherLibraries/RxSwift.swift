import Disposables
import Foundation
import Schedulers

// The spellings of RxSwift whose twin here has another name, as unavailable declarations with
// RxSwift's argument labels, so that the compiler names ours; the rules for adding one are in
// ReactiveSwift.swift beside this file. RxSwift 5 and later give intervals as a
// `DispatchTimeInterval` (`.milliseconds(300)`), earlier versions as seconds: each timed stub comes
// twice, with a `Duration` (which `.milliseconds(300)` and `.seconds(1)` also build) and with a
// `TimeInterval`, because with the wrong one the compiler reports the argument ("type
// 'TimeInterval' has no member 'milliseconds'") and not the new name.

extension Signal {
    /// RxSwift's `debounce(_:scheduler:)`: `throttle(_:on:)` here, RAC 2.5's `-throttle:`, which
    /// is a debounce.
    @available(*, unavailable, renamed: "throttle(_:on:)")
    public func debounce(_ dueTime: TimeInterval, scheduler: Scheduler) -> Signal {
        throttle(dueTime, on: scheduler)
    }

    /// RxSwift's `debounce(_:scheduler:)` with a `DispatchTimeInterval`: `throttle(_:on:)` here.
    @available(*, unavailable, renamed: "throttle(_:on:)", message: "it takes the interval in seconds, a TimeInterval")
    public func debounce(_ dueTime: Duration, scheduler: Scheduler) -> Signal {
        throttle(dueTime / .seconds(1), on: scheduler)
    }

    /// RxSwift's `throttle(_:latest:scheduler:)`, a rate limiter: `rateLimit(_:on:latest:)` here,
    /// where `throttle(_:on:)` is RAC 2.5's debounce. Both drop values; `pace(_:on:)` sends every
    /// value, spaced (RxSwift has no such operator).
    @available(
        *, unavailable, renamed: "rateLimit(_:on:latest:)",
        message: "RxSwift's throttle limits the rate; throttle(_:on:) here is RAC 2.5's, a debounce (RxSwift's debounce)"
    )
    public func throttle(_ dueTime: TimeInterval, latest: Bool = true, scheduler: Scheduler) -> Signal {
        rateLimit(dueTime, on: scheduler, latest: latest)
    }

    /// RxSwift's `throttle(_:latest:scheduler:)` with a `DispatchTimeInterval`:
    /// `rateLimit(_:on:latest:)` here.
    @available(
        *, unavailable, renamed: "rateLimit(_:on:latest:)",
        message: "RxSwift's throttle limits the rate, and rateLimit takes the interval in seconds, a TimeInterval; throttle(_:on:) here is RAC 2.5's, a debounce (RxSwift's debounce)"
    )
    public func throttle(_ dueTime: Duration, latest: Bool = true, scheduler: Scheduler) -> Signal {
        rateLimit(dueTime / .seconds(1), on: scheduler, latest: latest)
    }

    /// RxSwift's `delay(_:scheduler:)`: `delay(_:on:)` here.
    @available(*, unavailable, renamed: "delay(_:on:)")
    public func delay(_ dueTime: TimeInterval, scheduler: Scheduler) -> Signal {
        delay(dueTime, on: scheduler)
    }

    /// RxSwift's `delay(_:scheduler:)` with a `DispatchTimeInterval`: `delay(_:on:)` here.
    @available(*, unavailable, renamed: "delay(_:on:)", message: "it takes the interval in seconds, a TimeInterval")
    public func delay(_ dueTime: Duration, scheduler: Scheduler) -> Signal {
        delay(dueTime / .seconds(1), on: scheduler)
    }

    /// RxSwift's and Combine's `timeout(_:scheduler:)`: `timeout(_:on:)` here, or
    /// `timeout(_:on:raising:)` to choose the error.
    @available(
        *, unavailable, renamed: "timeout(_:on:)",
        message: "it fails with SignalError.timedOut when the failure type allows it; otherwise timeout(_:on:raising:) with an error of yours"
    )
    public func timeout<AnyScheduler>(_ dueTime: TimeInterval, scheduler: AnyScheduler) -> Signal {
        unreachableStubBody()
    }

    /// RxSwift's and Combine's `timeout(_:scheduler:)` with a `DispatchTimeInterval` or a
    /// `.seconds(…)` stride: `timeout(_:on:)` here.
    @available(
        *, unavailable, renamed: "timeout(_:on:)",
        message: "it takes the interval in seconds, a TimeInterval; a failure type other than any Error or SignalError needs timeout(_:on:raising:)"
    )
    public func timeout<AnyScheduler>(_ dueTime: Duration, scheduler: AnyScheduler) -> Signal {
        unreachableStubBody()
    }

    /// RxSwift's `observeOn(_:)` (RxSwift 5): `deliver(on:)` here.
    @available(*, unavailable, renamed: "deliver(on:)")
    public func observeOn(_ scheduler: Scheduler) -> Signal {
        unreachableStubBody()
    }

    /// RxSwift's `subscribeOn(_:)` (RxSwift 5): `subscribe(on:)` here.
    @available(*, unavailable, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: Scheduler) -> Signal {
        unreachableStubBody()
    }

    /// RxSwift's and Combine's `flatMap(_:)`: `flattenMap(_:)` here.
    @available(*, unavailable, renamed: "flattenMap(_:)")
    public func flatMap<U>(_ transform: @escaping @Sendable (Value) -> Signal<U, Failure>) -> Signal<U, Failure> {
        flattenMap(transform)
    }

    /// RxSwift's `concatMap(_:)`: `map(_:)` then `concat()` here.
    @available(*, unavailable, message: "concatMap(_:) is map(_:) then concat() here")
    public func concatMap<U>(_ transform: @escaping @Sendable (Value) -> Signal<U, Failure>) -> Signal<U, Failure> {
        map(transform).concat()
    }

    /// RxSwift's and Combine's (CombineExt) `withLatestFrom(_:resultSelector:)`:
    /// `withLatestFrom(_:_:)` here.
    @available(*, unavailable, renamed: "withLatestFrom(_:_:)")
    public func withLatestFrom<U, R>(
        _ other: Signal<U, Failure>,
        resultSelector: @escaping @Sendable (Value, U) -> R
    ) -> Signal<R, Failure> {
        withLatestFrom(other, resultSelector)
    }

    /// RxSwift's `buffer(timeSpan:count:scheduler:)`: `buffer(count:interval:on:)` here, which
    /// sends no empty arrays.
    @available(*, unavailable, renamed: "buffer(count:interval:on:)")
    public func buffer(timeSpan: TimeInterval, count: Int, scheduler: Scheduler) -> Signal<[Value], Failure> {
        buffer(count: count, interval: timeSpan, on: scheduler)
    }

    /// RxSwift's `buffer(timeSpan:count:scheduler:)` with a `DispatchTimeInterval`:
    /// `buffer(count:interval:on:)` here.
    @available(*, unavailable, renamed: "buffer(count:interval:on:)", message: "it takes the interval in seconds, a TimeInterval")
    public func buffer(timeSpan: Duration, count: Int, scheduler: Scheduler) -> Signal<[Value], Failure> {
        buffer(count: count, interval: timeSpan / .seconds(1), on: scheduler)
    }

    /// RxSwift's `switchLatest()`: `switchToLatest()` here.
    @available(*, unavailable, renamed: "switchToLatest()")
    public func switchLatest<Inner>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        switchToLatest()
    }

    /// RxSwift's `merge()` (of a signal of signals): `flatten()` here.
    @available(*, unavailable, renamed: "flatten()")
    public func merge<Inner>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        flatten()
    }

    /// RxSwift's `merge(maxConcurrent:)`: `flatten(maxConcurrent:)` here.
    @available(*, unavailable, renamed: "flatten(maxConcurrent:)")
    public func merge<Inner>(maxConcurrent: Int) -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        flatten(maxConcurrent: maxConcurrent)
    }

    /// RxSwift's `subscribe(onNext:onError:onCompleted:onDisposed:)`:
    /// `subscribe(next:error:completed:)` here.
    @available(
        *, unavailable, renamed: "subscribe(next:error:completed:)",
        message: "onDisposed has no counterpart: disposal is silent"
    )
    @discardableResult
    public func subscribe(
        onNext: (@Sendable (Value) -> Void)? = nil,
        onError: (@Sendable (Failure) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> Disposable {
        subscribe(next: onNext, error: onError, completed: onCompleted)
    }

    /// RxSwift's `bind(onNext:)`: `subscribeNext(_:)` here.
    @available(*, unavailable, renamed: "subscribeNext(_:)")
    @discardableResult
    public func bind(onNext: @escaping @Sendable (Value) -> Void) -> Disposable {
        subscribeNext(onNext)
    }

    /// RxSwift's `bind(to:)`: `subscribe(_:)` for a subject, `ObservableValue`'s `bind(from:)`
    /// (module `Subjects`), or `assign(to:on:)` for a property.
    @available(
        *, unavailable,
        message: "subscribe(_:) a Subject to the signal, or call value.bind(from: signal) on an ObservableValue (module Subjects), or assign(to:on:) a property"
    )
    @discardableResult
    public func bind<Target: AnyObject>(to target: Target) -> Disposable {
        unreachableStubBody()
    }

    /// RxSwift's `do(…)`, with `onNext`, `afterNext`, `onError`, `afterError`, `onCompleted`,
    /// `afterCompleted`, `onSubscribe`, `onSubscribed` and `onDispose`: one operator per event
    /// here, `doNext(_:)`, `doError(_:)`, `doCompleted(_:)`, `initially(_:)` and `finally(_:)`.
    @available(
        *, unavailable,
        message: "one operator per event: do(onNext:) is doNext(_:), do(onError:) doError(_:), do(onCompleted:) doCompleted(_:), do(onSubscribe:) initially(_:); finally(_:) runs on error or completion"
    )
    public func `do`(
        onNext: (@Sendable (Value) -> Void)? = nil,
        afterNext: (@Sendable (Value) -> Void)? = nil,
        onError: (@Sendable (Failure) -> Void)? = nil,
        afterError: (@Sendable (Failure) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        afterCompleted: (@Sendable () -> Void)? = nil,
        onSubscribe: (@Sendable () -> Void)? = nil,
        onSubscribed: (@Sendable () -> Void)? = nil,
        onDispose: (@Sendable () -> Void)? = nil
    ) -> Signal {
        unreachableStubBody()
    }

    /// RxSwift's `ignoreElements()`: `ignoreValues()` here.
    @available(*, unavailable, renamed: "ignoreValues()")
    public func ignoreElements() -> Signal {
        ignoreValues()
    }

    /// RxSwift's `takeUntil(_:)` (RxSwift 5): `take(until:)` here.
    @available(*, unavailable, renamed: "take(until:)")
    public func takeUntil<U, TriggerFailure>(_ trigger: Signal<U, TriggerFailure>) -> Signal {
        take(until: trigger)
    }

    /// RxSwift's `takeWhile(_:)` (RxSwift 5): `take(while:)` here.
    @available(*, unavailable, renamed: "take(while:)")
    public func takeWhile(_ predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        take(while: predicate)
    }

    /// RxSwift's `takeLast(_:)`: `take(last:)` here.
    @available(*, unavailable, renamed: "take(last:)")
    public func takeLast(_ count: Int) -> Signal {
        take(last: count)
    }

    /// RxSwift's `skipWhile(_:)` (RxSwift 5): `skip(while:)` here.
    @available(*, unavailable, renamed: "skip(while:)")
    public func skipWhile(_ predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        skip(while: predicate)
    }

    /// RxSwift's `skipUntil(_:)` (RxSwift 5): `skip(until:)` here.
    @available(*, unavailable, renamed: "skip(until:)")
    public func skipUntil<U, TriggerFailure>(_ trigger: Signal<U, TriggerFailure>) -> Signal {
        skip(until: trigger)
    }

    /// RxSwift's `ifEmpty(default:)`: `replaceEmpty(with:)` here, Combine's name.
    @available(*, unavailable, renamed: "replaceEmpty(with:)")
    public func ifEmpty(default value: Value) -> Signal {
        replaceEmpty(with: value)
    }

    /// RxSwift's `catchError(_:)` (RxSwift 5): `catch(_:)` here.
    @available(*, unavailable, renamed: "catch(_:)")
    public func catchError<NewFailure>(
        _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
    ) -> Signal<Value, NewFailure> {
        self.catch(handler)
    }

    /// RxSwift's `catchError(_:)` (RxSwift 5) with a handler whose signal keeps the failure type
    /// (`catchError { _ in .empty }`): `catch(_:)` here.
    @available(*, unavailable, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping @Sendable (Failure) -> Signal) -> Signal {
        self.catch(handler)
    }

    /// RxSwift's `catchAndReturn(_:)`: `catch(to:)` with a
    /// `return(_:)` signal here.
    @available(*, unavailable, message: "catchAndReturn(value) is catch(to: .return(value)) here")
    public func catchAndReturn(_ value: Value) -> Signal<Value, Never> {
        self.catch(to: Signal<Value, Never>.return(value))
    }

    /// RxSwift's `catchErrorJustReturn(_:)` (RxSwift 5): `catch(to:)`
    /// with a `return(_:)` signal here.
    @available(*, unavailable, message: "catchErrorJustReturn(value) is catch(to: .return(value)) here")
    public func catchErrorJustReturn(_ value: Value) -> Signal<Value, Never> {
        self.catch(to: Signal<Value, Never>.return(value))
    }

    /// RxSwift's `asObservable()`: nothing to call here, where every signal is a `Signal`.
    @available(*, unavailable, message: "a Signal is already the one signal type: drop the call")
    public func asObservable() -> Signal {
        self
    }

    /// RxSwift's (RxCocoa's) `asDriver(onErrorJustReturn:)`: a signal that cannot fail,
    /// delivered on the main thread, is `catch(to:)` then `deliverOnMainThread()` here; a shared
    /// latest value, as a `Driver` replays it, is a `Property` of module `Subjects`.
    @available(
        *, unavailable,
        message: "asDriver(onErrorJustReturn: value) is catch(to: Signal<Value, Never>.return(value)).deliverOnMainThread() here (or deliver(on: .main)); to share one subscription and its latest value as a Driver does, make a Property(initial: value, then: signal.catch(to: .return(value))) (module Subjects) and use property.signal.deliverOnMainThread()"
    )
    public func asDriver(onErrorJustReturn value: Value) -> Signal<Value, Never> {
        unreachableStubBody()
    }

    /// RxSwift's (RxCocoa's) `asDriver(onErrorDriveWith:)`: `catch(to:)` with the other signal,
    /// then `deliverOnMainThread()`, here.
    @available(
        *, unavailable,
        message: "asDriver(onErrorDriveWith: fallback) is catch(to: fallback).deliverOnMainThread() here, with a fallback Signal<Value, Never> (or deliver(on: .main)); a Property (module Subjects) shares one subscription and its latest value as a Driver does"
    )
    public func asDriver(onErrorDriveWith fallback: Signal<Value, Never>) -> Signal<Value, Never> {
        unreachableStubBody()
    }

    /// RxSwift's (RxCocoa's) `asDriver(onErrorRecover:)`: `catch(_:)` with the handler, then
    /// `deliverOnMainThread()`, here.
    @available(
        *, unavailable,
        message: "asDriver(onErrorRecover: handler) is catch(handler).deliverOnMainThread() here, with a handler that returns a Signal<Value, Never> (or deliver(on: .main)); a Property (module Subjects) shares one subscription and its latest value as a Driver does"
    )
    public func asDriver(onErrorRecover handler: @escaping @Sendable (Failure) -> Signal<Value, Never>) -> Signal<Value, Never> {
        unreachableStubBody()
    }

    /// RxSwift's (RxCocoa's) `asDriver()`: `deliverOnMainThread()` of a signal that cannot fail
    /// here.
    @available(
        *, unavailable,
        message: "asDriver() is deliverOnMainThread() here (or deliver(on: .main)), on a Signal<Value, Never>: catch(to:) or catch(_:) its errors first; Property(initial:then:) (module Subjects) shares one subscription and its latest value as a Driver does"
    )
    public func asDriver() -> Signal<Value, Never> {
        unreachableStubBody()
    }

    /// RxSwift's (RxCocoa's) `drive(onNext:onCompleted:onDisposed:)`: `subscribeNextOnMainActor(_:)`
    /// and `subscribeOnMainActor(next:error:completed:)` here.
    @available(
        *, unavailable,
        message: "drive(onNext:) is subscribeNextOnMainActor(_:) here, and drive(onNext:onCompleted:) subscribeOnMainActor(next:completed:), delivered on the main thread (deliverOnMainThread().subscribe(next:completed:) with closures that are not main-actor ones); onDisposed has no counterpart: disposal is silent"
    )
    @discardableResult
    public func drive(
        onNext: (@Sendable (Value) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> Disposable {
        unreachableStubBody()
    }

    /// RxSwift's (RxCocoa's) `drive(_:)`, with an observer or a relay: `deliverOnMainThread()`
    /// then `subscribe(_:)` a subject here, or `ObservableValue`'s `bind(from:)` (module
    /// `Subjects`).
    @available(
        *, unavailable,
        message: "drive(observer) is deliverOnMainThread().subscribe(subject) here, for a Subject or a Subscriber; for an ObservableValue (module Subjects), value.bind(from: signal.deliverOnMainThread())"
    )
    @discardableResult
    public func drive<Target: AnyObject>(_ target: Target) -> Disposable {
        unreachableStubBody()
    }

    /// RxSwift's `Observable.just(_:)`: `return(_:)` here.
    @available(*, unavailable, renamed: "return(_:)")
    public static func just(_ element: Value) -> Signal {
        .return(element)
    }

    /// RxSwift's `Observable.of(_:)`: a `LazyList`'s `signal()` here (module `Sequences`).
    @available(*, unavailable, message: "LazyList([a, b, c]).signal() (module Sequences) sends the values, then completes")
    public static func of(_ elements: Value...) -> Signal {
        unreachableStubBody()
    }

    /// RxSwift's `Observable.from(_:)`: a `LazyList`'s `signal()` here (module `Sequences`).
    @available(*, unavailable, message: "LazyList(elements).signal() (module Sequences) sends the values, then completes")
    public static func from<Elements: Sequence>(_ elements: Elements) -> Signal where Elements.Element == Value {
        unreachableStubBody()
    }

    /// RxSwift's `Observable.create(_:)`: `init(_:)`
    /// here, `Signal { subscriber in … }`.
    @available(*, unavailable, renamed: "init(_:)", message: "write Signal { subscriber in … }")
    public static func create(_ didSubscribe: @escaping @Sendable (Subscriber<Value, Failure>) -> Disposable?) -> Signal {
        Signal(didSubscribe)
    }

    /// RxSwift's `Observable.deferred(_:)`: `defer(_:)` here.
    @available(*, unavailable, renamed: "defer(_:)")
    public static func deferred(_ makeSignal: @escaping @Sendable () -> Signal) -> Signal {
        .defer(makeSignal)
    }
}

extension Signal where Value == Date, Failure == Never {
    /// RxSwift's `Observable.interval(_:scheduler:)`: `interval(_:on:leeway:)` here, which sends
    /// the date of each tick.
    @available(*, unavailable, renamed: "interval(_:on:leeway:)")
    public static func interval(_ period: TimeInterval, scheduler: Scheduler) -> Signal {
        interval(period, on: scheduler)
    }

    /// RxSwift's `Observable.interval(_:scheduler:)` with a `DispatchTimeInterval`:
    /// `interval(_:on:leeway:)` here.
    @available(*, unavailable, renamed: "interval(_:on:leeway:)", message: "it takes the interval in seconds, a TimeInterval")
    public static func interval(_ period: Duration, scheduler: Scheduler) -> Signal {
        interval(period / .seconds(1), on: scheduler)
    }
}

extension Signal where Value == Int {
    /// RxSwift's `Observable<Int>.interval(_:scheduler:)`, which counts its ticks: here
    /// `Signal.interval(_:on:leeway:)` sends the date of each tick, a `Signal<Date, Never>`; for
    /// RxSwift's 0, 1, 2, …, count them with `scan(-1) { count, _ in count + 1 }`.
    @available(
        *, unavailable,
        message: "Signal.interval(seconds, on: scheduler) sends each tick's date, a Signal<Date, Never>; for RxSwift's 0, 1, 2, … add .scan(-1) { count, _ in count + 1 }"
    )
    public static func interval(_ period: TimeInterval, scheduler: Scheduler) -> Signal<Int, Never> {
        Signal<Date, Never>.interval(period, on: scheduler).scan(-1) { count, _ in count + 1 }
    }

    /// RxSwift's `Observable<Int>.interval(_:scheduler:)` with a `DispatchTimeInterval` such as
    /// `.milliseconds(10)`: see the `TimeInterval` form.
    @available(
        *, unavailable,
        message: "Signal.interval(seconds, on: scheduler) takes a TimeInterval and sends each tick's date, a Signal<Date, Never>; for RxSwift's 0, 1, 2, … add .scan(-1) { count, _ in count + 1 }"
    )
    public static func interval(_ period: Duration, scheduler: Scheduler) -> Signal<Int, Never> {
        Signal<Date, Never>.interval(period / .seconds(1), on: scheduler).scan(-1) { count, _ in count + 1 }
    }
}

// RxSwift's observers and subjects: `onNext(_:)` and the rest, on every subscriber here (a
// `Subscriber`, a subject of module `Subjects`). Combine's `send(_:)` gets no stub: `send` is also
// the C library's socket function, which an unqualified call inside a subscriber type would then
// no longer find.

extension SubscriberProtocol {
    /// RxSwift's `onNext(_:)`: `sendNext(_:)` here.
    @available(*, unavailable, renamed: "sendNext(_:)")
    public func onNext(_ value: Value) {
        sendNext(value)
    }

    /// RxSwift's `onError(_:)`: `sendError(_:)` here.
    @available(*, unavailable, renamed: "sendError(_:)")
    public func onError(_ error: Failure) {
        sendError(error)
    }

    /// RxSwift's `onCompleted()`: `sendCompleted()` here.
    @available(*, unavailable, renamed: "sendCompleted()")
    public func onCompleted() {
        sendCompleted()
    }

    /// RxSwift's `on(_:)`, with an event: one method per event here,
    /// `sendNext(_:)`, `sendError(_:)` and
    /// `sendCompleted()`.
    @available(*, unavailable, message: "on(.next(value)) is sendNext(value) here, on(.error(error)) sendError(error), on(.completed) sendCompleted()")
    public func on(_ event: Event<Value, Failure>) {
        switch event {
        case let .next(value): sendNext(value)
        case let .error(error): sendError(error)
        case .completed: sendCompleted()
        }
    }
}

// RxTest's spellings on its `TestScheduler`, which is ours too (module Schedulers): the methods
// that make test signals and observers have other names here.
extension TestScheduler {
    /// RxSwift's (RxTest's) `createObserver(_:)`: `start(created:subscribed:disposed:_:)` or
    /// `record(_:)` here, which subscribe a signal and keep its events with their virtual times;
    /// a fake's call log is a `Recorder`.
    @available(
        *, unavailable,
        message: "start(created:subscribed:disposed:_:) or record(_:) subscribe a signal and return its events with their times; a Recorder keeps a fake's calls"
    )
    public func createObserver<Element>(_ type: Element.Type) -> Never {
        unreachableStubBody()
    }

    /// RxSwift's (RxTest's) `createHotObservable(_:)`: `createHotSignal(_:)` here, from events
    /// at absolute virtual times, or `createHotSignal(_:values:error:frame:)` from a marble
    /// diagram.
    @available(*, unavailable, renamed: "createHotSignal(_:)")
    public func createHotObservable<Value: Sendable, Failure>(_ events: [Recorded<Value, Failure>]) -> TestSignal<Value, Failure> {
        createHotSignal(events)
    }

    /// RxSwift's (RxTest's) `createColdObservable(_:)`: `createColdSignal(_:)` here, from events
    /// at times after each subscription, or `createColdSignal(_:values:error:frame:)` from a
    /// marble diagram.
    @available(*, unavailable, renamed: "createColdSignal(_:)")
    public func createColdObservable<Value: Sendable, Failure>(_ events: [Recorded<Value, Failure>]) -> TestSignal<Value, Failure> {
        createColdSignal(events)
    }

    /// RxSwift's (RxTest's) `scheduleAt(_:action:)`: `schedule(after:_:)` here, with the date
    /// `clockStart.addingTimeInterval(time)`.
    @available(
        *, unavailable,
        message: "scheduleAt(time) { … } is schedule(after: scheduler.clockStart.addingTimeInterval(time)) { … } here; the time is in virtual seconds"
    )
    public func scheduleAt(_ time: TimeInterval, action: @escaping @Sendable () -> Void) {
        _ = schedule(after: clockStart.addingTimeInterval(time), action)
    }

    /// RxSwift's (RxTest's) `start()`, which runs the virtual clock: `run()` here;
    /// `start(created:subscribed:disposed:_:)` is RxTest's `start { … }`.
    @available(*, unavailable, renamed: "run()")
    public func start() {
        run()
    }
}
