import Disposables
import Foundation

/// How long ``Signal/retry(_:delay:on:)`` waits before each resubscription: a constant delay, or
/// one that grows exponentially up to a cap.
///
/// The `n`-th retry (counting from 1) waits ``delay(beforeRetry:)`` seconds:
/// - `.constant(d)`: `d` every time.
/// - `.exponential(initial: i, multiplier: m, maximum: c)`: `min(i × m^(n−1), c)`, so
///   `i`, `i × m`, `i × m²`… until the cap. The default multiplier doubles the delay; the default
///   cap, infinity, lets it grow without end.
///
/// ```swift
/// RetryDelay.exponential(initial: 0.5, maximum: 4)   // 0.5, 1, 2, 4, 4, 4… seconds
/// ```
///
/// The delays are seconds on the scheduler's monotonic clock. Zero is allowed (the retry is
/// scheduled at once); infinity too (that retry never comes). A negative or NaN delay or cap, or
/// a multiplier below 1 or NaN, stops the program when the retry operator is made.
///
/// Other libraries: RxSwift's `retry(when:)` with a hand-written delay, ReactiveSwift's
/// `interval` of `retry(upTo:interval:on:)` (a constant delay), Combine has none.
///
/// New; RAC 2.5 has none.
public enum RetryDelay: Hashable, Sendable {
    /// The same delay, in seconds, before every retry.
    case constant(TimeInterval)
    /// `initial` seconds before the first retry, then `multiplier` times the previous delay,
    /// capped at `maximum` seconds.
    case exponential(initial: TimeInterval, multiplier: Double = 2, maximum: TimeInterval = .infinity)

    /// The seconds to wait before the `retry`-th retry, counting from 1.
    ///
    /// ```swift
    /// RetryDelay.exponential(initial: 1, multiplier: 3, maximum: 20).delay(beforeRetry: 3)   // 9
    /// ```
    ///
    /// Stops the program when `retry` is less than 1.
    ///
    /// New; RAC 2.5 has none.
    public func delay(beforeRetry retry: Int) -> TimeInterval {
        checkInput(retry >= 1, "RetryDelay.delay(beforeRetry:) counts retries from 1, got \(retry)")
        switch self {
        case let .constant(delay):
            return delay
        case let .exponential(initial, multiplier, maximum):
            // A zero initial delay stays zero (0 × ∞ would be NaN once the power overflows); an
            // overflowing power is infinity, which the cap brings back.
            guard initial > 0 else { return 0 }
            let delay = initial * pow(multiplier, Double(retry - 1))
            return min(delay, maximum)
        }
    }

    /// Stops the program unless every delay this gives is zero or more.
    func checkDelays(of operatorName: @autoclosure () -> String) {
        switch self {
        case let .constant(delay):
            checkInput(delay >= 0, "\(operatorName()) needs a delay of zero or more, got \(delay)")
        case let .exponential(initial, multiplier, maximum):
            checkInput(initial >= 0, "\(operatorName()) needs an initial delay of zero or more, got \(initial)")
            checkInput(multiplier >= 1, "\(operatorName()) needs a multiplier of 1 or more, got \(multiplier)")
            checkInput(maximum >= 0, "\(operatorName()) needs a maximum delay of zero or more, got \(maximum)")
        }
    }
}
