import Disposables

/// The receiving end of one subscription inside the library: operators chain sinks.
///
/// Sinks are called one event at a time, in order: every event enters a chain through a
/// ``DeliveryLock`` (a ``Subscriber``, a pipe's input, the output of an operator that merges
/// several inputs), and the sinks downstream trust that order, so a value's path is a few direct
/// calls with no lock and no allocation. The rules of the chain:
///
/// - A producer calls ``attach(_:)`` with the subscription's disposable before it can send the
///   sink anything (one that sends everything synchronously, before it returns, need not attach).
/// - ``cancel()`` comes, like the events, from the thread that owns the chain's delivery lock, when
///   the subscription is disposed before it ended: the chain lets go of what it holds and delivers
///   nothing more, including the rest of an event under way further up the stack.
///
/// A sink is also a ``Disposable``, so an operator can keep it in a compound disposable and dispose
/// its subscription with it.
@usableFromInline
package class Sink<Value, Failure: Error>: Disposable, @unchecked Sendable {
    @usableFromInline
    package override init() {
        super.init()
    }

    /// Receives a value.
    @usableFromInline
    package func receive(_ value: Value) {}

    /// A closure that receives this sink's values exactly as ``receive(_:)`` does until
    /// ``cancel()`` or a terminal event comes, or `nil` (the default) when there is none.
    ///
    /// The owner of the delivery lock right above the sink may keep it for a run of values (a
    /// ``Burst``) and call it instead of the sink, sparing the retain a call through a stored
    /// closure costs each time: the run stops once the lock is closed, which comes before either.
    @usableFromInline
    package func valueHandler() -> ((Value) -> Void)? { nil }

    /// Receives an error; nothing is received after it.
    package func receive(error: Failure) {}

    /// Receives completion; nothing is received after it.
    package func receiveCompleted() {}

    /// Learns the disposable of the subscription feeding it, before the first event, so it can end
    /// that subscription early (as `take` does). Operators pass it on downstream.
    @usableFromInline
    package func attach(_ upstream: Disposable) {}

    /// The subscription feeding this sink was disposed before it ended: deliver nothing more, and
    /// let go of the user's closures. One-input operators pass it on downstream; a sink that feeds
    /// a merging operator's output does not (that output is cancelled with its own subscription).
    package func cancel() {}

    /// Nothing can send to this sink any more (the input of a hot signal, or the hot signal it
    /// subscribed to, was released), though no terminal event came: let go of what only a sender
    /// would use. As the owner of the chain's delivery. Only a sink that is held by more than its
    /// source does anything here: a hot signal's subscribers, a subscription that is also the
    /// disposable handed downstream; the rest are simply released.
    package func inputReleased() {}

    /// Receives `event`.
    @inline(__always)
    package final func send(_ event: Event<Value, Failure>) {
        switch event {
        case let .next(value): receive(value)
        case let .error(error): receive(error: error)
        case .completed: receiveCompleted()
        }
    }
}

/// A sink in an operator: forwards `attach` to the sink downstream.
@usableFromInline
package class OperatorSink<Value, Failure: Error, DownstreamValue, DownstreamFailure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    @usableFromInline package let downstream: Sink<DownstreamValue, DownstreamFailure>

    @usableFromInline
    package init(_ downstream: Sink<DownstreamValue, DownstreamFailure>) {
        self.downstream = downstream
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        downstream.attach(upstream)
    }

    package override func cancel() {
        downstream.cancel()
    }
}

/// A sink of a one-input operator that keeps the failure type: errors and completion pass through.
@usableFromInline
package class PassthroughSink<Value, DownstreamValue, Failure: Error>: OperatorSink<Value, Failure, DownstreamValue, Failure>, @unchecked Sendable {
    package override func receive(error: Failure) {
        downstream.receive(error: error)
    }

    package override func receiveCompleted() {
        downstream.receiveCompleted()
    }
}

extension Signal {
    /// A signal whose subscriptions subscribe `makeSink(downstream)` to this signal: how the
    /// one-input operators are built.
    ///
    /// `makeSink` may run on any thread; it should only build the sink from what it captured.
    ///
    /// `@inlinable`, as the operators that are: a client that builds one with its own types then
    /// looks up none of the generic metadata (of `Sink`, `Signal` and the closure's type) that an
    /// unspecialized `liftSink` looks up each time it is called.
    @inlinable
    package func liftSink<DownstreamValue, DownstreamFailure: Error>(
        _ makeSink: @escaping (Sink<DownstreamValue, DownstreamFailure>) -> Sink<Value, Failure>
    ) -> Signal<DownstreamValue, DownstreamFailure> {
        let makeSink = UncheckedSendable(makeSink)
        return Signal<DownstreamValue, DownstreamFailure>(producer: { downstream in
            self.attachSink(makeSink.value(downstream))
        })
    }
}

/// The end of a chain that calls closures: what `subscribe(next:error:completed:)` builds.
///
/// As RAC 2.5's `-subscribe:` does, the subscription is handed a disposable of its own (a
/// ``SubscriptionDisposable``), apart from the one a terminal event disposes. Each callback is
/// called only after a final check of it, with no lock and no user code between the two: so once
/// its `dispose()` has returned, no callback starts, even one whose event another thread is already
/// delivering (the chain above lets go of its part when that event ends), and a `dispose()` that
/// arrives while a terminal event runs its disposal actions suppresses the `completed` or `error`
/// callback.
///
/// That disposable is made when the sink is attached, before any event can come from another
/// thread. A subscription that ended while it was made, and never attached the sink, needs none:
/// the sink itself, marked by the terminal event, stands for it.
///
/// A terminal event or ``cancel()`` lets go of the closures, so nothing they captured outlives
/// the subscription; the subscription's disposable holds none of them.
@usableFromInline
package final class ClosureSink<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    // Only the serialized event path reads and clears these.
    private var next: (@Sendable (Value) -> Void)?
    private var error: (@Sendable (Failure) -> Void)?
    private var completed: (@Sendable () -> Void)?
    /// The subscription's own disposable: written when the sink is attached, before any event
    /// can come from another thread, and read by the event path.
    @exclusivity(unchecked) private var handle: SubscriptionDisposable?

    @usableFromInline
    package init(
        next: (@Sendable (Value) -> Void)?,
        error: (@Sendable (Failure) -> Void)?,
        completed: (@Sendable () -> Void)?
    ) {
        self.next = next
        self.error = error
        self.completed = completed
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        if handle == nil { handle = SubscriptionDisposable() }
        handle?.keep(upstream, attached: true)
    }

    /// The disposable `subscribe` returns, given what subscribing returned.
    @usableFromInline
    package func subscription(returned: Disposable?) -> Disposable {
        if let handle {
            handle.adopt(returned)
            return handle
        }
        // Ended while it was made: the terminal event marked this sink.
        guard let returned else { return self }
        // A producer that never attached (it sends nothing from another thread): the handle
        // disposes what it returned, and the events, all sent already, need no check.
        let handle = SubscriptionDisposable()
        handle.adopt(returned)
        return handle
    }

    package override func receive(_ value: Value) {
        if let handle, handle.isDisposed { return }
        next?(value)
    }

    package override func valueHandler() -> ((Value) -> Void)? {
        next
    }

    package override func receive(error failure: Failure) {
        let error = self.error.take()
        next = nil
        completed = nil
        guard begin() else { return }
        error?(failure)
    }

    package override func receiveCompleted() {
        let completed = self.completed.take()
        next = nil
        error = nil
        guard begin() else { return }
        completed?()
    }

    /// The final check of a terminal event: `false` when the subscription was disposed; else
    /// marks it ended.
    private func begin() -> Bool {
        if let handle {
            // Won against a `dispose()`: the subscription has ended, and the handle lets go of
            // the upstream subscription, which may hold this sink (an operator's sink that is also
            // the disposable handed downstream).
            guard handle.markDisposed() else { return false }
            handle.dropUpstream()
        }
        markEnded()
        return true
    }

    package override func cancel() {
        // A callback of this sink may be running further up the stack: it holds its own closure.
        next = nil
        error = nil
        completed = nil
        markEnded()
    }

    package override func inputReleased() {
        cancel()
    }
}

/// The disposable a subscription made with closures returns: disposing it marks it (what its
/// ``ClosureSink`` checks before each callback), then disposes the upstream subscription on the
/// calling thread, without waiting for anything. A terminal event marks it too, so it reports
/// `isDisposed` once the subscription has ended either way.
///
/// It holds the upstream subscription, not the sink: the closures go with the chain, whoever
/// keeps this disposable.
@usableFromInline
package final class SubscriptionDisposable: Disposable, @unchecked Sendable {
    /// The upstream subscription, as attached and as returned by the signal. Under a lock: the
    /// terminal event may let go of it on another thread while `subscribe` is still keeping what
    /// the signal returned.
    private let upstream = Lock(Upstream())

    @usableFromInline
    package override init() {
        super.init()
    }

    /// Keeps `subscription`, to dispose it with this one, unless this one has ended (then
    /// disposes it, unless it has ended too).
    ///
    /// - Parameter isAttached: Whether the sink was attached to it (else the signal returned it;
    ///   a producer that ended at once may have attached nothing).
    package func keep(_ subscription: Disposable, attached isAttached: Bool) {
        let accepted = upstream.withLock { upstream -> Bool in
            // `dispose()` and `dropUpstream()` mark before they lock, so a mark they have not
            // yet seen reads true here.
            if isDisposed { return false }
            if isAttached {
                upstream.attached = subscription
            } else if upstream.attached !== subscription {
                upstream.returned = subscription
            }
            return true
        }
        if !accepted, !subscription.isDisposed { subscription.dispose() }
    }

    /// Keeps what subscribing returned (see ``keep(_:attached:)``).
    @usableFromInline
    package func adopt(_ subscription: Disposable?) {
        guard let subscription else { return }
        keep(subscription, attached: false)
    }

    /// Lets go of the upstream subscription without disposing it: for the terminal event, by the
    /// caller that won `markDisposed()`.
    package func dropUpstream() {
        let dropped = upstream.withLock { upstream in
            defer { upstream = Upstream() }
            return upstream
        }
        // Released outside the lock: a deinit may run user code.
        withExtendedLifetime(dropped) {}
    }

    /// Ends the subscription: no callback starts after this returns; the upstream subscription is
    /// disposed on this thread.
    package override func dispose() {
        guard markDisposed() else { return }
        let taken = upstream.withLock { upstream in
            defer { upstream = Upstream() }
            return upstream
        }
        // Directly, not through `Trampoline`: however deeply subscriptions nest (a signal that
        // subscribes to itself once per page), a compound disposable (a `Subscriber`'s, a
        // merge's) or a serial one lies between each level and the next, and those bound the depth.
        taken.attached?.dispose()
        taken.returned?.dispose()
    }
}

/// The upstream subscription of a ``SubscriptionDisposable``. Not generic, so that locking it costs
/// no metadata lookup.
private struct Upstream {
    var attached: Disposable?
    var returned: Disposable?
}

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
