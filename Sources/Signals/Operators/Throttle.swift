import Foundation
import Schedulers

extension Signal {
    /// Sends a value only once `interval` seconds have passed without a newer one: a debounce.
    ///
    /// Each value replaces the one waiting and restarts the wait; a value is sent when its wait ends
    /// on `scheduler`. Completion first sends the value waiting, if any; an error discards it and
    /// is sent at once. Disposal cancels the wait.
    ///
    /// The wait is measured on the scheduler's monotonic clock, so a wall clock set back does not
    /// end it early. With an infinite interval a value waits until completion; a negative or NaN
    /// interval stops the program, and so does `Scheduler.immediate`, which could only wait by
    /// blocking the sender (so no newer value could ever come, and every value would pass).
    ///
    /// ```swift
    /// searchText.throttle(0.3, on: .main)   // "r", "re", "rea" typed quickly -> "rea"
    /// ```
    ///
    /// This is RAC 2.5's `throttle`. RAC 4's (ReactiveSwift's) `throttle` is a rate limiter instead,
    /// which sends the first value at once and then at most one per interval (here
    /// ``rateLimit(_:on:latest:)``); its debounce is called `debounce`. Both drop values: to send
    /// every value, spaced at most one per interval, use ``pace(_:on:)``.
    ///
    /// RAC 2.5: `-throttle:` (which waits on the current scheduler, or a background one; here the
    /// scheduler is given).
    public func throttle(_ interval: TimeInterval, on scheduler: Scheduler) -> Signal {
        throttle(interval, on: scheduler, valuesPassing: { _ in true })
            .named(derivedName("-throttle: \(interval)"))
    }

    /// Sends a value for which `predicate` returns `true` only once `interval` seconds have passed
    /// without a newer value; sends the others at once.
    ///
    /// A value that passes `predicate` replaces the one waiting and restarts the wait; a value is
    /// sent when its wait ends on `scheduler`. A value that fails `predicate` discards the one
    /// waiting and is sent at once. Completion first sends the value waiting, if any; an error
    /// discards it and is sent at once. Disposal cancels the wait. The interval and the scheduler
    /// are taken as in ``throttle(_:on:)``: measured on a monotonic clock, never ending when
    /// infinite, and stopping the program when negative or NaN, or on `Scheduler.immediate`.
    ///
    /// This is RAC 2.5's `throttle`, a debounce. RAC 4's (ReactiveSwift's) `throttle` is a rate
    /// limiter instead.
    ///
    /// RAC 2.5: `-throttle:valuesPassingTest:` (which waits on the current scheduler, or a
    /// background one; here the scheduler is given).
    public func throttle(
        _ interval: TimeInterval,
        on scheduler: Scheduler,
        valuesPassing predicate: @escaping @Sendable (Value) -> Bool
    ) -> Signal {
        timed(waiting: interval, on: scheduler, checkedAs: "throttle(_:on:valuesPassing:)") {
            ThrottleSink($0, interval: interval, predicate: predicate, scheduler: scheduler)
        }.named(derivedName("-throttle: \(interval) valuesPassingTest:"))
    }

    /// Sends a value only once `interval` seconds have passed without a newer one (a debounce),
    /// waiting on the scheduler current where each value was sent, or on a background scheduler
    /// where none is.
    ///
    /// Completion first sends the value waiting, if any; an error discards it and is sent at once.
    /// The interval is taken as in ``throttle(_:on:)``: measured on a monotonic clock, never ending
    /// when infinite, and stopping the program when negative or NaN. This is RAC 2.5's
    /// `throttle`; RAC 4's (ReactiveSwift's) `throttle` is a rate limiter instead.
    ///
    /// On the main thread the current scheduler is `Scheduler.main`, so values sent there wait on
    /// the main queue: a command-line tool or a server that does not run the main run loop never
    /// gets them (see `Scheduler.main`); give it a scheduler with ``throttle(_:on:)`` instead.
    ///
    /// RAC 2.5: `-throttle:`.
    public func throttle(_ interval: TimeInterval) -> Signal {
        throttle(interval, valuesPassing: { _ in true }).named(derivedName("-throttle: \(interval)"))
    }

    /// Sends a value for which `predicate` returns `true` only once `interval` seconds have passed
    /// without a newer value, and the others at once, waiting on the scheduler current where each
    /// value was sent, or on a background scheduler where none is.
    ///
    /// A value that fails `predicate` discards the one waiting. Completion first sends the value
    /// waiting, if any; an error discards it and is sent at once. The interval is taken as in
    /// ``throttle(_:on:)``. This is RAC 2.5's `throttle`, a debounce; RAC 4's (ReactiveSwift's)
    /// `throttle` is a rate limiter instead.
    ///
    /// On the main thread the current scheduler is `Scheduler.main`, so values sent there wait on
    /// the main queue: a command-line tool or a server that does not run the main run loop never
    /// gets them (see `Scheduler.main`); give it a scheduler with ``throttle(_:on:)`` instead.
    ///
    /// RAC 2.5: `-throttle:valuesPassingTest:`.
    public func throttle(_ interval: TimeInterval, valuesPassing predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        checkInterval(interval, of: "throttle(_:valuesPassing:)")
        return timed(capturingCurrentScheduler: true) {
            ThrottleSink($0, interval: interval, predicate: predicate, scheduler: nil)
        }.named(derivedName("-throttle: \(interval) valuesPassingTest:"))
    }
}

/// Holds the last value that passed the predicate until its timer fires.
private final class ThrottleSink<Value, Failure: Error>: HoldingTimerSink<Value, Failure>, @unchecked Sendable {
    private let predicate: @Sendable (Value) -> Bool
    /// The scheduler given, or `nil` to wait where each value was sent.
    private let scheduler: Scheduler?
    private let fallback = FallbackScheduler()

    init(
        _ downstream: Sink<Value, Failure>,
        interval: TimeInterval,
        predicate: @escaping @Sendable (Value) -> Bool,
        scheduler: Scheduler?
    ) {
        self.predicate = predicate
        self.scheduler = scheduler
        super.init(downstream, interval: interval)
    }

    override func receive(value: Value, current: Scheduler?) {
        let throttles = predicate(value)
        held = nil
        cancelTimer()
        guard throttles else {
            downstream.receive(value)
            return
        }
        held = value
        startTimer(after: interval, on: scheduler ?? fallback.scheduler(or: current))
    }

    override func timerFired() {
        if let value = held.take() { downstream.receive(value) }
    }
}
