extension Signal {
    /// Sends only the values for which `isIncluded` returns `true`.
    ///
    /// RAC 2.5: `-filter:`.
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal {
        liftSink { FilterSink($0, isIncluded) }.named(derivedName("-filter:"))
    }
}

extension Signal where Value: Equatable {
    /// Sends every value except those equal to `value`.
    ///
    /// RAC 2.5: `-ignore:`.
    public func ignore(_ value: Value) -> Signal {
        let ignored = UncheckedSendable(value)
        return liftSink { IgnoreSink($0, ignored.value) }.named(derivedName("-ignore: \(value)"))
    }
}

private final class IgnoreSink<Value: Equatable, Failure: Error>: PassthroughSink<Value, Value, Failure>, @unchecked Sendable {
    private let ignored: Value

    init(_ downstream: Sink<Value, Failure>, _ ignored: Value) {
        self.ignored = ignored
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        if value != ignored { downstream.receive(value) }
    }
}

private final class FilterSink<Value, Failure: Error>: PassthroughSink<Value, Value, Failure>, @unchecked Sendable {
    private let isIncluded: @Sendable (Value) -> Bool

    init(_ downstream: Sink<Value, Failure>, _ isIncluded: @escaping @Sendable (Value) -> Bool) {
        self.isIncluded = isIncluded
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        if isIncluded(value) { downstream.receive(value) }
    }
}
