import Disposables

extension Signal {
    /// Sends the first `count` values, then completes.
    ///
    /// Right after the `count`-th value it disposes the source, then sends `completed`.
    /// `take(0)` completes at once without subscribing to the source.
    ///
    /// RAC 2.5: `-take:`.
    public func take(_ count: Int) -> Signal {
        checkInput(count >= 0, "take(_:) needs a count of zero or more, got \(count)")
        if count == 0 { return .empty }
        return liftSink { TakeSink($0, count: count) }.named(derivedName("-take: \(count)"))
    }

    /// Sends values while `predicate` returns `true`; at the first value for which it returns
    /// `false`, disposes the source and completes without sending that value.
    ///
    /// RAC 2.5: `-takeWhileBlock:`.
    public func take(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        liftSink { TakeUntilSink($0) { !predicate($0) } }.named(derivedName("-takeWhileBlock:"))
    }

    /// Sends values until `predicate` returns `true`; at that value, disposes the source and
    /// completes without sending it.
    ///
    /// RAC 2.5: `-takeUntilBlock:`.
    public func take(untilTrue predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        liftSink { TakeUntilSink($0, predicate) }.named(derivedName("-takeUntilBlock:"))
    }
}

/// Sends `count` values, then ends the source and completes.
private final class TakeSink<Value, Failure: Error>: EndingSink<Value, Value, Failure>, @unchecked Sendable {
    private var remaining: Int

    init(_ downstream: Sink<Value, Failure>, count: Int) {
        remaining = count
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        if isDone { return }
        remaining -= 1
        downstream.receive(value)
        if remaining == 0 { complete() }
    }
}

/// Sends values until `predicate` returns `true`, then ends the source and completes.
private final class TakeUntilSink<Value, Failure: Error>: EndingSink<Value, Value, Failure>, @unchecked Sendable {
    private let predicate: @Sendable (Value) -> Bool

    init(_ downstream: Sink<Value, Failure>, _ predicate: @escaping @Sendable (Value) -> Bool) {
        self.predicate = predicate
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        if isDone { return }
        if predicate(value) {
            complete()
        } else {
            downstream.receive(value)
        }
    }
}
