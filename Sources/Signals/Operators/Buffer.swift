import Disposables
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
            BufferSink($0, count: .max, interval: interval, scheduler: scheduler)
        }.named(derivedName("-bufferWithTime: \(interval) onScheduler: \(scheduler)"))
    }

    /// Collects values into arrays of `count`, each sent as it fills; completion sends the
    /// values left over, if any, then completes.
    ///
    /// An error discards the values collected so far and is sent at once, as RxSwift's
    /// `buffer(timeSpan:count:scheduler:)` and Combine's `collect(_:)` do. Disposal drops them.
    ///
    /// ```swift
    /// // values 1, 2, 3, 4, 5, then completed
    /// values.buffer(count: 2)   // [1, 2], [3, 4], [5], then completed
    /// ```
    ///
    /// - Parameter count: How many values each array holds, but the last; 1 or more (0 or less
    ///   stops the program with a message saying so).
    ///
    /// Other libraries: RxSwift's `buffer(timeSpan:count:scheduler:)` with an endless time span,
    /// ReactiveSwift's `collect(count:)`, Combine's `collect(_:)`.
    ///
    /// New; RAC 2.5 has none.
    @inlinable
    public func buffer(count: Int) -> Signal<[Value], Failure> {
        checkInput(count >= 1, "buffer(count:) needs a count of 1 or more, got \(count)")
        // The collecting is written here, in the caller's specialization, where `[Value]` is a
        // known type: an unspecialized sink appending to a `[Value]` pays for generic value
        // witnesses on every value.
        return liftSink { downstream in
            CountBufferSink<Value, Failure>(downstream, count: count) { values, value, downstream in
                values.append(value)
                if values.count == count {
                    downstream.receive(values)
                    // The array's storage is reused when the subscriber did not keep it.
                    values.removeAll(keepingCapacity: true)
                }
            }
        }.named(derivedName("-bufferWithCount: \(count)"))
    }

    /// Collects values into arrays, each sent when it holds `count` values or `interval` seconds
    /// after its first value arrived, whichever comes first.
    ///
    /// A window opens when a value arrives while nothing is buffered, and closes when the
    /// `count`-th value arrives (sending the array at once) or `interval` seconds later on
    /// `scheduler` (sending what it collected), whichever comes first; the next value opens the
    /// next window. A stretch with no value sends nothing: no empty arrays, unlike RxSwift's
    /// `buffer(timeSpan:count:scheduler:)`, whose timer restarts at each array and sends an empty
    /// one when no value came. Completion sends what is buffered, if anything, then completes; an
    /// error discards it and is sent at once. Disposal cancels the window.
    ///
    /// ```swift
    /// // values 1, 2, 3 at 0 s, 4 at 0.5 s, 5 at 2 s; count 2, interval 1 s
    /// values.buffer(count: 2, interval: 1, on: scheduler)   // [1, 2] at 0 s, [3, 4] at 0.5 s, [5] at 3 s
    /// ```
    ///
    /// The window is measured on the scheduler's monotonic clock. An infinite interval makes this
    /// ``buffer(count:)``. A count below 1, an interval that is not positive (zero, negative or
    /// NaN) and `Scheduler.immediate` stop the program with a message saying so.
    ///
    /// - Parameters:
    ///   - count: The most values an array holds; 1 or more.
    ///   - interval: Seconds from a window's first value to its end; positive.
    ///   - scheduler: Where the windows end; not `Scheduler.immediate`.
    ///
    /// Other libraries: RxSwift's `buffer(timeSpan:count:scheduler:)`, Combine's
    /// `collect(.byTimeOrCount(_:_:_:))`; ReactiveSwift has none.
    ///
    /// New; RAC 2.5 has none (its `-bufferWithTime:onScheduler:` is ``buffer(_:on:)``).
    public func buffer(count: Int, interval: TimeInterval, on scheduler: Scheduler) -> Signal<[Value], Failure> {
        checkInput(count >= 1, "buffer(count:interval:on:) needs a count of 1 or more, got \(count)")
        checkPositiveInterval(interval, of: "buffer(count:interval:on:)")
        checkScheduler(scheduler, of: "buffer(count:interval:on:)")
        return timed(capturingCurrentScheduler: false) {
            BufferSink($0, count: count, interval: interval, scheduler: scheduler)
        }.named(derivedName("-bufferWithCount: \(count) time: \(interval) onScheduler: \(scheduler)"))
    }
}

/// Collects values into arrays of a count: `step` appends a value and, when the array is full,
/// sends it downstream and empties it.
@usableFromInline
package final class CountBufferSink<Value, Failure: Error>: PassthroughSink<Value, [Value], Failure>, @unchecked Sendable {
    /// The values of the array being filled. Only `step` and the terminal events touch it, one
    /// event at a time (the chain above delivers serially), so it needs no exclusivity checks.
    @exclusivity(unchecked) private var values: [Value] = []
    private let step: @Sendable (inout [Value], Value, Sink<[Value], Failure>) -> Void

    @usableFromInline
    init(_ downstream: Sink<[Value], Failure>, count: Int, _ step: @escaping @Sendable (inout [Value], Value, Sink<[Value], Failure>) -> Void) {
        self.step = step
        super.init(downstream)
        // A large count reserves nothing ahead: the array grows as values come.
        values.reserveCapacity(min(count, 1_024))
    }

    package override func receive(_ value: Value) {
        step(&values, value, downstream)
    }

    package override func receive(error: Failure) {
        values = []
        downstream.receive(error: error)
    }

    package override func receiveCompleted() {
        if !values.isEmpty {
            let rest = values
            values = []
            downstream.receive(rest)
        }
        downstream.receiveCompleted()
    }
}

/// Collects the values of the open window, which closes after `interval` or at `count` values.
private final class BufferSink<Value, Failure: Error>: TimerSink<Value, [Value], Failure>, @unchecked Sendable {
    private let count: Int
    private let interval: TimeInterval
    private let scheduler: Scheduler
    private var values: [Value] = []

    init(_ downstream: Sink<[Value], Failure>, count: Int, interval: TimeInterval, scheduler: Scheduler) {
        self.count = count
        self.interval = interval
        self.scheduler = scheduler
        super.init(downstream)
    }

    override func receive(value: Value, current: Scheduler?) {
        if values.isEmpty { startTimer(after: interval, on: scheduler) }
        values.append(value)
        if values.count == count { flush() }
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
