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

    /// Sends `combine(previous, value)` for each value, where `previous` is the value before it,
    /// or `start` for the first.
    ///
    /// ```swift
    /// numbers.combinePrevious(0, -)   // 1, 3, 6 -> 1, 2, 3
    /// ```
    ///
    /// RAC 2.5: `-combinePreviousWithStart:reduce:`.
    public func combinePrevious<R>(_ start: Value, _ combine: @escaping @Sendable (Value, Value) -> R) -> Signal<R, Failure> {
        let start = UncheckedSendable(start)
        return liftSink { CombinePreviousSink($0, start.value, combine) }.named(derivedName("-combinePreviousWithStart:reduce:"))
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
