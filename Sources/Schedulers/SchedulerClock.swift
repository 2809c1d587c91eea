import Dispatch
import Foundation

/// The clocks a ``QueueScheduler`` or an ``ActorScheduler`` reads: the wall clock, which gives the
/// dates users pass and ``Scheduler/now``, and Dispatch's monotonic clock, on which every delay is
/// measured and every timer waits.
///
/// The wall clock may step, back or forward (an NTP correction, a user setting the time); the
/// monotonic one never goes back and never jumps, so a delay measured on it is never cut short.
/// A date is turned into a monotonic deadline when it is scheduled, as Dispatch's
/// `asyncAfter(deadline:)` does: a wall clock that steps afterwards moves neither it nor the
/// blocks already waiting.
///
/// A seam for tests, which cannot set the system's clock: they give a scheduler a clock whose wall
/// clock steps. ``SystemClock`` is the one every scheduler reads otherwise.
package protocol SchedulerClock: Sendable {
    /// The wall clock: seconds since the reference date, as `Date` counts them.
    func wallTime() -> TimeInterval

    /// Seconds on Dispatch's monotonic clock, `DispatchTime.now()`, which the timers wait on; a
    /// clock of a test may step its wall clock, but must keep this one.
    func monotonicTime() -> TimeInterval
}

extension SchedulerClock {
    /// Both clocks read at one moment, to within a few microseconds: the pair is read again while
    /// the thread was held up between its readings (preempted, say), up to a few times, and the
    /// closest pair kept.
    func reading() -> ClockReading {
        var best = readOnce()
        for _ in 1..<4 where best.spread > ClockReading.closeEnough {
            let next = readOnce()
            if next.spread < best.spread { best = next }
        }
        return best.reading
    }

    /// The wall clock between two readings of the monotonic clock, and how far apart those were.
    private func readOnce() -> (reading: ClockReading, spread: TimeInterval) {
        let before = monotonicTime()
        let wall = wallTime()
        let spread = monotonicTime() - before
        return (ClockReading(wall: wall, monotonic: before + spread / 2), spread)
    }
}

/// The wall clock and the monotonic clock, read together.
package struct ClockReading: Equatable, Sendable {
    /// Seconds since the reference date.
    package var wall: TimeInterval
    /// Seconds on the monotonic clock.
    package var monotonic: TimeInterval

    package init(wall: TimeInterval, monotonic: TimeInterval) {
        self.wall = wall
        self.monotonic = monotonic
    }

    /// How far apart the two readings of the monotonic clock around a reading of the wall clock
    /// may be for the pair to count as read at one moment.
    static let closeEnough: TimeInterval = 0.00002
}

/// The system's clocks: `Date` and `DispatchTime`.
package struct SystemClock: SchedulerClock {
    package init() {}

    @inline(__always)
    package func wallTime() -> TimeInterval {
        Date.timeIntervalSinceReferenceDate
    }

    @inline(__always)
    package func monotonicTime() -> TimeInterval {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}

/// The longest wait a timer can count, in seconds: 2^63 nanoseconds, about 292 years. A date or a
/// delay further off than that, `Date.distantFuture` and infinity among them, never comes: its
/// block waits, without a timer, until it is disposed.
let longestWait: TimeInterval = Double(Int64.max) / 1e9

extension DispatchTime {
    /// The deadline of `due`, in seconds on the monotonic clock, which must be below
    /// ``longestWait``. Rounded up, and a microsecond later, so that when the timer fires the
    /// clock reads `due` or later.
    static func at(monotonic due: TimeInterval) -> DispatchTime {
        let nanoseconds = (max(0, due) * 1e9).rounded(.up) + 1_000
        return DispatchTime(uptimeNanoseconds: nanoseconds < Double(UInt64.max) ? UInt64(nanoseconds) : UInt64.max)
    }
}

/// `seconds` in whole nanoseconds, as many as Dispatch can count; zero for a negative number or
/// NaN, so that it never traps.
func nanoseconds(_ seconds: TimeInterval) -> Int {
    guard seconds > 0 else { return 0 }
    return seconds * 1e9 >= Double(Int.max) ? Int.max : Int(seconds * 1e9)
}
