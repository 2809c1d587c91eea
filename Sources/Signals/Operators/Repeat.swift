import Disposables
import Schedulers

extension Signal {
    /// Sends this signal's values over and over: subscribes again each time it completes.
    ///
    /// It never completes by itself; an error ends it and is sent. End it by disposing, or with an
    /// operator downstream such as `take(_:)`.
    ///
    /// ```swift
    /// Signal<Int, Never>.return(1).repeat().take(3)   // 1, 1, 1, completed
    /// ```
    ///
    /// **Departure:** RAC 2.5 subscribes the first time at once and every later time through
    /// `scheduleRecursive` on the current scheduler (or a background one), a scheduler hop per
    /// repetition. This one subscribes again on the thread where the previous subscription ended,
    /// in a loop when it ended synchronously: no hop and no stack growth, however many times a
    /// synchronous signal repeats. So a signal that completes synchronously repeats inside the
    /// subscribing call until something disposes the subscription (a `take(_:)` downstream, a
    /// callback, another thread). Disposal stops it during a subscription and between two.
    ///
    /// RAC 2.5: `-repeat`.
    public func `repeat`() -> Signal {
        resubscribing(.repeat).named(derivedName("-repeat"))
    }

    /// Subscribes again each time this signal fails, without limit; sends its values, and its
    /// completion when it completes.
    ///
    /// The same as `retry(0)`. **Departure:** resubscribes without a scheduler hop or stack
    /// growth, as ``repeat()`` does.
    ///
    /// RAC 2.5: `-retry`.
    public func retry() -> Signal {
        resubscribing(.retry(limit: 0, after: nil)).named(derivedName("-retry"))
    }

    /// Subscribes again when this signal fails, at most `count` times, then sends the error.
    ///
    /// `retry(0)` retries forever, like ``retry()``, as in RAC 2.5. Values pass through from every
    /// subscription; completion ends the result. **Departure:** resubscribes without a scheduler
    /// hop or stack growth, as ``repeat()`` does.
    ///
    /// ```swift
    /// fetch.retry(2)   // subscribes up to three times; the third error is sent
    /// ```
    ///
    /// - Parameter count: The most resubscriptions, or `0` for no limit; not negative.
    ///
    /// RAC 2.5: `-retry:`.
    public func retry(_ count: Int) -> Signal {
        checkInput(count >= 0, "retry(_:) needs a count of zero (no limit) or more, got \(count)")
        return resubscribing(.retry(limit: count, after: nil)).named(derivedName("-retry: \(count)"))
    }

    /// Subscribes again when this signal fails, after a delay on `scheduler`, at most `count`
    /// times, then sends the error.
    ///
    /// Values pass through from every subscription; completion ends the result. On an error, the
    /// resubscription is scheduled on `scheduler` after the delay `delay` gives for that retry
    /// (see ``RetryDelay``: constant, or growing exponentially up to a cap), and the next
    /// subscription is made there; the error after the last retry is sent at once. `count`
    /// counts the retries of the whole subscription, whether or not values came in between.
    ///
    /// ```swift
    /// // subscribes at 0 s; on errors, again at 1 s, 3 s and 7 s; a fourth error is sent
    /// fetch.retry(3, delay: .exponential(initial: 1), on: .main)
    /// ```
    ///
    /// Disposal during a wait cancels the resubscription: nothing is sent after it. The delays
    /// are measured on the scheduler's monotonic clock; an infinite one never ends (the result
    /// waits until disposed). On `Scheduler.immediate` the failing thread sleeps for the delay and
    /// subscribes again itself; however many times a synchronous signal fails there, the
    /// resubscriptions take turns of one loop, not a deeper stack each.
    ///
    /// Other libraries: ReactiveSwift's `retry(upTo:interval:on:)` (a constant delay); RxSwift's
    /// `retry(when:)` with a hand-written delay; Combine has none (`retry(_:)` resubscribes at
    /// once).
    ///
    /// New; RAC 2.5 has none (its `-retry:` resubscribes at once).
    ///
    /// - Parameters:
    ///   - count: The most resubscriptions, or `0` for no limit, as in ``retry(_:)``; not
    ///     negative.
    ///   - delay: How long to wait before each resubscription.
    ///   - scheduler: Where the waits are timed and the resubscriptions made.
    public func retry(_ count: Int, delay: RetryDelay, on scheduler: Scheduler) -> Signal {
        checkInput(count >= 0, "retry(_:delay:on:) needs a count of zero (no limit) or more, got \(count)")
        delay.checkDelays(of: "retry(_:delay:on:)")
        return resubscribing(.retry(limit: count, after: (delay, scheduler)))
            .named(derivedName("-retry: \(count) delay: \(delay) onScheduler: \(scheduler)"))
    }

    private func resubscribing(_ policy: ResubscribePolicy) -> Signal {
        Signal(producer: { downstream in
            // Each subscription may end on a different thread: their events meet at one
            // subscriber, which serializes them and is what disposal closes.
            let output = Subscriber(downstream)
            downstream.attach(output.disposable)
            ResubscribeRunner(source: self, output: output, policy: policy).advance()
            return output.disposable
        })
    }
}

/// When `repeat` and `retry` subscribe again.
private enum ResubscribePolicy {
    /// After each completion; an error ends the result.
    case `repeat`
    /// After an error, at most `limit` times (0: no limit), at once or after a delay on a
    /// scheduler; completion ends the result.
    case retry(limit: Int, after: (delay: RetryDelay, scheduler: Scheduler)?)
}

/// Subscribes to the source again and again, through ``SequentialRunner``'s trampoline, so a
/// million synchronous repetitions take a million turns of one loop.
private final class ResubscribeRunner<Value, Failure: Error>: SequentialRunner<Value, Failure>, @unchecked Sendable {
    private let source: Signal<Value, Failure>
    private let policy: ResubscribePolicy
    /// Touched only by the current subscription's events, which end before the next one starts.
    private var retries = 0

    init(source: Signal<Value, Failure>, output: Subscriber<Value, Failure>, policy: ResubscribePolicy) {
        self.source = source
        self.policy = policy
        super.init(output: output)
    }

    override func subscribeNext() -> Bool {
        _ = source.attachSink(self)
        return true
    }

    package override func receive(error: Failure) {
        switch policy {
        case .repeat:
            output.sendError(error)
        case let .retry(limit, wait):
            guard limit == 0 || retries < limit else { return output.sendError(error) }
            retries += 1
            guard let (delay, scheduler) = wait else { return advance() }
            // A child of the output's disposable until it runs, so disposal cancels it. On a
            // scheduler that runs it at once (immediate), `advance()` finds the loop running
            // (this error came from inside its subscription) and leaves it one more turn.
            output.disposable.schedule(on: scheduler, afterDelay: delay.delay(beforeRetry: retries)) { [self] in
                DeliveryContext.subscribingWhereSendsMayWait { advance() }
            }
        }
    }

    package override func receiveCompleted() {
        if case .repeat = policy {
            advance()
        } else {
            output.sendCompleted()
        }
    }
}
