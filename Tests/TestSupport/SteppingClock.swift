import Disposables
import Dispatch
import Foundation
import Schedulers

/// Clocks for a `QueueScheduler` or an `ActorScheduler` (their `init(…clock:)`) whose wall clock
/// a test steps, back or forward, as an NTP correction or a user changing the time steps the
/// system's, which a test cannot set. The monotonic clock is the system's, which the schedulers'
/// timers wait on.
///
/// ```swift
/// let clock = SteppingClock()
/// let scheduler = QueueScheduler(name: "stepped", clock: clock)
/// clock.step(by: -5)   // the wall clock, and scheduler.now, go back 5 s
/// ```
package final class SteppingClock: SchedulerClock {
    /// How far the wall clock has been stepped from the system's.
    private let offset = Lock<TimeInterval>(0)

    package init() {}

    /// Steps the wall clock by `seconds`: back when negative.
    package func step(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }

    package func wallTime() -> TimeInterval {
        Date.timeIntervalSinceReferenceDate + offset.withLock { $0 }
    }

    package func monotonicTime() -> TimeInterval {
        SystemClock().monotonicTime()
    }
}

/// Seconds on the monotonic clock the schedulers measure delays on: for a test to time a wait
/// that a wall clock step must not shorten.
public func monotonicSeconds() -> TimeInterval {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}
