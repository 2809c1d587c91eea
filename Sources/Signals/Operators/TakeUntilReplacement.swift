import Disposables

extension Signal {
    /// Sends this signal's values until `replacement` sends anything, then disposes this signal
    /// and sends what `replacement` sends instead.
    ///
    /// `replacement` is subscribed first: when it sends something at once, this signal is never
    /// subscribed. This signal's error is sent (and ends the result), but its completion is not:
    /// the result waits for `replacement`, whose error or completion alone ends it (and disposes
    /// this signal first). Disposal disposes both.
    ///
    /// ```swift
    /// cachedResults.take(untilReplacement: freshResults)
    /// ```
    ///
    /// RAC 2.5: `-takeUntilReplacement:`.
    public func take(untilReplacement replacement: Signal) -> Signal {
        Signal(producer: { downstream in
            // Both signals send to one subscriber, which serializes them and which disposal closes.
            let output = Subscriber(downstream)
            downstream.attach(output.disposable)
            let source = SerialDisposable()
            output.disposable.add(source)
            _ = replacement.attachSink(ReplacementSink(output, replacing: source))
            if !source.isDisposed {
                _ = self.attachSink(ReplacedSink(output, subscription: source))
            }
            return output.disposable
        }).named(derivedName("-takeUntilReplacement: \(replacement.name ?? "")"))
    }
}

/// The source side of `take(untilReplacement:)`: everything but completion goes through.
private final class ReplacedSink<Value, Failure: Error>: ForwardingSubscriberSink<Value, Failure>, @unchecked Sendable {
    private let subscription: SerialDisposable

    init(_ output: Subscriber<Value, Failure>, subscription: SerialDisposable) {
        self.subscription = subscription
        super.init(output)
    }

    package override func attach(_ upstream: Disposable) {
        subscription.disposable = upstream
    }

    // Completion ends only the source: the result waits for the replacement.
    package override func receiveCompleted() {}
}

/// The replacement side of `take(untilReplacement:)`: its first event ends the source.
private final class ReplacementSink<Value, Failure: Error>: ForwardingSubscriberSink<Value, Failure>, @unchecked Sendable {
    private let source: SerialDisposable

    init(_ output: Subscriber<Value, Failure>, replacing source: SerialDisposable) {
        self.source = source
        super.init(output)
    }

    package override func receive(_ value: Value) {
        source.dispose()
        super.receive(value)
    }

    package override func receive(error: Failure) {
        source.dispose()
        super.receive(error: error)
    }

    package override func receiveCompleted() {
        source.dispose()
        super.receiveCompleted()
    }
}
