import Disposables
import Foundation
import Schedulers

extension Signal {
    /// Sends every value, in order, at most one per `interval` seconds: a value that comes too
    /// soon after the one before waits in a queue, first in, first out, until its turn. None is
    /// dropped.
    ///
    /// A value that comes while nothing waits, at least `interval` seconds after the last value
    /// sent (or before any), is sent at once, on the thread that sent it. Each value sent starts
    /// an interval on `scheduler`; a value that comes before it ends joins the queue, and when it
    /// ends, the oldest value waiting is sent, on `scheduler`, and starts the next interval. An
    /// interval that ends with nothing waiting lets the next value through at once.
    ///
    /// ```swift
    /// // source, one character a second:   a b c - - - - d e
    /// requests.pace(2, on: scheduler)    // a - b - c - - d - e
    /// ```
    ///
    /// Completion waits for the queue: it is sent right after the last value waiting (not an
    /// interval later), or at once when nothing waits. An error is sent at once and drops the
    /// values waiting, as ``delay(_:on:)`` and RAC 2.5's `-delay:` send an error at once.
    /// Disposal cancels the interval's timer and drops the values waiting: nothing is sent after
    /// it.
    ///
    /// Memory grows with the backlog: a source that sends faster than one value per `interval`
    /// keeps ever more values waiting, for as long as it does. Where that can happen, bound the
    /// queue with ``pace(_:on:bufferingAtMost:whenFull:)``, which says what to do with a value
    /// that finds it full.
    ///
    /// The interval is measured on the scheduler's monotonic clock, so a wall clock set back does
    /// not end it early; each starts as its value is sent, before the value's callbacks run. A
    /// zero interval sends the first value of a synchronous burst at once and the others one per
    /// turn of the scheduler. An infinite interval sends the first value only: the others, and
    /// completion, wait until the subscription is disposed. A negative or NaN interval stops the
    /// program, and so does `Scheduler.immediate`, which could only wait by blocking the sender.
    ///
    /// The interval's timer runs on `scheduler` even when nothing waits, and a timer that fires
    /// while a value's callbacks run on another thread waits for them to return before it goes
    /// on, holding `scheduler`'s queue meanwhile: a slow callback delays other work on that
    /// scheduler (with `pace(_:on: .main)`, the main thread) by up to its own length, and a
    /// callback that waits for work on `scheduler` (`queue.sync`, a semaphore) once the interval
    /// has ended waits forever. Pace onto a scheduler of its own, or keep such callbacks off it.
    ///
    /// ``rateLimit(_:on:latest:)`` and ``throttle(_:on:)`` space values too, but drop the ones
    /// that come too soon; `pace` is for the values that must all arrive (the requests a server
    /// or an API client sends, say), spaced.
    ///
    /// Other libraries: RxSwift, ReactiveSwift and Combine have none; their `throttle` and
    /// `debounce` drop values. It replaces the hand-written form, each value concatenated with
    /// an empty signal delayed by the interval, one after another
    /// (`map { .return($0).concat(Signal.empty.delay(interval, on: scheduler)) }.concat()`
    /// here, RxSwift's `concatMap` of `Observable.just(value).concat(Observable.empty().delay(…))`),
    /// which subscribes to two signals per value and holds completion back for an interval after
    /// the last value.
    ///
    /// New; RAC 2.5 has none.
    ///
    /// - Parameters:
    ///   - interval: The least time between two values sent, in seconds: zero or more, or
    ///     infinity.
    ///   - scheduler: Where the intervals are timed and the values that waited are sent.
    public func pace(_ interval: TimeInterval, on scheduler: Scheduler) -> Signal {
        timed(waiting: interval, on: scheduler, checkedAs: "pace(_:on:)", holdingCompletion: true) {
            PaceSink($0, interval: interval, scheduler: scheduler, bound: nil)
        }.named(derivedName("-pace: \(interval)"))
    }

    /// Sends every value, in order, at most one per `interval` seconds, as ``pace(_:on:)`` does,
    /// keeping at most `limit` values waiting: `policy` says what becomes of a value that comes
    /// while `limit` values wait.
    ///
    /// - ``PacePolicy/dropNewest``: the value that came is dropped; the queue stays as it was.
    /// - ``PacePolicy/dropOldest``: the oldest value waiting is dropped, and the one that came
    ///   joins the queue at its end.
    /// - ``PacePolicy/fail(_:)``: the values waiting are dropped, the source's subscription is
    ///   disposed, and the error the policy holds is sent at once: `.fail(.backlogFull)`
    ///   (``SignalError/backlogFull``) for a signal whose failure type is ``SignalError`` or
    ///   `any Error`, an error of yours otherwise. A signal that cannot fail (`Never`) has no
    ///   error to give it, so cannot choose this policy.
    ///
    /// ```swift
    /// // 1, 2, 3, 4, 5 sent at once, at 0 s:
    /// requests.pace(1, on: scheduler, bufferingAtMost: 2, whenFull: .dropNewest)   // 1 at 0 s, 2 at 1 s, 3 at 2 s
    /// requests.pace(1, on: scheduler, bufferingAtMost: 2, whenFull: .dropOldest)   // 1 at 0 s, 4 at 1 s, 5 at 2 s
    /// requests.pace(1, on: scheduler, bufferingAtMost: 2, whenFull: .fail(.backlogFull))   // 1, then the error, at 0 s
    /// ```
    ///
    /// The value sent at once, and those already sent, do not count: `limit` bounds only the
    /// queue, so memory stays within `limit` values however fast the source sends. Completion,
    /// errors, disposal and the interval are taken as in ``pace(_:on:)``: completion is sent
    /// right after the last value waiting, an error at once, dropping the values waiting;
    /// disposal drops them and sends nothing more. A `limit` below 1, and a negative or NaN
    /// interval, stop the program, and so does `Scheduler.immediate`.
    ///
    /// Other libraries: RxSwift, ReactiveSwift and Combine have none (their `throttle` and
    /// `debounce` drop values); the policies are those of Combine's `buffer(size:prefetch:whenFull:)`
    /// (`.dropNewest`, `.dropOldest`, `.customError`), which buffers for a slow subscriber rather
    /// than spacing values.
    ///
    /// New; RAC 2.5 has none.
    ///
    /// - Parameters:
    ///   - interval: The least time between two values sent, in seconds: zero or more, or
    ///     infinity.
    ///   - scheduler: Where the intervals are timed and the values that waited are sent.
    ///   - limit: The most values that may wait: 1 or more.
    ///   - policy: What becomes of a value that comes while `limit` values wait.
    public func pace(
        _ interval: TimeInterval,
        on scheduler: Scheduler,
        bufferingAtMost limit: Int,
        whenFull policy: PacePolicy<Failure>
    ) -> Signal {
        checkInput(limit >= 1, "pace(_:on:bufferingAtMost:whenFull:) needs a limit of 1 or more, got \(limit)")
        let bound = UncheckedSendable((limit: limit, policy: policy))
        return timed(waiting: interval, on: scheduler, checkedAs: "pace(_:on:bufferingAtMost:whenFull:)", holdingCompletion: true) {
            PaceSink($0, interval: interval, scheduler: scheduler, bound: bound.value)
        }.named(derivedName("-pace: \(interval) bufferingAtMost: \(limit) whenFull: \(policy)"))
    }
}

/// What ``Signal/pace(_:on:bufferingAtMost:whenFull:)`` does with a value that comes while its
/// queue is full.
///
/// ```swift
/// requests.pace(1, on: scheduler, bufferingAtMost: 100, whenFull: .fail(.backlogFull))
/// ```
///
/// Other libraries: Combine's `Publishers.BufferingStrategy` (`.dropNewest`, `.dropOldest`,
/// `.customError`), which its `buffer(size:prefetch:whenFull:)` takes; RxSwift and ReactiveSwift
/// have none.
///
/// New; RAC 2.5 has none.
public enum PacePolicy<Failure: Error> {
    /// Drops the value that came; the values waiting stay as they were.
    case dropNewest
    /// Drops the oldest value waiting; the value that came joins the queue at its end.
    case dropOldest
    /// Drops the values waiting, disposes the source's subscription and sends `error` at once.
    ///
    /// ``SignalError/backlogFull`` is the library's error for it, when the failure type can hold
    /// it (``SignalError`` or `any Error`).
    case fail(Failure)
}

extension PacePolicy: Sendable where Failure: Sendable {}

extension PacePolicy: Equatable where Failure: Equatable {}

/// Sends a value at once when no interval runs, else queues it; each firing of the interval's
/// timer sends the oldest value waiting and starts the next interval. The source's completion
/// comes as an event (`holdingCompletion`), so that the timer keeps running until the queue is
/// empty.
private final class PaceSink<Value, Failure: Error>: TimerSink<Value, Value, Failure>, @unchecked Sendable {
    private let interval: TimeInterval
    private let scheduler: Scheduler
    /// The most values that may wait, and what to do with one more; `nil` for no bound.
    private let bound: (limit: Int, policy: PacePolicy<Failure>)?
    /// The values waiting, oldest first.
    private var backlog = Queue<Value>()
    /// Whether an interval runs: a value was sent less than `interval` ago, and the timer runs.
    private var isSpacing = false
    /// Whether the source has completed, and completion waits for the backlog.
    private var completionWaits = false
    /// Whether the sink has asked its subscription to end (`complete()`, `fail(_:)`): what comes
    /// before the end is delivered is ignored.
    private var isEnding = false

    init(
        _ downstream: Sink<Value, Failure>,
        interval: TimeInterval,
        scheduler: Scheduler,
        bound: (limit: Int, policy: PacePolicy<Failure>)?
    ) {
        self.interval = interval
        self.scheduler = scheduler
        self.bound = bound
        super.init(downstream)
    }

    override func receive(value: Value, current: Scheduler?) {
        if isEnding { return }
        // Nothing waits while no interval runs: the interval's end sends what waits, or ends it.
        guard isSpacing else { return send(value) }
        if let bound, backlog.count >= bound.limit {
            switch bound.policy {
            case .dropNewest:
                return
            case .dropOldest:
                _ = backlog.popFirst()
            case let .fail(error):
                isEnding = true
                backlog.removeAll()
                cancelTimer()
                fail(error)
                return
            }
        }
        backlog.append(value)
    }

    override func timerFired() {
        if isEnding { return }
        guard let value = backlog.popFirst() else {
            isSpacing = false
            return
        }
        guard backlog.isEmpty, completionWaits else { return send(value) }
        // The last value waiting, and the source has completed: no interval to time after it.
        isEnding = true
        downstream.receive(value)
        complete()
    }

    override func sourceCompleted() {
        if isEnding { return }
        if backlog.isEmpty {
            isEnding = true
            complete()
        } else {
            completionWaits = true
        }
    }

    /// Drops the values waiting, then passes the error on.
    override func receive(error: Failure) {
        backlog.removeAll()
        super.receive(error: error)
    }

    /// Drops the values waiting: the subscription was disposed.
    override func cancel() {
        backlog.removeAll()
        super.cancel()
    }

    /// Sends `value` and starts an interval: it starts as the value leaves, before its callbacks.
    private func send(_ value: Value) {
        isSpacing = true
        startTimer(after: interval, on: scheduler)
        downstream.receive(value)
    }
}
