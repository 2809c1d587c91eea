import Disposables
import Foundation
import Schedulers

// The spellings of Combine whose twin here has another name, as unavailable declarations with
// Combine's argument labels, so that the compiler names ours; the rules for adding one are in
// ReactiveSwift.swift beside this file. A Combine scheduler's interval is written `.seconds(0.3)`
// or `.milliseconds(300)`, or as a number of seconds: each timed stub comes with a `Duration`
// (which those build) and with a `TimeInterval`. Combine's `print(_:)` gets no stub: inside any
// `extension Signal`, an unqualified `print` would find it instead of the standard library's
// (`debug(_:)` and `logAll()` are ours). Neither does `zip(_:)` (the global `zip`).
// The instance `combineLatest(_:)` does, beside our static `Signal.combineLatest(_:)` of the same
// labels: an unavailable declaration ranks below an available one that fits, so
// `Signal.combineLatest(a, b)` still picks ours (OtherLibrariesNamesTests type-checks it beside
// the stubs, and times it). `collect(_:)` with a count renames to `buffer(count:)`; `collect()`
// is ours (RAC 2.5's `-collect`), as Combine's is, and `collect(.byTimeOrCount(…))` has no stub
// (it would need Combine's strategy type): it is `buffer(count:interval:on:)` here.

extension Signal {
    /// Combine's `combineLatest(_:)` on a publisher: `combineLatest(with:)` here, or the static
    /// `Signal.combineLatest(_:)` with both.
    @available(*, unavailable, renamed: "combineLatest(with:)")
    public func combineLatest<U>(_ other: Signal<U, Failure>) -> Signal<(Value, U), Failure> {
        combineLatest(with: other)
    }

    /// Combine's `combineLatest(_:_:)` with two more publishers: the static
    /// `Signal.combineLatest(_:)` with all three here.
    @available(*, unavailable, message: "a.combineLatest(b, c) is Signal.combineLatest(a, b, c) here")
    public func combineLatest<U, W>(_ second: Signal<U, Failure>, _ third: Signal<W, Failure>) -> Signal<(Value, U, W), Failure> {
        Signal<(Value, U, W), Failure>.combineLatest(self, second, third)
    }

    /// Combine's `combineLatest(_:_:)` with a transform: `combineLatest(with:)` then `map(_:)`
    /// here.
    @available(*, unavailable, message: "a.combineLatest(b) { x, y in … } is a.combineLatest(with: b).map { x, y in … } here")
    public func combineLatest<U, R>(_ other: Signal<U, Failure>, _ transform: @escaping @Sendable (Value, U) -> R) -> Signal<R, Failure> {
        combineLatest(with: other).map { transform($0.0, $0.1) }
    }

    /// Combine's `collect(_:)` with a count: `buffer(count:)` here (`collect()` gathers every
    /// value, as Combine's does).
    @available(*, unavailable, renamed: "buffer(count:)")
    public func collect(_ count: Int) -> Signal<[Value], Failure> {
        buffer(count: count)
    }

    /// Combine's `debounce(for:scheduler:)`: `throttle(_:on:)` here, RAC 2.5's `-throttle:`,
    /// which is a debounce.
    @available(*, unavailable, renamed: "throttle(_:on:)")
    public func debounce<AnyScheduler>(for dueTime: TimeInterval, scheduler: AnyScheduler) -> Signal {
        unreachableStubBody()
    }

    /// Combine's `debounce(for:scheduler:)` with a `.seconds(…)` stride: `throttle(_:on:)` here.
    @available(*, unavailable, renamed: "throttle(_:on:)", message: "it takes the interval in seconds, a TimeInterval")
    public func debounce<AnyScheduler>(for dueTime: Duration, scheduler: AnyScheduler) -> Signal {
        unreachableStubBody()
    }

    /// Combine's `throttle(for:scheduler:latest:)`, a rate limiter: `rateLimit(_:on:latest:)`
    /// here, where `throttle(_:on:)` is RAC 2.5's debounce. Both drop values; `pace(_:on:)` sends
    /// every value, spaced (Combine has no such operator).
    @available(
        *, unavailable, renamed: "rateLimit(_:on:latest:)",
        message: "Combine's throttle limits the rate; throttle(_:on:) here is RAC 2.5's, a debounce (Combine's debounce)"
    )
    public func throttle<AnyScheduler>(for interval: TimeInterval, scheduler: AnyScheduler, latest: Bool) -> Signal {
        unreachableStubBody()
    }

    /// Combine's `throttle(for:scheduler:latest:)` with a `.seconds(…)` stride:
    /// `rateLimit(_:on:latest:)` here.
    @available(
        *, unavailable, renamed: "rateLimit(_:on:latest:)",
        message: "Combine's throttle limits the rate, and rateLimit takes the interval in seconds, a TimeInterval; throttle(_:on:) here is RAC 2.5's, a debounce (Combine's debounce)"
    )
    public func throttle<AnyScheduler>(for interval: Duration, scheduler: AnyScheduler, latest: Bool) -> Signal {
        unreachableStubBody()
    }

    /// Combine's `delay(for:scheduler:)`: `delay(_:on:)` here.
    @available(*, unavailable, renamed: "delay(_:on:)")
    public func delay<AnyScheduler>(for interval: TimeInterval, scheduler: AnyScheduler) -> Signal {
        unreachableStubBody()
    }

    /// Combine's `delay(for:scheduler:)` with a `.seconds(…)` stride: `delay(_:on:)` here.
    @available(*, unavailable, renamed: "delay(_:on:)", message: "it takes the interval in seconds, a TimeInterval")
    public func delay<AnyScheduler>(for interval: Duration, scheduler: AnyScheduler) -> Signal {
        unreachableStubBody()
    }

    /// Combine's `receive(on:)`, with any scheduler (`DispatchQueue.main`, `RunLoop.main`):
    /// `deliver(on:)` here, with a `Scheduler` (`.main` for the main queue), or
    /// `deliverOnMainThread()`.
    @available(
        *, unavailable, renamed: "deliver(on:)",
        message: "with a Scheduler: .main for the main queue, or deliverOnMainThread()"
    )
    public func receive<AnyScheduler>(on scheduler: AnyScheduler) -> Signal {
        unreachableStubBody()
    }

    /// Combine's `removeDuplicates(by:)`: `distinctUntilChanged(by:)` here.
    @available(*, unavailable, renamed: "distinctUntilChanged(by:)")
    public func removeDuplicates(by isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Signal {
        distinctUntilChanged(by: isEquivalent)
    }

    /// Combine's `sink(receiveValue:)`: `subscribe(next:error:completed:)` here, or
    /// `subscribeNext(_:)`.
    @available(
        *, unavailable, renamed: "subscribe(next:)",
        message: "the Disposable it returns does not end the subscription when released, as an AnyCancellable does: dispose() it, or keep it as a ScopedDisposable"
    )
    @discardableResult
    public func sink(receiveValue: @escaping @Sendable (Value) -> Void) -> Disposable {
        subscribe(next: receiveValue)
    }

    /// Combine's `Subscribers.Completion`, for the `sink(receiveCompletion:receiveValue:)` stub:
    /// its closure may then `switch` over `.finished` and `.failure(error)` and still get the
    /// stub's message.
    @available(*, unavailable)
    public enum _Completion {
        case finished
        case failure(Failure)
    }

    /// Combine's `sink(receiveCompletion:receiveValue:)`: `subscribe(next:error:completed:)`
    /// here, with one closure for the error and one for completion.
    @available(
        *, unavailable,
        message: "subscribe(next:error:completed:) here: receiveValue is next, and receiveCompletion is two closures, error for .failure and completed for .finished"
    )
    @discardableResult
    public func sink(
        receiveCompletion: @escaping @Sendable (_Completion) -> Void,
        receiveValue: @escaping @Sendable (Value) -> Void
    ) -> Disposable {
        subscribe(
            next: receiveValue,
            error: { receiveCompletion(.failure($0)) },
            completed: { receiveCompletion(.finished) }
        )
    }

    /// Combine's `handleEvents(…)`, with `receiveSubscription`, `receiveOutput`,
    /// `receiveCompletion`, `receiveCancel` and `receiveRequest`: one operator per event here,
    /// `doNext(_:)`, `doError(_:)`, `doCompleted(_:)` and `initially(_:)`.
    @available(
        *, unavailable,
        message: "one operator per event: handleEvents(receiveOutput:) is doNext(_:), receiveCompletion is doError(_:) and doCompleted(_:), receiveSubscription initially(_:); a cancel is silent"
    )
    public func handleEvents(
        receiveSubscription: (@Sendable (Disposable) -> Void)? = nil,
        receiveOutput: (@Sendable (Value) -> Void)? = nil,
        receiveCompletion: (@Sendable (_Completion) -> Void)? = nil,
        receiveCancel: (@Sendable () -> Void)? = nil,
        receiveRequest: (@Sendable (Int) -> Void)? = nil
    ) -> Signal {
        unreachableStubBody()
    }

    /// Combine's `prefix(_:)`: `take(_:)` here.
    @available(*, unavailable, renamed: "take(_:)")
    public func prefix(_ maxLength: Int) -> Signal {
        take(maxLength)
    }

    /// Combine's `prefix(while:)`: `take(while:)` here.
    @available(*, unavailable, renamed: "take(while:)")
    public func prefix(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        take(while: predicate)
    }

    /// Combine's `prefix(untilOutputFrom:)`: `take(until:)` here.
    @available(*, unavailable, renamed: "take(until:)")
    public func prefix<U, TriggerFailure>(untilOutputFrom trigger: Signal<U, TriggerFailure>) -> Signal {
        take(until: trigger)
    }

    /// Combine's `dropFirst(_:)`: `skip(_:)` here.
    @available(*, unavailable, renamed: "skip(_:)")
    public func dropFirst(_ count: Int = 1) -> Signal {
        skip(count)
    }

    /// Combine's `drop(while:)`: `skip(while:)` here.
    @available(*, unavailable, renamed: "skip(while:)")
    public func drop(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        skip(while: predicate)
    }

    /// Combine's `drop(untilOutputFrom:)`: `skip(until:)` here.
    @available(*, unavailable, renamed: "skip(until:)")
    public func drop<U, TriggerFailure>(untilOutputFrom trigger: Signal<U, TriggerFailure>) -> Signal {
        skip(until: trigger)
    }

    /// Combine's `last()`: `take(last:)` with a count of one here.
    @available(*, unavailable, message: "last() is take(last: 1) here")
    public func last() -> Signal {
        take(last: 1)
    }

    /// Combine's `ignoreOutput()`: `ignoreValues()` here.
    @available(*, unavailable, renamed: "ignoreValues()")
    public func ignoreOutput() -> Signal {
        ignoreValues()
    }

    /// Combine's `replaceError(with:)`: `catch(to:)` with a
    /// `return(_:)` signal here.
    @available(*, unavailable, message: "replaceError(with: value) is catch(to: .return(value)) here")
    public func replaceError(with output: Value) -> Signal<Value, Never> {
        self.catch(to: Signal<Value, Never>.return(output))
    }

    /// Combine's and ReactiveSwift's `merge(with:)`: `merge(_:)` here.
    @available(*, unavailable, renamed: "merge(_:)")
    public func merge(with other: Signal) -> Signal {
        merge(other)
    }

    /// Combine's `append(_:)` with a publisher: `concat(_:)` here.
    @available(*, unavailable, renamed: "concat(_:)")
    public func append(_ other: Signal) -> Signal {
        concat(other)
    }

    /// Combine's `prepend(_:)` with values: `startWith(_:)` here, once per value.
    @available(*, unavailable, message: "prepend(value) is startWith(value) here, one value each")
    public func prepend(_ values: Value...) -> Signal {
        values.reversed().reduce(self as Signal) { signal, value in signal.startWith(value) }
    }

    /// Combine's `prepend(_:)` with a publisher: `concat(_:)` called on it here.
    @available(*, unavailable, message: "a.prepend(b) is b.concat(a) here")
    public func prepend(_ other: Signal) -> Signal {
        other.concat(self)
    }

    /// Combine's and ReactiveSwift's `reduce(_:_:)`: `aggregate(_:_:)` here. (RxSwift's
    /// `reduce(_:accumulator:)` has no stub of its own: two would make `reduce(0) { … }` ambiguous
    /// instead of renamed; its label draws "incorrect argument label", which leads here.)
    @available(*, unavailable, renamed: "aggregate(_:_:)")
    public func reduce<Running>(
        _ initialResult: Running,
        _ nextPartialResult: @escaping @Sendable (Running, Value) -> Running
    ) -> Signal<Running, Failure> {
        aggregate(initialResult, nextPartialResult)
    }

    /// Combine's `allSatisfy(_:)`: `all(_:)` here.
    @available(*, unavailable, renamed: "all(_:)")
    public func allSatisfy(_ predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Bool, Failure> {
        all(predicate)
    }

    /// Combine's `contains(where:)`: `any(_:)` here.
    @available(*, unavailable, renamed: "any(_:)")
    public func contains(where predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Bool, Failure> {
        any(predicate)
    }

    /// Combine's `eraseToAnyPublisher()`: nothing to call here, where every signal is a `Signal`.
    @available(*, unavailable, message: "a Signal is already the one signal type: drop the call")
    public func eraseToAnyPublisher() -> Signal {
        self
    }

}

extension Signal where Value: Equatable {
    /// Combine's `removeDuplicates()`: `distinctUntilChanged()` here.
    @available(*, unavailable, renamed: "distinctUntilChanged()")
    public func removeDuplicates() -> Signal {
        distinctUntilChanged()
    }
}

extension Signal where Failure == Never {
    /// Combine's `setFailureType(to:)`: `promoteError(_:)` here.
    @available(*, unavailable, renamed: "promoteError(_:)")
    public func setFailureType<NewFailure>(to failureType: NewFailure.Type) -> Signal<Value, NewFailure> {
        promoteError(failureType)
    }
}
