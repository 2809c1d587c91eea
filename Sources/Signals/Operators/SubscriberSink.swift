import Disposables

extension Signal {
    /// A signal whose subscriptions feed this signal into `makeSink(output)`, where `output` is a
    /// new ``Subscriber`` for the downstream sink: how the one-input operators that send several
    /// events for one they receive are built (`take(last:)` flushing on completion, `aggregate`
    /// and `materialize` sending a value then completing).
    ///
    /// Going through a subscriber costs one lock per event sent, and buys what a plain ``liftSink(_:)``
    /// chain cannot promise there: once the subscription is disposed, from inside a callback or
    /// from another thread, not one more of those events starts.
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

/// A sink that sends what it makes of its input through a ``Subscriber``, `output`; the
/// subscription of its input joins the output's disposable, so disposing the output ends both.
///
/// It is not cancelled: disposing the output closes it, and the input's subscription lets go of
/// this sink.
@usableFromInline
package class SubscriberSink<Value, Failure: Error, OutputValue, OutputFailure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    package let output: Subscriber<OutputValue, OutputFailure>

    package init(_ output: Subscriber<OutputValue, OutputFailure>) {
        self.output = output
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        output.disposable.add(upstream)
    }
}

/// A ``SubscriberSink`` that sends every event on unchanged: the input side of an operator whose
/// output takes events from more than one subscription (`catch`, `take(untilReplacement:)`,
/// `skip(until:)`). Subclasses override what they do differently.
package class ForwardingSubscriberSink<Value, Failure: Error>: SubscriberSink<Value, Failure, Value, Failure>, @unchecked Sendable {
    package override func receive(_ value: Value) {
        output.sendNext(value)
    }

    package override func receive(error: Failure) {
        output.sendError(error)
    }

    package override func receiveCompleted() {
        output.sendCompleted()
    }
}

/// A ``SubscriberSink`` that hands each event to closures: what
/// ``Signal/subscribe(for:next:error:completed:)`` subscribes.
private final class ClosureSubscriberSink<Value, Failure: Error, OutputValue, OutputFailure: Error>: SubscriberSink<Value, Failure, OutputValue, OutputFailure>, @unchecked Sendable {
    private let next: @Sendable (Value) -> Void
    private let error: @Sendable (Failure) -> Void
    private let completed: @Sendable () -> Void

    init(
        _ output: Subscriber<OutputValue, OutputFailure>,
        next: @escaping @Sendable (Value) -> Void,
        error: @escaping @Sendable (Failure) -> Void,
        completed: @escaping @Sendable () -> Void
    ) {
        self.next = next
        self.error = error
        self.completed = completed
        super.init(output)
    }

    override func receive(_ value: Value) {
        next(value)
    }

    override func receive(error failure: Failure) {
        error(failure)
    }

    override func receiveCompleted() {
        completed()
    }
}
