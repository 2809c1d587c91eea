import Disposables

extension Signal {
    /// Sends every event of this signal as a value: each value as `.next(value)`, then the
    /// terminal event as `.error(error)` or `.completed`, followed by completion.
    ///
    /// The result never fails: an error of this signal becomes a value.
    ///
    /// ```swift
    /// numbers.materialize()   // 1, 2, completed -> .next(1), .next(2), .completed, then completes
    /// ```
    ///
    /// Disposing the result disposes this signal's subscription.
    ///
    /// RAC 2.5: `-materialize`.
    public func materialize() -> Signal<Event<Value, Failure>, Never> {
        liftSink(throughSubscriber: MaterializeSink.init).named(derivedName("-materialize"))
    }
}

extension Signal where Failure == Never {
    /// Turns a signal of events back into the events themselves: `.next(value)` sends `value`,
    /// `.error(error)` fails with `error` and `.completed` completes.
    ///
    /// At an `.error` or `.completed` value, this signal's subscription is disposed, then the
    /// error or completion is sent. If this signal completes first, so does the result.
    ///
    /// ```swift
    /// events.dematerialize()   // .next(1), .error(e) -> 1, then fails with e
    /// ```
    ///
    /// RAC 2.5: `-dematerialize`.
    public func dematerialize<V, F>() -> Signal<V, F> where Value == Event<V, F> {
        // Given the events' failure type first, the source is dematerialized as one that can fail.
        promoteError(F.self).liftSink { DematerializeSink($0) }.named(derivedName("-dematerialize"))
    }
}

extension Signal {
    /// Turns a signal of events back into the events themselves, for a signal that can itself fail
    /// with the events' error type: `.next(value)` sends `value`, `.error(error)` fails with
    /// `error` and `.completed` completes; an error of this signal is sent as it is.
    ///
    /// At an `.error` or `.completed` value, this signal's subscription is disposed, then the
    /// error or completion is sent.
    ///
    /// RAC 2.5: `-dematerialize`.
    @_disfavoredOverload
    public func dematerialize<V>() -> Signal<V, Failure> where Value == Event<V, Failure> {
        liftSink { DematerializeSink($0) }.named(derivedName("-dematerialize"))
    }
}

/// Sends each event as a value; the terminal one is followed by completion.
private final class MaterializeSink<Value, Failure: Error>: FailureChangingSubscriberSink<Value, Failure, Event<Value, Failure>, Never>, @unchecked Sendable {
    init(_ output: Subscriber<Event<Value, Failure>, Never>) {
        super.init(output, routingErrors: { output, error in
            output.sendNext(.error(error))
            output.sendCompleted()
        })
    }

    package override func receive(_ value: Value) {
        output.sendNext(.next(value))
    }

    package override func receiveCompleted() {
        output.sendNext(.completed)
        output.sendCompleted()
    }
}

/// Sends the event inside each value; at a terminal one, ends the source first, as `take` does.
private final class DematerializeSink<V, F: Error>: EndingSink<Event<V, F>, V, F>, @unchecked Sendable {
    package override func receive(_ event: Event<V, F>) {
        if isDone { return }
        switch event {
        case let .next(value): downstream.receive(value)
        case let .error(error): fail(error)
        case .completed: complete()
        }
    }
}
