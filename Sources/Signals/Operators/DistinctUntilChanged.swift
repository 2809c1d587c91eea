extension Signal where Value: Equatable {
    /// Sends a value only when it differs from the one sent before it; the first always passes.
    ///
    /// RAC 2.5: `-distinctUntilChanged`.
    public func distinctUntilChanged() -> Signal {
        liftSink { DistinctSink($0, ==) }.named(derivedName("-distinctUntilChanged"))
    }
}

extension Signal {
    /// Sends a value only when `isEquivalent(previous, value)` is `false`; the first always passes.
    ///
    /// RAC 2.5: `-distinctUntilChanged`, for values that are not `Equatable`.
    public func distinctUntilChanged(by isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Signal {
        liftSink { DistinctSink($0, isEquivalent) }.named(derivedName("-distinctUntilChanged"))
    }
}

private final class DistinctSink<Value, Failure: Error>: PassthroughSink<Value, Value, Failure>, @unchecked Sendable {
    private var previous: Value?
    private let isEquivalent: (Value, Value) -> Bool

    init(_ downstream: Sink<Value, Failure>, _ isEquivalent: @escaping (Value, Value) -> Bool) {
        self.isEquivalent = isEquivalent
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        if let previous, isEquivalent(previous, value) { return }
        previous = value
        downstream.receive(value)
    }
}
