extension Signal {
    /// Sends `true` as soon as this signal sends a value, then completes; sends `false` if it
    /// completes or fails first, then completes.
    ///
    /// At the first value it sends `true`, then disposes this signal's subscription and completes.
    ///
    /// RAC 2.5: `-any`.
    public func any() -> Signal<Bool, Failure> {
        liftSink(throughSubscriber: { QuantifierSink($0, stopsAt: true) { _ in true } }).named(derivedName("-any"))
    }

    /// Sends `true` at the first value for which `predicate` returns `true`, then completes; sends
    /// `false` if this signal completes or fails first, then completes.
    ///
    /// ```swift
    /// numbers.any { $0 > 2 }   // 1, 3, … -> true, then completes
    /// ```
    ///
    /// An error of this signal is not sent: it becomes `false`, as in RAC 2.5, which builds this
    /// operator on `materialize`. At the matching value it sends `true`, then disposes this signal's
    /// subscription and completes.
    ///
    /// RAC 2.5: `-any:`.
    public func any(_ predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Bool, Failure> {
        liftSink(throughSubscriber: { QuantifierSink($0, stopsAt: true, predicate) }).named(derivedName("-any:"))
    }

    /// Sends `true` if this signal completes and `predicate` returned `true` for every value
    /// (so also when it sent none), then completes; sends `false` at the first value for which
    /// it returns `false`, or when this signal fails, then completes.
    ///
    /// ```swift
    /// numbers.all { $0 > 0 }   // 1, 2, completed -> true, then completes
    /// ```
    ///
    /// An error of this signal is not sent: it becomes `false`, as in RAC 2.5, which builds this
    /// operator on `materialize`. At the failing value it sends `false`, then disposes this signal's
    /// subscription and completes.
    ///
    /// RAC 2.5: `-all:`.
    public func all(_ predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Bool, Failure> {
        liftSink(throughSubscriber: { QuantifierSink($0, stopsAt: false, predicate) }).named(derivedName("-all:"))
    }
}

/// `any` and `all`: stops at the first value whose test gives `decisive`, sending it; at
/// completion sends the opposite; at an error, `false`. Each answer is followed by completion.
private final class QuantifierSink<Value, Failure: Error>: PassthroughSubscriberSink<Value, Bool, Failure>, @unchecked Sendable {
    private let decisive: Bool
    private let predicate: @Sendable (Value) -> Bool

    init(_ output: Subscriber<Bool, Failure>, stopsAt decisive: Bool, _ predicate: @escaping @Sendable (Value) -> Bool) {
        self.decisive = decisive
        self.predicate = predicate
        super.init(output)
    }

    package override func receive(_ value: Value) {
        if predicate(value) == decisive { answer(decisive) }
    }

    package override func receive(error: Failure) {
        answer(false)
    }

    package override func receiveCompleted() {
        answer(!decisive)
    }

    /// Sends `result`, then completion, which disposes the source before it is delivered.
    private func answer(_ result: Bool) {
        output.sendNext(result)
        output.sendCompleted()
    }
}
