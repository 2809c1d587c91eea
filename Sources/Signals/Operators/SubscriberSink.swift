import Disposables

extension Signal {
    /// A signal whose subscriptions feed this signal into `makeSink(output)`, where `output` is a
    /// new ``Subscriber`` for the downstream sink: how the one-input operators that send several
    /// events for one they receive are built (`take(last:)` flushing on completion, `aggregate`
    /// and `materialize` sending a value then completing).
    ///
    /// What the sink does not override passes on: errors and completion (see ``SubscriberSink``).
    /// Going through a subscriber costs one lock per event sent, and buys what a plain
    /// ``liftSink(_:)`` chain cannot promise there: once the subscription is disposed, from inside
    /// a callback or from another thread, not one more of those events starts.
    ///
    /// `makeSink` may run on any thread; it should only build the sink from what it captured.
    package func liftSink<DownstreamValue, DownstreamFailure: Error>(
        throughSubscriber makeSink: @escaping (Subscriber<DownstreamValue, DownstreamFailure>) -> SubscriberSink<Value, Failure, DownstreamValue, DownstreamFailure>
    ) -> Signal<DownstreamValue, DownstreamFailure> {
        let makeSink = UncheckedSendable(makeSink)
        return .serialized { output in _ = self.attachSink(makeSink.value(output)) }
    }
}

extension Signal {
    /// Subscribes to this signal on behalf of `output`, the subscriber of a created signal, with
    /// closures: the subscription joins `output`'s disposable when it is attached, before the first
    /// event, and not only once this returns.
    ///
    /// So disposing `output` from inside a callback ends a source that is still sending
    /// synchronously (a `repeat()` of a synchronous signal, which would otherwise run on). For
    /// modules that cannot subclass ``SubscriberSink``; the closures usually send to `output`.
    ///
    /// - Returns: The subscription's disposable, for the create block to return.
    package func subscribe<OutputValue, OutputFailure: Error>(
        for output: Subscriber<OutputValue, OutputFailure>,
        next: @escaping @Sendable (Value) -> Void,
        error: @escaping @Sendable (Failure) -> Void,
        completed: @escaping @Sendable () -> Void
    ) -> Disposable? {
        attachSink(ClosureSubscriberSink(output, next: next, error: error, completed: completed))
    }
}

/// The sink of a one-input operator built with ``Signal/liftSink(throughSubscriber:)``: sends what
/// it makes of its input through a ``Subscriber``, `output`, and passes completion on; the
/// subscription of its input joins the output's disposable, so disposing the output ends both.
///
/// Not subclassed directly (its initializer is private to this file): a sink derives from
/// ``PassthroughSubscriberSink``, which keeps the failure type and passes errors on as well, or
/// from ``FailureChangingSubscriberSink``, which is told at its initialization what an error
/// becomes. So every such sink forwards its errors and its completion unless it overrides them:
/// one that forgets cannot drop them.
///
/// It is not cancelled: disposing the output closes it, and the input's subscription lets go of
/// this sink.
@usableFromInline
package class SubscriberSink<Value, Failure: Error, OutputValue, OutputFailure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    /// Where the sink sends: the serialization point of the operator's subscription.
    package let output: Subscriber<OutputValue, OutputFailure>

    fileprivate init(_ output: Subscriber<OutputValue, OutputFailure>) {
        self.output = output
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        output.disposable.add(upstream)
    }

    /// Sends completion.
    package override func receiveCompleted() {
        output.sendCompleted()
    }
}

/// A ``SubscriberSink`` that keeps the failure type: errors and completion are sent on unless a
/// subclass overrides them. A subclass overrides ``Sink/receive(_:)``.
package class PassthroughSubscriberSink<Value, OutputValue, Failure: Error>: SubscriberSink<Value, Failure, OutputValue, Failure>, @unchecked Sendable {
    /// A sink sending through `output`.
    package override init(_ output: Subscriber<OutputValue, Failure>) {
        super.init(output)
    }

    /// Sends the error.
    package override func receive(error: Failure) {
        output.sendError(error)
    }
}

/// A ``PassthroughSubscriberSink`` that sends values on unchanged too: the input side of an
/// operator whose output takes events from more than one subscription (`catch`,
/// `take(untilReplacement:)`, `skip(until:)`), and of those that only tie a subscription to their
/// output (``Signal/forward(to:)``). Subclasses override what they do differently.
package class ForwardingSubscriberSink<Value, Failure: Error>: PassthroughSubscriberSink<Value, Value, Failure>, @unchecked Sendable {
    /// Sends the value.
    package override func receive(_ value: Value) {
        output.sendNext(value)
    }
}

/// A ``SubscriberSink`` whose output fails with another type than its input (`materialize`,
/// `catch`): what an error becomes is given at its initialization, `route`; completion is sent on
/// unless a subclass overrides it. A subclass overrides ``Sink/receive(_:)``.
@usableFromInline
package class FailureChangingSubscriberSink<Value, Failure: Error, OutputValue, OutputFailure: Error>: SubscriberSink<Value, Failure, OutputValue, OutputFailure>, @unchecked Sendable {
    private let route: (Subscriber<OutputValue, OutputFailure>, Failure) -> Void

    /// A sink sending through `output`, which hands an error to `route` with the output.
    package init(
        _ output: Subscriber<OutputValue, OutputFailure>,
        routingErrors route: @escaping (Subscriber<OutputValue, OutputFailure>, Failure) -> Void
    ) {
        self.route = route
        super.init(output)
    }

    /// Hands the error to the route given at initialization.
    package override func receive(error: Failure) {
        route(output, error)
    }
}

/// A ``SubscriberSink`` that hands each event to closures: what
/// ``Signal/subscribe(for:next:error:completed:)`` subscribes.
private final class ClosureSubscriberSink<Value, Failure: Error, OutputValue, OutputFailure: Error>: FailureChangingSubscriberSink<Value, Failure, OutputValue, OutputFailure>, @unchecked Sendable {
    private let next: @Sendable (Value) -> Void
    private let completed: @Sendable () -> Void

    init(
        _ output: Subscriber<OutputValue, OutputFailure>,
        next: @escaping @Sendable (Value) -> Void,
        error: @escaping @Sendable (Failure) -> Void,
        completed: @escaping @Sendable () -> Void
    ) {
        self.next = next
        self.completed = completed
        super.init(output, routingErrors: { _, failure in error(failure) })
    }

    override func receive(_ value: Value) {
        next(value)
    }

    override func receiveCompleted() {
        completed()
    }
}
