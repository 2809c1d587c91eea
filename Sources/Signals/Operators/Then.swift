extension Signal {
    /// Ignores this signal's values; once it completes, calls `block` and sends what the signal
    /// `block` returns sends.
    ///
    /// `block` runs once per subscription, after completion, never on an error: an error from
    /// this signal is sent at once. The result ends when `block`'s signal ends. Disposal disposes
    /// whichever subscription is current.
    ///
    /// ```swift
    /// saveChanges.then { reloadList }   // reloads after the save has completed
    /// ```
    ///
    /// **Departure:** RAC 2.5 builds it on `+defer:`, whose block goes through the subscription
    /// scheduler. Here `block` runs at once on the thread where this signal completed.
    ///
    /// RAC 2.5: `-then:`.
    public func then<U>(_ block: @escaping @Sendable () -> Signal<U, Failure>) -> Signal<U, Failure> {
        let next = Signal<U, Failure>(producer: { downstream in block().attachSink(downstream) })
        let ignoringValues: Signal<U, Failure> = liftSink { IgnoreValuesSink($0) }
        return ignoringValues.concat(next).named(derivedName("-then:"))
    }
}

/// Passes on only errors and completion.
private final class IgnoreValuesSink<Value, U, Failure: Error>: PassthroughSink<Value, U, Failure>, @unchecked Sendable {
    package override func receive(_ value: Value) {}
}
