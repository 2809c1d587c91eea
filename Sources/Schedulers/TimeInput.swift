import Disposables
import Foundation

// The one rule every scheduler and time operator follows for the times it is given:
//
// - a date, delay, interval or leeway that is NaN stops the program, with a message naming the
//   operation and the value (`checkInput`, whose message survives -O): NaN is no time at all, and
//   taken as "now" or sorted among dates it would run blocks out of order;
// - a date or delay that never comes (infinity; on a real scheduler anything beyond
//   `longestWait`, about 292 years, `Date.distantFuture` among them) never runs its block, which
//   waits, with no timer set, until it is disposed;
// - a date already past is due now, after the blocks already due (first in, first out).

/// Stops the program unless `date` is a number.
///
/// - Parameter operation: The operation given `date`, such as `"QueueScheduler.schedule(after:_:)"`.
@inline(__always)
package func checkDate(_ date: Date, of operation: @autoclosure () -> String) {
    checkInput(
        !date.timeIntervalSinceReferenceDate.isNaN,
        "\(operation()) needs a date that is a number, got Date(timeIntervalSinceReferenceDate: \(date.timeIntervalSinceReferenceDate))"
    )
}

/// Stops the program unless `delay` is a number; any number will do (a delay of zero or less is
/// due now).
@inline(__always)
package func checkDelay(_ delay: TimeInterval, of operation: @autoclosure () -> String) {
    checkInput(!delay.isNaN, "\(operation()) needs a delay that is a number, got \(delay)")
}

/// Stops the program unless `interval` is positive (infinity will do: the first run is then the
/// only one) and `leeway` is zero or more; NaN is neither.
@inline(__always)
package func checkRepetition(every interval: TimeInterval, leeway: TimeInterval, of operation: @autoclosure () -> String) {
    checkInput(interval > 0, "\(operation()) needs a positive interval, got \(interval)")
    checkInput(leeway >= 0, "\(operation()) needs a leeway of zero or more, got \(leeway)")
}
