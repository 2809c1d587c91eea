import Disposables

extension Signal {
    /// Sends the last `count` values when this signal completes, then completes.
    ///
    /// ```swift
    /// numbers.take(last: 2)   // 1, 2, 3, completed -> 2, 3, then completes
    /// ```
    ///
    /// Nothing is sent before completion; it keeps at most `count` values meanwhile. An error is
    /// sent as it is, and the values kept are dropped. `take(last: 0)` sends only completion (or
    /// the error).
    ///
    /// RAC 2.5: `-takeLast:`.
    public func take(last count: Int) -> Signal {
        checkInput(count >= 0, "take(last:) needs a count of zero or more, got \(count)")
        return liftSink(throughSubscriber: { TakeLastSink($0, count: count) }).named(derivedName("-takeLast: \(count)"))
    }
}

/// Keeps the last `count` values in a ring buffer and flushes them at completion.
private final class TakeLastSink<Value, Failure: Error>: PassthroughSubscriberSink<Value, Value, Failure>, @unchecked Sendable {
    private let count: Int
    private var kept = Queue<Value>()

    init(_ output: Subscriber<Value, Failure>, count: Int) {
        self.count = count
        super.init(output)
    }

    package override func receive(_ value: Value) {
        if count == 0 { return }
        kept.append(value)
        if kept.count > count { _ = kept.popFirst() }
    }

    package override func receive(error: Failure) {
        kept.removeAll()
        super.receive(error: error)
    }

    package override func receiveCompleted() {
        while !output.isDisposed, let value = kept.popFirst() {
            output.sendNext(value)
        }
        output.sendCompleted()
    }
}
