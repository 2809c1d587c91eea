extension Signal {
    /// Sends the values that are not `nil`, unwrapped; errors and completion pass through.
    ///
    /// ```swift
    /// optionalNames.ignoreNil()   // "a", nil, "b" -> "a", "b"
    /// ```
    ///
    /// RAC 2.5: `-ignore:` with `nil` (RAC 4: `ignoreNil()`).
    public func ignoreNil<Wrapped>() -> Signal<Wrapped, Failure> where Value == Wrapped? {
        liftSink { IgnoreNilSink($0) }.named(derivedName("-ignore: nil"))
    }
}

private final class IgnoreNilSink<Wrapped, Failure: Error>: PassthroughSink<Wrapped?, Wrapped, Failure>, @unchecked Sendable {
    package override func receive(_ value: Wrapped?) {
        if let value { downstream.receive(value) }
    }
}
