import Disposables

/// Feeds a public ``SubscriberProtocol`` (a subject, a hand-made subscriber); lets go of it when
/// cancelled or after the terminal event.
package final class ForwardingSink<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private var target: (any SubscriberProtocol<Value, Failure>)?
    /// The disposable the target was given, if any: the upstream subscription joins it as soon as
    /// it is attached, so that the target can end a subscription still sending synchronously
    /// (a `repeat()` of a synchronous signal, say) from inside one of its callbacks.
    private let subscription: CompoundDisposable?
    /// The target, when it is the library's own ``Subscriber`` and `subscription` is set: events
    /// go through its gate with `subscription` as their feed, checked right before the
    /// subscriber's receiver is called.
    private var subscriber: Subscriber<Value, Failure>?

    /// - Parameter subscriber: `target` itself, when it is a ``Subscriber`` and `subscription` is
    ///   set (found by the caller, which knows the target's type: a dynamic cast here cost about
    ///   600 instructions per subscription).
    package init(
        target: any SubscriberProtocol<Value, Failure>,
        subscription: CompoundDisposable? = nil,
        subscriber: Subscriber<Value, Failure>? = nil
    ) {
        self.target = target
        self.subscription = subscription
        self.subscriber = subscriber
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        subscription?.add(upstream)
    }

    // Each event is checked against the subscription handed to the target, which its subscriber
    // may dispose from any thread: nothing reaches the target once that `dispose()` has returned.

    package override func receive(_ value: Value) {
        guard let subscription else { return target?.sendNext(value) ?? () }
        if subscription.isDisposed { return }
        if let subscriber {
            if !subscriber.disposable.isDisposed { subscriber.gate.sendNext(value, feed: subscription) }
        } else {
            target?.sendNext(value)
        }
    }

    package override func receive(error: Failure) {
        finish(.error(error))
    }

    package override func receiveCompleted() {
        finish(.completed)
    }

    private func finish(_ event: Event<Value, Failure>) {
        let target = target.take()
        let subscriber = subscriber.take()
        if let subscription, subscription.isDisposed { return }
        if let subscription, let subscriber {
            if !subscriber.disposable.isDisposed {
                subscriber.gate.sendTerminal(event, disposing: subscriber.disposable, feed: subscription)
            }
            return
        }
        switch event {
        case .next: preconditionFailure("ForwardingSink: a value sent as a terminal event")
        case let .error(error): target?.sendError(error)
        case .completed: target?.sendCompleted()
        }
    }

    package override func cancel() {
        target = nil
        subscriber = nil
    }
}
