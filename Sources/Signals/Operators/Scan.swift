extension Signal {
    /// Sends the running combination of the values: `combine(start, v1)`, then
    /// `combine(that, v2)`, and so on.
    ///
    /// ```swift
    /// numbers.scan(0, +)   // 1, 2, 3 -> 1, 3, 6
    /// ```
    ///
    /// RAC 2.5: `-scanWithStart:reduce:`.
    public func scan<Running>(_ start: Running, _ combine: @escaping @Sendable (Running, Value) -> Running) -> Signal<Running, Failure> {
        scan(start) { running, value, _ in combine(running, value) }
    }

    /// Sends the running combination of the values, with each value's index (from 0).
    ///
    /// RAC 2.5: `-scanWithStart:reduceWithIndex:`.
    public func scan<Running>(
        _ start: Running,
        withIndex combine: @escaping @Sendable (Running, Value, Int) -> Running
    ) -> Signal<Running, Failure> {
        let start = UncheckedSendable(start)
        return liftSink { ScanSink($0, start.value, combine) }.named(derivedName("-scanWithStart:reduceWithIndex:"))
    }

    /// Sends the running accumulation of the values, changed in place: `update(&running, v1)`
    /// with `running` starting as `initial`, then `update(&running, v2)`, and so on, sending
    /// `running` after each.
    ///
    /// ```swift
    /// words.scan(into: [String: Int]()) { counts, word in counts[word, default: 0] += 1 }
    /// // "a", "b", "a" -> ["a": 1], ["a": 1, "b": 1], ["a": 2, "b": 1]
    /// ```
    ///
    /// Each subscription starts from a copy of `initial` of its own and changes only that copy:
    /// `update` gets it `inout`, so an array or a dictionary is copied only when something still
    /// holds a value sent before (a subscriber that keeps them all), never for the accumulator's
    /// own sake. An object (a class instance) as `initial` is one object for every subscription:
    /// use a value type. Ends with the source's error or completion, which pass on; disposing the
    /// subscription disposes the source's.
    ///
    /// Other libraries: ReactiveSwift's `scan(into:_:)`, RxSwift's `scan(into:accumulator:)`;
    /// Combine has only ``scan(_:_:)``.
    ///
    /// New; RAC 2.5 has none (its `-scanWithStart:reduce:` is ``scan(_:_:)``).
    public func scan<Running>(into initial: Running, _ update: @escaping @Sendable (inout Running, Value) -> Void) -> Signal<Running, Failure> {
        let initial = UncheckedSendable(initial)
        return liftSink { ScanIntoSink($0, initial.value, update) }.named(derivedName("-scanInto:"))
    }

    /// Sends `combine(previous, value)` for each value, where `previous` is the value before it,
    /// or `start` for the first.
    ///
    /// ```swift
    /// numbers.combinePrevious(0, -)   // 1, 3, 6 -> 1, 2, 3
    /// ```
    ///
    /// Ends with the source's error or completion; disposing the subscription disposes the
    /// source's. Each subscription starts from `start` again.
    ///
    /// Other libraries: ReactiveSwift's `combinePrevious(_:)` then `map`; RxSwift and Combine have
    /// none (RxSwift's `scan` or Combine's `scan` over a pair).
    ///
    /// RAC 2.5: `-combinePreviousWithStart:reduce:`.
    public func combinePrevious<R>(_ start: Value, _ combine: @escaping @Sendable (Value, Value) -> R) -> Signal<R, Failure> {
        let start = UncheckedSendable(start)
        return liftSink { CombinePreviousSink($0, start.value, combine) }.named(derivedName("-combinePreviousWithStart:reduce:"))
    }

    /// Sends each value with the one before it, as `(previous, current)`: `initial` is the
    /// previous of the first value.
    ///
    /// ```swift
    /// numbers.combinePrevious(0)   // 1, 3, 6 -> (0, 1), (1, 3), (3, 6)
    /// ```
    ///
    /// Ends with the source's error or completion; disposing the subscription disposes the
    /// source's. Each subscription starts from `initial` again. ``combinePrevious(_:_:)`` combines
    /// the two into one value instead.
    ///
    /// Other libraries: ReactiveSwift's `combinePrevious(_:)`; RxSwift and Combine have none
    /// (`scan` over a pair).
    ///
    /// RAC 2.5: `-combinePreviousWithStart:reduce:` with a reduce block that makes a tuple.
    public func combinePrevious(_ initial: Value) -> Signal<(previous: Value, current: Value), Failure> {
        let initial = UncheckedSendable(initial)
        return liftSink { CombinePreviousSink($0, initial.value) { previous, current in (previous: previous, current: current) } }
            .named(derivedName("-combinePrevious:"))
    }
}

private final class ScanIntoSink<Value, Running, Failure: Error>: PassthroughSink<Value, Running, Failure>, @unchecked Sendable {
    /// Changed in place by `update`, then lent to `downstream`, one event at a time (the chain
    /// above delivers serially), so it needs no exclusivity check: the checked access would span
    /// the call of `update` and cost a run-time check per value that `scan(_:_:)` does not pay.
    @exclusivity(unchecked) private var running: Running
    private let update: @Sendable (inout Running, Value) -> Void

    init(_ downstream: Sink<Running, Failure>, _ initial: Running, _ update: @escaping @Sendable (inout Running, Value) -> Void) {
        running = initial
        self.update = update
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        update(&running, value)
        downstream.receive(running)
    }
}

private final class ScanSink<Value, Running, Failure: Error>: PassthroughSink<Value, Running, Failure>, @unchecked Sendable {
    private var running: Running
    private var index = 0
    private let combine: @Sendable (Running, Value, Int) -> Running

    init(_ downstream: Sink<Running, Failure>, _ start: Running, _ combine: @escaping @Sendable (Running, Value, Int) -> Running) {
        running = start
        self.combine = combine
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        running = combine(running, value, index)
        index += 1
        downstream.receive(running)
    }
}

private final class CombinePreviousSink<Value, R, Failure: Error>: PassthroughSink<Value, R, Failure>, @unchecked Sendable {
    private var previous: Value
    private let combine: @Sendable (Value, Value) -> R

    init(_ downstream: Sink<R, Failure>, _ start: Value, _ combine: @escaping @Sendable (Value, Value) -> R) {
        previous = start
        self.combine = combine
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        let combined = combine(previous, value)
        previous = value
        downstream.receive(combined)
    }
}
