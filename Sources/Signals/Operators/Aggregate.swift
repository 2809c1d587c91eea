extension Signal {
    /// Combines all the values into one, `reduce(…reduce(reduce(start, v1), v2)…, vn)`, and
    /// sends it when this signal completes, then completes.
    ///
    /// ```swift
    /// numbers.aggregate(0, +)   // 1, 2, 3, completed -> 6, then completes
    /// ```
    ///
    /// Nothing is sent before completion; a signal that completes without a value gives `start`.
    /// An error is sent as it is, without a value.
    ///
    /// RAC 2.5: `-aggregateWithStart:reduce:`.
    public func aggregate<Running>(_ start: Running, _ reduce: @escaping @Sendable (Running, Value) -> Running) -> Signal<Running, Failure> {
        let start = UncheckedSendable(start)
        return liftSink(throughSubscriber: { output in
            AggregateSink(output, start.value) { running, value, _ in running = reduce(running, value) }
        }).named(derivedName("-aggregateWithStart: \(start.value) reduce:"))
    }

    /// Combines all the values into one, with each value's index (from 0), and sends it when
    /// this signal completes, then completes.
    ///
    /// Nothing is sent before completion; a signal that completes without a value gives `start`.
    /// An error is sent as it is, without a value.
    ///
    /// RAC 2.5: `-aggregateWithStart:reduceWithIndex:`.
    public func aggregate<Running>(
        _ start: Running,
        withIndex reduce: @escaping @Sendable (Running, Value, Int) -> Running
    ) -> Signal<Running, Failure> {
        let start = UncheckedSendable(start)
        return liftSink(throughSubscriber: { output in
            AggregateSink(output, start.value) { running, value, index in running = reduce(running, value, index) }
        }).named(derivedName("-aggregateWithStart: \(start.value) reduceWithIndex:"))
    }

    /// Combines all the values into one, starting from a value `startFactory` makes for each
    /// subscription, and sends it when this signal completes, then completes.
    ///
    /// Use it when the start is an object that `reduce` changes, so subscriptions do not share it.
    /// Nothing is sent before completion; a signal that completes without a value gives the start.
    /// An error is sent as it is, without a value.
    ///
    /// RAC 2.5: `-aggregateWithStartFactory:reduce:`.
    public func aggregate<Running>(
        startFactory: @escaping @Sendable () -> Running,
        _ reduce: @escaping @Sendable (Running, Value) -> Running
    ) -> Signal<Running, Failure> {
        liftSink(throughSubscriber: { output in
            AggregateSink(output, startFactory()) { running, value, _ in running = reduce(running, value) }
        }).named(derivedName("-aggregateWithStartFactory:reduce:"))
    }

    /// Sends an array of all the values when this signal completes, then completes.
    ///
    /// ```swift
    /// numbers.collect()   // 1, 2, 3, completed -> [1, 2, 3], then completes
    /// ```
    ///
    /// A signal that completes without a value gives `[]`. An error is sent as it is, without a
    /// value.
    ///
    /// RAC 2.5: `-collect`.
    public func collect() -> Signal<[Value], Failure> {
        liftSink(throughSubscriber: { output in
            AggregateSink(output, []) { values, value, _ in values.append(value) }
        }).named(derivedName("-collect"))
    }
}

/// Folds the values into `running` in place, and sends it at completion.
private final class AggregateSink<Value, Running, Failure: Error>: PassthroughSubscriberSink<Value, Running, Failure>, @unchecked Sendable {
    private var running: Running
    private var index = 0
    private let combine: (inout Running, Value, Int) -> Void

    init(_ output: Subscriber<Running, Failure>, _ start: Running, _ combine: @escaping (inout Running, Value, Int) -> Void) {
        running = start
        self.combine = combine
        super.init(output)
    }

    package override func receive(_ value: Value) {
        combine(&running, value, index)
        index += 1
    }

    package override func receiveCompleted() {
        output.sendNext(running)
        output.sendCompleted()
    }
}
