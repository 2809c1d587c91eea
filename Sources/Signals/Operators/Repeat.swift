import Disposables

extension Signal {
    /// Sends this signal's values over and over: subscribes again each time it completes.
    ///
    /// It never completes by itself; an error ends it and is sent. End it by disposing, or with an
    /// operator downstream such as `take(_:)`.
    ///
    /// ```swift
    /// Signal<Int, Never>.return(1).repeat().take(3)   // 1, 1, 1, completed
    /// ```
    ///
    /// **Departure:** RAC 2.5 subscribes the first time at once and every later time through
    /// `scheduleRecursive` on the current scheduler (or a background one), a scheduler hop per
    /// repetition. This one subscribes again on the thread where the previous subscription ended,
    /// in a loop when it ended synchronously: no hop and no stack growth, however many times a
    /// synchronous signal repeats. So a signal that completes synchronously repeats inside the
    /// subscribing call until something disposes the subscription (a `take(_:)` downstream, a
    /// callback, another thread). Disposal stops it during a subscription and between two.
    ///
    /// RAC 2.5: `-repeat`.
    public func `repeat`() -> Signal {
        resubscribing(.repeat).named(derivedName("-repeat"))
    }

    /// Subscribes again each time this signal fails, without limit; sends its values, and its
    /// completion when it completes.
    ///
    /// The same as `retry(0)`. **Departure:** resubscribes without a scheduler hop or stack
    /// growth, as ``repeat()`` does.
    ///
    /// RAC 2.5: `-retry`.
    public func retry() -> Signal {
        resubscribing(.retry(limit: 0)).named(derivedName("-retry"))
    }

    /// Subscribes again when this signal fails, at most `count` times, then sends the error.
    ///
    /// `retry(0)` retries forever, like ``retry()``, as in RAC 2.5. Values pass through from every
    /// subscription; completion ends the result. **Departure:** resubscribes without a scheduler
    /// hop or stack growth, as ``repeat()`` does.
    ///
    /// ```swift
    /// fetch.retry(2)   // subscribes up to three times; the third error is sent
    /// ```
    ///
    /// - Parameter count: The most resubscriptions, or `0` for no limit; not negative.
    ///
    /// RAC 2.5: `-retry:`.
    public func retry(_ count: Int) -> Signal {
        checkInput(count >= 0, "retry(_:) needs a count of zero (no limit) or more, got \(count)")
        return resubscribing(.retry(limit: count)).named(derivedName("-retry: \(count)"))
    }

    private func resubscribing(_ policy: ResubscribePolicy) -> Signal {
        Signal(producer: { downstream in
            // Each subscription may end on a different thread: their events meet at one
            // subscriber, which serializes them and is what disposal closes.
            let output = Subscriber(downstream)
            downstream.attach(output.disposable)
            ResubscribeRunner(source: self, output: output, policy: policy).advance()
            return output.disposable
        })
    }
}

/// When `repeat` and `retry` subscribe again.
private enum ResubscribePolicy {
    /// After each completion; an error ends the result.
    case `repeat`
    /// After an error, at most `limit` times (0: no limit); completion ends the result.
    case retry(limit: Int)
}

/// Subscribes to the source again and again, through ``SequentialRunner``'s trampoline, so a
/// million synchronous repetitions take a million turns of one loop.
private final class ResubscribeRunner<Value, Failure: Error>: SequentialRunner<Value, Failure>, @unchecked Sendable {
    private let source: Signal<Value, Failure>
    private let policy: ResubscribePolicy
    /// Touched only by the current subscription's events, which end before the next one starts.
    private var retries = 0

    init(source: Signal<Value, Failure>, output: Subscriber<Value, Failure>, policy: ResubscribePolicy) {
        self.source = source
        self.policy = policy
        super.init(output: output)
    }

    override func subscribeNext() -> Bool {
        _ = source.attachSink(self)
        return true
    }

    package override func receive(error: Failure) {
        guard case let .retry(limit) = policy, limit == 0 || retries < limit else {
            output.sendError(error)
            return
        }
        retries += 1
        advance()
    }

    package override func receiveCompleted() {
        if case .repeat = policy {
            advance()
        } else {
            output.sendCompleted()
        }
    }
}
