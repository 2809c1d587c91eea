import Foundation
import Schedulers

extension Signal {
    /// Sends each value, and completion, `interval` seconds after the source sent it, on
    /// `scheduler`; sends an error at once.
    ///
    /// An error cancels the values still waiting, as disposal does.
    ///
    /// ```swift
    /// // 1 at 0 s, 2 at 1 s, completed at 1 s
    /// numbers.delay(2, on: scheduler)   // 1 at 2 s, 2 at 3 s, completed at 3 s
    /// ```
    ///
    /// RAC 2.5: `-delay:` (which waits on the current scheduler, or a background one; here the
    /// scheduler is given).
    public func delay(_ interval: TimeInterval, on scheduler: Scheduler) -> Signal {
        checkInterval(interval, of: "delay(_:on:)")
        return delayed(by: interval, on: scheduler).named(derivedName("-delay: \(interval) onScheduler: \(scheduler)"))
    }

    /// Sends each value, and completion, `interval` seconds after the source sent it, on the
    /// scheduler current where the source sent it, or on a background scheduler where none is;
    /// sends an error at once.
    ///
    /// An error cancels the values still waiting, as disposal does.
    ///
    /// RAC 2.5: `-delay:`.
    public func delay(_ interval: TimeInterval) -> Signal {
        checkInterval(interval, of: "delay(_:)")
        return delayed(by: interval, on: nil).named(derivedName("-delay: \(interval)"))
    }

    /// `delay` on `scheduler`, or, when it is `nil`, on the scheduler current at each event.
    private func delayed(by interval: TimeInterval, on scheduler: Scheduler?) -> Signal {
        Signal.serialized { output in
            let pending = output.disposable
            let fallback = FallbackScheduler()
            let later: @Sendable (@escaping @Sendable () -> Void) -> Void = { send in
                pending.schedule(on: scheduler ?? fallback.scheduler(or: Scheduler.current), afterDelay: interval, send)
            }
            self.forward(to: output, sendsErrorsAtOnce: true, through: later)
        }
    }
}
