import Foundation
import Schedulers

extension Signal where Value == Date, Failure == Never {
    /// Sends the scheduler's date every `interval` seconds, starting one interval after
    /// subscription; never completes.
    ///
    /// Disposal stops the timer. On a `TestScheduler` the dates are its virtual time. The
    /// intervals are measured on the scheduler's monotonic clock, so a wall clock set back does
    /// not hasten the values; an infinite interval sends none. An interval that is not positive,
    /// a negative leeway (NaN for either) and `Scheduler.immediate` stop the program.
    ///
    /// ```swift
    /// Signal.interval(1, on: scheduler)   // now + 1 s, now + 2 s, …
    /// ```
    ///
    /// - Parameters:
    ///   - interval: Seconds between values; must be positive.
    ///   - scheduler: Where the values are sent; not `Scheduler.immediate`, which cannot repeat.
    ///   - leeway: How late each value may be, so the system can coalesce timers; zero or more.
    ///
    /// RAC 2.5: `+interval:onScheduler:withLeeway:`, `+interval:onScheduler:` (which send
    /// `[NSDate date]`, the wall clock, rather than the scheduler's date).
    public static func interval(_ interval: TimeInterval, on scheduler: Scheduler, leeway: TimeInterval = 0) -> Signal {
        checkRepetition(every: interval, leeway: leeway, of: "Signal.interval(_:on:leeway:)")
        checkScheduler(scheduler, of: "Signal.interval(_:on:leeway:)")
        return serialized { output in
            output.disposable.add(scheduler.schedule(
                after: scheduler.now.addingTimeInterval(interval),
                repeatingEvery: interval,
                leeway: leeway
            ) { output.sendNext(scheduler.now) })
        }.named("+interval: \(interval) onScheduler: \(scheduler) withLeeway: \(leeway)")
    }
}
