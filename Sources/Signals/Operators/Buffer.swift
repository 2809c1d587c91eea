import Foundation
import Schedulers

extension Signal {
    /// Collects values into arrays, each sent `interval` seconds after its first value arrived.
    ///
    /// A window opens when a value arrives while nothing is buffered, and closes `interval`
    /// seconds later on `scheduler`, sending what it collected; a stretch with no value sends
    /// nothing. Completion sends what is buffered, if anything, then completes; an error discards
    /// it and is sent at once. Disposal cancels the window.
    ///
    /// ```swift
    /// // values 1, 2 at 0 s, 3 at 1.5 s
    /// values.buffer(1, on: scheduler)   // [1, 2] at 1 s, [3] at 2.5 s
    /// ```
    ///
    /// The window is measured on the scheduler's monotonic clock, so a wall clock set back does
    /// not close it early. An infinite interval never closes a window: the values are sent when
    /// the source completes. An interval that is not positive (zero, negative or NaN) stops the
    /// program, and so does `Scheduler.immediate`, which can only wait by blocking.
    ///
    /// - Parameters:
    ///   - interval: Seconds from a window's first value to its end; positive.
    ///   - scheduler: Where the windows end; not `Scheduler.immediate`.
    ///
    /// RAC 2.5: `-bufferWithTime:onScheduler:` (which sends a `RACTuple`, and takes a zero
    /// interval).
    public func buffer(_ interval: TimeInterval, on scheduler: Scheduler) -> Signal<[Value], Failure> {
        checkPositiveInterval(interval, of: "buffer(_:on:)")
        checkScheduler(scheduler, of: "buffer(_:on:)")
        return timed(capturingCurrentScheduler: false) {
            BufferSink($0, interval: interval, scheduler: scheduler)
        }.named(derivedName("-bufferWithTime: \(interval) onScheduler: \(scheduler)"))
    }
}

/// Collects the values of the open window.
private final class BufferSink<Value, Failure: Error>: TimerSink<Value, [Value], Failure>, @unchecked Sendable {
    private let interval: TimeInterval
    private let scheduler: Scheduler
    private var values: [Value] = []

    init(_ downstream: Sink<[Value], Failure>, interval: TimeInterval, scheduler: Scheduler) {
        self.interval = interval
        self.scheduler = scheduler
        super.init(downstream)
    }

    override func receive(value: Value, current: Scheduler?) {
        if values.isEmpty { startTimer(after: interval, on: scheduler) }
        values.append(value)
    }

    override func timerFired() {
        flush()
    }

    private func flush() {
        cancelTimer()
        guard !values.isEmpty else { return }
        let window = values
        values = []
        downstream.receive(window)
    }

    package override func receive(error: Failure) {
        values = []
        downstream.receive(error: error)
    }

    package override func receiveCompleted() {
        flush()
        downstream.receiveCompleted()
    }
}
