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
        // Both signals send to one subscriber, which serializes them and which disposal closes;
        // the slot holds the source's subscription, which the replacement's first event ends.
        Signal.switchingOver { output, source in
            _ = replacement.attachSink(ReplacementSink(output, replacing: source))
            if !source.isDisposed {
                _ = self.attachSink(ReplacedSink(output, slot: source))
            }
        }.named(derivedName("-takeUntilReplacement: \(replacement.name ?? "")"))
    }
}

/// The source side of `take(untilReplacement:)`: everything but completion goes through.
private final class ReplacedSink<Value, Failure: Error>: SlottedForwardingSink<Value, Failure>, @unchecked Sendable {
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
