extension Signal {
    /// Sends no values: only this signal's error or completion.
    ///
    /// ```swift
    /// save.ignoreValues()   // values dropped; completes when the save completes
    /// ```
    ///
    /// RAC 2.5: `-ignoreValues`.
    public func ignoreValues() -> Signal {
        liftSink { IgnoreValuesSink($0) }.named(derivedName("-ignoreValues"))
    }
}

private final class IgnoreValuesSink<Value, Failure: Error>: PassthroughSink<Value, Value, Failure>, @unchecked Sendable {
    package override func receive(_ value: Value) {}
}
