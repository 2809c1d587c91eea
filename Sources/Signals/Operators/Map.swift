extension Signal {
    /// Sends `transform(value)` for each value; errors and completion pass through.
    ///
    /// ```swift
    /// numbers.map { $0 * 2 }   // 1, 2, 3 -> 2, 4, 6
    /// ```
    ///
    /// RAC 2.5: `-map:`.
    public func map<U>(_ transform: @escaping @Sendable (Value) -> U) -> Signal<U, Failure> {
        liftSink { MapSink($0, transform) }.named(derivedName("-map:"))
    }

    /// Sends `value` in place of each value.
    ///
    /// RAC 2.5: `-mapReplace:`.
    public func mapReplace<U>(_ value: U) -> Signal<U, Failure> {
        let box = UncheckedSendable(value)
        return map { _ in box.value }.named(derivedName("-mapReplace: \(value)"))
    }
}

private final class MapSink<Value, U, Failure: Error>: PassthroughSink<Value, U, Failure>, @unchecked Sendable {
    private let transform: @Sendable (Value) -> U

    init(_ downstream: Sink<U, Failure>, _ transform: @escaping @Sendable (Value) -> U) {
        self.transform = transform
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        downstream.receive(transform(value))
    }
}
