import Foundation
import Schedulers

extension Signal {
    /// Forwards the source's events until `interval` seconds after subscription, then disposes
    /// the source and fails with `error`.
    ///
    /// The deadline is one, counted from subscription: values do not push it back. Completion or
    /// an error from the source before it cancels the deadline. It is measured on the scheduler's
    /// monotonic clock, so a wall clock set back does not bring it forward; an infinite interval
    /// never times out, and a negative or NaN one stops the program.
    ///
    /// ```swift
    /// request.timeout(5, on: scheduler, raising: .tooSlow)
    /// ```
    ///
    /// `scheduler` must not be `Scheduler.immediate`, which can only wait by blocking.
    ///
    /// RAC 2.5: `-timeout:onScheduler:` (whose error is always `RACSignalErrorTimedOut`).
    public func timeout(_ interval: TimeInterval, on scheduler: Scheduler, raising error: Failure) -> Signal {
        checkInterval(interval, of: "timeout(_:on:)")
        checkScheduler(scheduler, of: "timeout(_:on:)")
        let error = UncheckedSendable(error)
        return Signal.serialized { output in
            output.disposable.add(scheduler.schedule(afterDelay: interval) { output.sendError(error.value) })
            self.forward(to: output)
        }.named(derivedName("-timeout: \(interval) onScheduler: \(scheduler)"))
    }
}

extension Signal where Failure == any Error {
    /// Forwards the source's events until `interval` seconds after subscription, then disposes
    /// the source and fails with ``SignalError/timedOut``.
    ///
    /// The deadline is one, counted from subscription: values do not push it back. The interval
    /// is taken as in ``timeout(_:on:raising:)``: measured on a monotonic clock, never ending when
    /// infinite, and stopping the program when negative or NaN. `scheduler` must not be
    /// `Scheduler.immediate`.
    ///
    /// RAC 2.5: `-timeout:onScheduler:`.
    public func timeout(_ interval: TimeInterval, on scheduler: Scheduler) -> Signal {
        timeout(interval, on: scheduler, raising: SignalError.timedOut)
    }
}

extension Signal where Failure == SignalError {
    /// Forwards the source's events until `interval` seconds after subscription, then disposes
    /// the source and fails with ``SignalError/timedOut``.
    ///
    /// The deadline is one, counted from subscription: values do not push it back. The interval
    /// is taken as in ``timeout(_:on:raising:)``: measured on a monotonic clock, never ending when
    /// infinite, and stopping the program when negative or NaN. `scheduler` must not be
    /// `Scheduler.immediate`.
    ///
    /// RAC 2.5: `-timeout:onScheduler:`.
    public func timeout(_ interval: TimeInterval, on scheduler: Scheduler) -> Signal {
        timeout(interval, on: scheduler, raising: .timedOut)
    }
}
