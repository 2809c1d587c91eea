import Disposables

extension Signal {
    /// Skips the first `count` values, then sends the rest.
    ///
    /// RAC 2.5: `-skip:`.
    public func skip(_ count: Int) -> Signal {
        checkInput(count >= 0, "skip(_:) needs a count of zero or more, got \(count)")
        if count == 0 { return self }
        return liftSink { SkipSink($0, count: count) }.named(derivedName("-skip: \(count)"))
    }

    /// Skips values while `predicate` returns `true`, then sends the first value for which it
    /// returns `false` and everything after it.
    ///
    /// RAC 2.5: `-skipWhileBlock:`.
    public func skip(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        liftSink { SkipUntilSink($0) { !predicate($0) } }.named(derivedName("-skipWhileBlock:"))
    }

    /// Skips values until `predicate` returns `true`, then sends that value and everything after.
    ///
    /// RAC 2.5: `-skipUntilBlock:`.
    public func skip(untilTrue predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        liftSink { SkipUntilSink($0, predicate) }.named(derivedName("-skipUntilBlock:"))
    }
}

private final class SkipSink<Value, Failure: Error>: PassthroughSink<Value, Value, Failure>, @unchecked Sendable {
    private var remaining: Int

    init(_ downstream: Sink<Value, Failure>, count: Int) {
        remaining = count
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        if remaining > 0 {
            remaining -= 1
        } else {
            downstream.receive(value)
        }
    }
}

private final class SkipUntilSink<Value, Failure: Error>: PassthroughSink<Value, Value, Failure>, @unchecked Sendable {
    private let predicate: @Sendable (Value) -> Bool
    private var isSkipping = true

    init(_ downstream: Sink<Value, Failure>, _ predicate: @escaping @Sendable (Value) -> Bool) {
        self.predicate = predicate
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        if isSkipping {
            guard predicate(value) else { return }
            isSkipping = false
        }
        downstream.receive(value)
    }
}
