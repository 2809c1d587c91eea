import Disposables
import Foundation
import Schedulers

// The spellings of ReactiveSwift (RAC 4 and later) whose twin here has another name: each is an
// unavailable declaration with ReactiveSwift's argument labels, so that a call written from memory
// makes the compiler name ours ("'debounce(_:on:)' has been renamed to 'throttle(_:on:)'") instead
// of saying "has no member". None of them can be called; a body that forwards to ours shows which
// call it stands for.
//
// Rules for adding one (see also RxSwift.swift and Combine.swift beside this file):
// - never a name with labels that an operator of ours has (`compactMap`, `flatMapLatest`,
//   `take(during:)`): the stub would clash with it (a base name of ours with other labels, as
//   `collect(count:)` beside `collect()`, is fine);
// - never the name of a global function (`print`, `min`, `max`, `zip`, `send`, …): inside any
//   `extension Signal`, the library's or a user's, an unqualified call finds the member first;
// - only on `Signal`, its subscribers and `MulticastConnection`, never on `LazyList`, a `Sequence`,
//   where `prefix` and `flatMap` are the standard library's.
// DocC leaves unavailable declarations out, so these comments are for readers of the source; the
// article "Coming from RAC 2.5, ReactiveSwift, RxSwift or Combine" lists the spellings covered.

/// The body of a stub that no one call of ours stands for (ReactiveSwift's `replayLazily(upTo:)`),
/// that takes a scheduler of any type (Combine's `throttle(for:scheduler:latest:)`, which renames to `rateLimit(_:on:latest:)`),
/// or whose counterpart asks more of the types than the peer's spelling (`deliver(on:)` needs
/// `Sendable` values; its stubs stay open to any, so that the rename shows first), and of the members
/// of the other libraries' unavailable types (module Subjects's `BehaviorRelay.value`): it never
/// runs, since no code can call an unavailable declaration. Package-wide, so that no user sees it.
package func unreachableStubBody() -> Never {
    fatalError("an unavailable stub was called")
}

extension Signal {
    /// ReactiveSwift's `withLatest(from:)`: `withLatestFrom(_:)` here.
    @available(*, unavailable, renamed: "withLatestFrom(_:)")
    public func withLatest<U>(from other: Signal<U, Failure>) -> Signal<(Value, U), Failure> {
        withLatestFrom(other)
    }

    /// ReactiveSwift's `collect(count:)`: `buffer(count:)` here (`collect()` is RAC 2.5's
    /// `-collect`, every value in one array).
    @available(*, unavailable, renamed: "buffer(count:)")
    public func collect(count: Int) -> Signal<[Value], Failure> {
        buffer(count: count)
    }

    /// ReactiveSwift's `debounce(_:on:)`: `throttle(_:on:)` here, RAC 2.5's `-throttle:`, which is
    /// a debounce.
    @available(*, unavailable, renamed: "throttle(_:on:)")
    public func debounce(_ interval: TimeInterval, on scheduler: Scheduler) -> Signal {
        throttle(interval, on: scheduler)
    }

    /// ReactiveSwift's and RxSwift's `observe(on:)`: `deliver(on:)` here.
    @available(*, unavailable, renamed: "deliver(on:)")
    public func observe(on scheduler: Scheduler) -> Signal {
        unreachableStubBody()
    }

    /// ReactiveSwift's `start(on:)`: `subscribe(on:)` here.
    @available(*, unavailable, renamed: "subscribe(on:)")
    public func start(on scheduler: Scheduler) -> Signal {
        unreachableStubBody()
    }

    /// ReactiveSwift's `take(first:)`: `take(_:)` here.
    @available(*, unavailable, renamed: "take(_:)")
    public func take(first count: Int) -> Signal {
        take(count)
    }

    /// ReactiveSwift's `skip(first:)`: `skip(_:)` here.
    @available(*, unavailable, renamed: "skip(_:)")
    public func skip(first count: Int) -> Signal {
        skip(count)
    }

    /// ReactiveSwift's `skipRepeats(_:)`: `distinctUntilChanged(by:)` here.
    @available(*, unavailable, renamed: "distinctUntilChanged(by:)")
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Signal {
        distinctUntilChanged(by: isEquivalent)
    }

    /// ReactiveSwift's `prefix(value:)`: `startWith(_:)` here.
    @available(*, unavailable, renamed: "startWith(_:)")
    public func prefix(value: Value) -> Signal {
        startWith(value)
    }

    /// ReactiveSwift's `flatMapError(_:)`: `catch(_:)` here.
    @available(*, unavailable, renamed: "catch(_:)")
    public func flatMapError<NewFailure>(
        _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
    ) -> Signal<Value, NewFailure> {
        self.catch(handler)
    }

    /// ReactiveSwift's `retry(upTo:)`: `retry(_:)` here.
    @available(*, unavailable, renamed: "retry(_:)")
    public func retry(upTo count: Int) -> Signal {
        retry(count)
    }

    /// ReactiveSwift's `retry(upTo:interval:on:)`: `retry(_:delay:on:)` here, with the interval
    /// as `.constant(interval)`.
    @available(
        *, unavailable, renamed: "retry(_:delay:on:)",
        message: "the delay is a RetryDelay, .constant(interval) or .exponential(initial:multiplier:maximum:); a count of 0 there retries never, here without limit"
    )
    public func retry(upTo count: Int, interval: TimeInterval, on scheduler: Scheduler) -> Signal {
        retry(count, delay: .constant(interval), on: scheduler)
    }

    /// ReactiveSwift's `attemptMap(_:)`: `tryMap(_:)` here, with a closure that throws the
    /// signal's `Failure`.
    @available(*, unavailable, renamed: "tryMap(_:)")
    public func attemptMap<U>(_ transform: @escaping @Sendable (Value) throws(Failure) -> U) -> Signal<U, Failure> {
        tryMap(transform)
    }

    /// ReactiveSwift's `timeout(after:raising:on:)`: `timeout(_:on:raising:)` here.
    @available(*, unavailable, renamed: "timeout(_:on:raising:)")
    public func timeout(after interval: TimeInterval, raising error: Failure, on scheduler: Scheduler) -> Signal {
        timeout(interval, on: scheduler, raising: error)
    }

    /// ReactiveSwift's `sample(on:)`: `sample(_:)` here.
    @available(*, unavailable, renamed: "sample(_:)")
    public func sample<U>(on sampler: Signal<U, Failure>) -> Signal {
        sample(sampler)
    }

    /// ReactiveSwift's `filterMap(_:)` (before 6.0): `compactMap(_:)` here.
    @available(*, unavailable, renamed: "compactMap(_:)")
    public func filterMap<U>(_ transform: @escaping @Sendable (Value) -> U?) -> Signal<U, Failure> {
        compactMap(transform)
    }

    /// ReactiveSwift's `skipNil()`: `ignoreNil()` here.
    @available(*, unavailable, renamed: "ignoreNil()")
    public func skipNil<Wrapped>() -> Signal<Wrapped, Failure> where Value == Wrapped? {
        ignoreNil()
    }

    /// ReactiveSwift's `logEvents(identifier:)`: `debug(_:)` here, which logs the subscription,
    /// every event and a disposal under the name, with the thread of each.
    @available(*, unavailable, renamed: "debug(_:)")
    public func logEvents(identifier: String = "") -> Signal {
        debug(identifier)
    }

    /// ReactiveSwift's `replayLazily(upTo:)`: module `Subjects`'s `replayLazily()`, which keeps
    /// every value, or a `ReplaySubject(capacity:)` to keep fewer.
    @available(
        *, unavailable,
        message: "replayLazily() (module Subjects) keeps every value; to keep n, multicast(ReplaySubject(capacity: n)) and connect() on the first subscription"
    )
    public func replayLazily(upTo capacity: Int) -> Signal {
        unreachableStubBody()
    }

    /// ReactiveSwift's `on(…)`, with `starting`, `started`, `event`, `failed`, `completed`,
    /// `interrupted`, `terminated`, `disposed` and `value`: one operator per event here,
    /// `doNext(_:)`, `doError(_:)`, `doCompleted(_:)`, `initially(_:)` and `finally(_:)`.
    @available(
        *, unavailable,
        message: "one operator per event: on(value:) is doNext(_:), on(failed:) doError(_:), on(completed:) doCompleted(_:), on(starting:) initially(_:), on(terminated:) finally(_:); a disposal is silent (no interrupted)"
    )
    public func on(
        starting: (@Sendable () -> Void)? = nil,
        started: (@Sendable () -> Void)? = nil,
        event: (@Sendable (Event<Value, Failure>) -> Void)? = nil,
        failed: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        interrupted: (@Sendable () -> Void)? = nil,
        terminated: (@Sendable () -> Void)? = nil,
        disposed: (@Sendable () -> Void)? = nil,
        value: (@Sendable (Value) -> Void)? = nil
    ) -> Signal {
        unreachableStubBody()
    }

    /// ReactiveSwift's `start()`: `subscribe(next:error:completed:)` with no closures here.
    @available(*, unavailable, renamed: "subscribe()")
    @discardableResult
    public func start() -> Disposable {
        subscribe()
    }

    /// ReactiveSwift's `startWithValues(_:)`: `subscribeNext(_:)` here.
    @available(*, unavailable, renamed: "subscribeNext(_:)")
    @discardableResult
    public func startWithValues(_ action: @escaping @Sendable (Value) -> Void) -> Disposable {
        subscribeNext(action)
    }

    /// ReactiveSwift's `startWithFailed(_:)`: `subscribeError(_:)` here.
    @available(*, unavailable, renamed: "subscribeError(_:)")
    @discardableResult
    public func startWithFailed(_ action: @escaping @Sendable (Failure) -> Void) -> Disposable {
        subscribeError(action)
    }

    /// ReactiveSwift's `startWithCompleted(_:)`: `subscribeCompleted(_:)` here.
    @available(*, unavailable, renamed: "subscribeCompleted(_:)")
    @discardableResult
    public func startWithCompleted(_ action: @escaping @Sendable () -> Void) -> Disposable {
        subscribeCompleted(action)
    }

    /// ReactiveSwift's `observeValues(_:)` (on its hot `Signal`): `subscribeNext(_:)` here.
    @available(*, unavailable, renamed: "subscribeNext(_:)")
    @discardableResult
    public func observeValues(_ action: @escaping @Sendable (Value) -> Void) -> Disposable {
        subscribeNext(action)
    }

    /// ReactiveSwift's `observeFailed(_:)`: `subscribeError(_:)` here.
    @available(*, unavailable, renamed: "subscribeError(_:)")
    @discardableResult
    public func observeFailed(_ action: @escaping @Sendable (Failure) -> Void) -> Disposable {
        subscribeError(action)
    }

    /// ReactiveSwift's `observeCompleted(_:)`: `subscribeCompleted(_:)` here.
    @available(*, unavailable, renamed: "subscribeCompleted(_:)")
    @discardableResult
    public func observeCompleted(_ action: @escaping @Sendable () -> Void) -> Disposable {
        subscribeCompleted(action)
    }

    /// ReactiveSwift's `SignalProducer.timer(interval:on:)`: `interval(_:on:leeway:)` here.
    @available(*, unavailable, renamed: "interval(_:on:leeway:)")
    public static func timer(interval: TimeInterval, on scheduler: Scheduler) -> Signal where Value == Date, Failure == Never {
        Signal.interval(interval, on: scheduler)
    }

    /// ReactiveSwift's `SignalProducer.timer(interval:on:)` with a `DispatchTimeInterval` such as
    /// `.seconds(1)`: `interval(_:on:leeway:)` here, which takes seconds.
    @available(*, unavailable, renamed: "interval(_:on:leeway:)", message: "it takes the interval in seconds, a TimeInterval")
    public static func timer(interval: Duration, on scheduler: Scheduler) -> Signal where Value == Date, Failure == Never {
        Signal.interval(interval / .seconds(1), on: scheduler)
    }

    /// ReactiveSwift's `SignalProducer(value:)`: `return(_:)` here.
    ///
    /// Its parameter is an autoclosure, so that no trailing closure fits it: with a plain `Value`,
    /// `Signal { try await work() }` where the closure cannot fit ours (its signal cannot fail)
    /// matched this stub, as a signal of closures, and the compiler named `return(_:)`.
    @available(*, unavailable, renamed: "return(_:)")
    public convenience init(value: @autoclosure () -> Value) {
        let signal = Signal.return(value())
        self.init { subscriber in signal.subscribe(subscriber) }
    }

    /// ReactiveSwift's `SignalProducer(error:)`: `error(_:)` here.
    @available(*, unavailable, renamed: "error(_:)")
    public convenience init(error: Failure) {
        let signal = Signal.error(error)
        self.init { subscriber in signal.subscribe(subscriber) }
    }

    /// ReactiveSwift's `SignalProducer(values:)`: a `LazyList`'s `signal()` here (module
    /// `Sequences`), or `concat(_:)` of `return(_:)` signals. An autoclosure, as `init(value:)`'s.
    @available(
        *, unavailable,
        message: "LazyList(values).signal() (module Sequences) sends the values of a collection, then completes"
    )
    public convenience init(values: @autoclosure () -> [Value]) {
        unreachableStubBody()
    }
}

// ReactiveSwift's `flatMap(_:_:)` and `flatten(_:)` take a `FlattenStrategy`, written `.latest`,
// `.merge`, `.concat` or `.concurrent(limit:)`. Each strategy has a type of its own here, with the
// strategy as its only case, so that the compiler picks the stub of the strategy written and
// prints that one's message ("'flatMap' is unavailable: flatMap(.latest) is map(_:) then
// switchToLatest() here"). With one type for all four, the message would have to list them all;
// without a type, `.latest` has nothing to resolve against, and the compiler only says "cannot
// infer contextual base in reference to member 'latest'". The types are unavailable (nothing can
// name them) and underscored (out of the documentation and of code completion); nested in `Signal`,
// they add no name at the top level, where ReactiveSwift's own `FlattenStrategy` could clash with
// one when a file imports both.

extension Signal {
    /// ReactiveSwift's `FlattenStrategy.merge`, for the `flatMap(.merge)` and `flatten(.merge)`
    /// stubs.
    @available(*, unavailable)
    public enum _FlattenMerge { case merge }

    /// ReactiveSwift's `FlattenStrategy.concat`, for the `flatMap(.concat)` and `flatten(.concat)`
    /// stubs.
    @available(*, unavailable)
    public enum _FlattenConcat { case concat }

    /// ReactiveSwift's `FlattenStrategy.latest`, for the `flatMap(.latest)` and `flatten(.latest)`
    /// stubs.
    @available(*, unavailable)
    public enum _FlattenLatest { case latest }

    /// ReactiveSwift's `FlattenStrategy.concurrent(limit:)`, for the `flatMap(.concurrent(limit:))`
    /// and `flatten(.concurrent(limit:))` stubs.
    @available(*, unavailable)
    public enum _FlattenConcurrent { case concurrent(limit: Int) }

    /// ReactiveSwift's `flatMap(.merge)`: `flattenMap(_:)` here.
    @available(*, unavailable, message: "flatMap(.merge) is flattenMap(_:) here")
    public func flatMap<U>(
        _ strategy: _FlattenMerge,
        _ transform: @escaping @Sendable (Value) -> Signal<U, Failure>
    ) -> Signal<U, Failure> {
        flattenMap(transform)
    }

    /// ReactiveSwift's `flatMap(.concat)`: `map(_:)` then `concat()` here.
    @available(*, unavailable, message: "flatMap(.concat) is map(_:) then concat() here")
    public func flatMap<U>(
        _ strategy: _FlattenConcat,
        _ transform: @escaping @Sendable (Value) -> Signal<U, Failure>
    ) -> Signal<U, Failure> {
        map(transform).concat()
    }

    /// ReactiveSwift's `flatMap(.latest)`: `flatMapLatest(_:)` here.
    @available(*, unavailable, message: "flatMap(.latest) is flatMapLatest(_:) here")
    public func flatMap<U>(
        _ strategy: _FlattenLatest,
        _ transform: @escaping @Sendable (Value) -> Signal<U, Failure>
    ) -> Signal<U, Failure> {
        flatMapLatest(transform)
    }

    /// ReactiveSwift's `flatMap(.concurrent(limit:))`: `map(_:)` then
    /// `flatten(maxConcurrent:)` here.
    @available(*, unavailable, message: "flatMap(.concurrent(limit: n)) is map(_:) then flatten(maxConcurrent: n) here")
    public func flatMap<U>(
        _ strategy: _FlattenConcurrent,
        _ transform: @escaping @Sendable (Value) -> Signal<U, Failure>
    ) -> Signal<U, Failure> {
        switch strategy {
        case let .concurrent(limit): map(transform).flatten(maxConcurrent: limit)
        }
    }

    /// ReactiveSwift's `flatten(.merge)`: `flatten()` here.
    @available(*, unavailable, message: "flatten(.merge) is flatten() here")
    public func flatten<Inner>(_ strategy: _FlattenMerge) -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        flatten()
    }

    /// ReactiveSwift's `flatten(.concat)`: `concat()` here.
    @available(*, unavailable, message: "flatten(.concat) is concat() here")
    public func flatten<Inner>(_ strategy: _FlattenConcat) -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        concat()
    }

    /// ReactiveSwift's `flatten(.latest)`: `switchToLatest()` here.
    @available(*, unavailable, message: "flatten(.latest) is switchToLatest() here")
    public func flatten<Inner>(_ strategy: _FlattenLatest) -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        switchToLatest()
    }

    /// ReactiveSwift's `flatten(.concurrent(limit:))`: `flatten(maxConcurrent:)` here.
    @available(*, unavailable, message: "flatten(.concurrent(limit: n)) is flatten(maxConcurrent: n) here")
    public func flatten<Inner>(_ strategy: _FlattenConcurrent) -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        switch strategy {
        case let .concurrent(limit): flatten(maxConcurrent: limit)
        }
    }
}

extension Signal where Value: Equatable {
    /// ReactiveSwift's `skipRepeats()`: `distinctUntilChanged()` here.
    @available(*, unavailable, renamed: "distinctUntilChanged()")
    public func skipRepeats() -> Signal {
        distinctUntilChanged()
    }
}
