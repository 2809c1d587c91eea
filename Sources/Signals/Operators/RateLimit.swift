import Foundation
import Schedulers

extension Signal {
    /// Sends at most one value per `interval` seconds: the first value at once, then, with
    /// `latest`, the latest value received while the window was open, when the window ends.
    ///
    /// A value that comes while no window is open is sent at once, on the thread that sent it,
    /// and opens a window of `interval` seconds on `scheduler`. What comes while the window is
    /// open waits:
    /// - `latest: true` keeps the latest of those values, replacing the one waiting. When the
    ///   window ends, that value is sent, on `scheduler`, and opens the next window; if none
    ///   came, nothing is sent and the next value is sent at once.
    /// - `latest: false` drops them: only the value that opened a window is sent. The next value
    ///   after the window ends is sent at once and opens the next.
    ///
    /// ```swift
    /// // source, one character a second:   a b c - - - - d - e
    /// taps.rateLimit(3, on: scheduler)                  // a - - c - - - d - - e
    /// taps.rateLimit(3, on: scheduler, latest: false)   // a - - - - - - d - - -
    /// ```
    ///
    /// Completion first sends the value waiting, if any, at once (without waiting for the window
    /// to end), then completes; an error discards it and is sent at once. Disposal cancels the
    /// window's timer: nothing is sent after it. The window is measured on the scheduler's
    /// monotonic clock, so a wall clock set back does not end it early.
    ///
    /// A zero interval sends the first value of a synchronous burst at once and, with `latest`,
    /// the last one on the scheduler's next turn. With an infinite interval the first value is
    /// sent and the window never ends: with `latest`, the latest value waits until completion. A
    /// negative or NaN interval stops the program, and so does `Scheduler.immediate`, which could
    /// only wait by blocking the sender.
    ///
    /// Not to be confused with ``throttle(_:on:)``, RAC 2.5's `-throttle:`, which is a debounce:
    /// it sends a value only once the source has been quiet for the interval, so a steady stream
    /// of values sends nothing until it pauses; `rateLimit` sends one value per interval
    /// throughout.
    ///
    /// Both drop values. Where every value must arrive (a server's or an API client's requests),
    /// spaced, use ``pace(_:on:)``: it sends every value, in order, at most one per interval,
    /// queueing the rest, with a bounded form, ``pace(_:on:bufferingAtMost:whenFull:)``.
    ///
    /// Other libraries: RxSwift's `throttle(_:latest:scheduler:)` (the same rules, except that
    /// RxSwift delays completion until the window ends, to send the value waiting then);
    /// ReactiveSwift's `throttle(_:on:)` (like `latest: true`, but it sends every value on the
    /// scheduler, and drops the value waiting at completion); Combine's
    /// `throttle(for:scheduler:latest:)` (which delivers on the scheduler; with `latest: false`
    /// it sends the first value received during each interval).
    ///
    /// New; RAC 2.5 has none (its `-throttle:` is a debounce).
    ///
    /// - Parameters:
    ///   - interval: The window's length in seconds: zero or more, or infinity.
    ///   - scheduler: Where the windows are timed and the values that waited are sent.
    ///   - latest: Whether the latest value received during a window is sent when it ends
    ///     (`true`), or dropped (`false`).
    public func rateLimit(_ interval: TimeInterval, on scheduler: Scheduler, latest: Bool = true) -> Signal {
        timed(waiting: interval, on: scheduler, checkedAs: "rateLimit(_:on:latest:)") {
            RateLimitSink($0, interval: interval, scheduler: scheduler, latest: latest)
        }.named(derivedName("-rateLimit: \(interval) latest: \(latest)"))
    }
}

/// Opens a window with each value it sends, and holds the latest value received during a window
/// until the window's timer fires.
private final class RateLimitSink<Value, Failure: Error>: HoldingTimerSink<Value, Failure>, @unchecked Sendable {
    private let scheduler: Scheduler
    private let latest: Bool
    /// Whether a window is open: a value was sent less than `interval` ago.
    private var windowIsOpen = false

    init(_ downstream: Sink<Value, Failure>, interval: TimeInterval, scheduler: Scheduler, latest: Bool) {
        self.scheduler = scheduler
        self.latest = latest
        super.init(downstream, interval: interval)
    }

    override func receive(value: Value, current: Scheduler?) {
        if windowIsOpen {
            // With `latest`, the latest value received during the window is held.
            if latest { held = value }
            return
        }
        send(value)
    }

    override func timerFired() {
        windowIsOpen = false
        if let value = held.take() { send(value) }
    }

    /// Sends `value` and opens a window: the window starts when the value leaves.
    private func send(_ value: Value) {
        windowIsOpen = true
        startTimer(after: interval, on: scheduler)
        downstream.receive(value)
    }
}
