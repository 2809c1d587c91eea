import Disposables
import Schedulers

/// The subscriber a signal's create block sends to: it serializes events and enforces the grammar.
///
/// - Its callbacks never overlap. A send from a thread that is not delivering anything waits
///   while another thread delivers through this subscriber, as RAC 2.5's `@synchronized`
///   subscriber does, so when `sendCompleted()` returns there, no value is delivered after it (RAC
///   2.5's finishing guarantee). The one deadlock this keeps: the callback being delivered waits
///   for the sending thread (a callback on a worker thread does `DispatchQueue.main.sync` while
///   the main thread sends to this subscriber). A send from inside a callback on the same thread
///   (a reentrant send) is queued and delivered, in order, right after the current event.
/// - A send from inside a callback (of any subscription) to a subscriber that another thread is
///   delivering to does not wait: it is queued and delivered, in order, once the sending thread
///   has left its outermost delivery, before its outermost send returns. So subscribers that send
///   to each other from two threads (two pipes forwarding into each other, a two-way binding)
///   never deadlock; the price is that such a nested send may return before its event is
///   delivered.
/// - Nothing is delivered after a terminal event, nor once disposing its subscription has
///   returned. Disposing never waits: it closes the subscriber at once, and lets go of the sinks
///   and closures below it at once, or, while another thread delivers through it, has that
///   thread let go of them as its current event ends.
/// - A terminal event first disposes ``disposable`` (the subscription's resources, such as the
///   disposable the create block returned), then reaches the receiver, as in RAC 2.5.
/// - Once nothing can send to it any more (the subscriber is released), it lets go of the
///   subscription's sinks and closures.
///
/// ```swift
/// let numbers = Signal<Int, Never> { subscriber in
///     subscriber.sendNext(1)
///     subscriber.sendNext(2)
///     subscriber.sendCompleted()
///     return nil
/// }
/// ```
///
/// RAC 2.5: `RACSubscriber` together with `RACPassthroughSubscriber`.
public final class Subscriber<Value, Failure: Error>: SubscriberProtocol, @unchecked Sendable {
    /// The resources of the subscription; disposed by a terminal event or by the subscriber of the
    /// signal. Add anything that must end with the subscription.
    ///
    /// RAC 2.5: `RACSubscriber`'s `disposable`.
    public let disposable: CompoundDisposable

    /// Where the events are serialized; the first child of `disposable`, which closes it.
    @usableFromInline package let gate: SubscriberGate<Value, Failure>

    /// A subscriber that calls the given closures; each is optional.
    ///
    /// Subscribe it to a signal with ``Signal/subscribe(_:file:line:)``.
    ///
    /// RAC 2.5: `+subscriberWithNext:error:completed:`.
    public convenience init(
        next: (@Sendable (Value) -> Void)? = nil,
        error: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) {
        self.init(ClosureSink(next: next, error: error, completed: completed))
    }

    // `@inlinable`, so that an operator specialized for its client's types makes the gate without
    // a lookup of its generic metadata.
    @inlinable
    package init(_ receiver: Sink<Value, Failure>) {
        gate = SubscriberGate(receiver)
        disposable = CompoundDisposable()
        gate.install(in: disposable)
    }

    deinit {
        // Nothing can send through this subscriber any more: the chain below it can go.
        gate.releaseReceiver()
    }

    /// Whether the subscription has ended: terminated or disposed.
    ///
    /// RAC 2.5: `self.disposable.disposed`.
    public var isDisposed: Bool {
        disposable.isDisposed
    }

    /// Sends a value, unless the subscription has ended.
    ///
    /// RAC 2.5: `-sendNext:`.
    public func sendNext(_ value: Value) {
        // The subscription is marked disposed a moment before its gate closes: an operator that
        // saw the mark and dropped work must not have what follows delivered meanwhile.
        if disposable.isDisposed { return }
        gate.sendNext(value)
    }

    /// Sends an error and ends the subscription, unless it has ended already.
    ///
    /// RAC 2.5: `-sendError:`.
    public func sendError(_ error: Failure) {
        if disposable.isDisposed { return }
        gate.sendError(error, disposing: disposable)
    }

    /// Sends completion and ends the subscription, unless it has ended already.
    ///
    /// RAC 2.5: `-sendCompleted`.
    public func sendCompleted() {
        if disposable.isDisposed { return }
        gate.sendCompleted(disposing: disposable)
    }

    /// Ties `disposable` to this subscriber: it is disposed when the subscriber terminates or is
    /// disposed, and at once if that has happened already.
    ///
    /// RAC 2.5: `-didSubscribeWithDisposable:`.
    public func didSubscribe(with disposable: CompoundDisposable) {
        self.disposable.addWhileRunning(disposable)
    }

    /// Sends `event` through the serialization point.
    ///
    /// Not named `send(_:)`: the compiler would show it, as "inaccessible", to a user who writes
    /// Combine's `send(_:)`.
    package func sendEvent(_ event: Event<Value, Failure>) {
        switch event {
        case let .next(value): gate.sendNext(value)
        case let .error(error): gate.sendError(error, disposing: disposable)
        case .completed: gate.sendCompleted(disposing: disposable)
        }
    }

    /// Subscribes `receiver` through a new subscriber, the way every created signal is subscribed:
    /// `receiver` is attached to the subscriber's ``disposable`` first, then `work` runs with the
    /// subscriber, at once when a scheduler is current, otherwise through
    /// ``Scheduler/subscription`` (on a background scheduler).
    ///
    /// Whatever `work` returns joins the scheduled block's disposable in ``disposable``, side by
    /// side, however the block and the scheduling interleave: disposing the subscription always
    /// reaches both.
    ///
    /// - Returns: The subscription's disposable, ``disposable``.
    package static func subscribe(
        _ receiver: Sink<Value, Failure>,
        _ work: @escaping @Sendable (Subscriber) -> Disposable?
    ) -> Disposable {
        let subscriber = Subscriber(receiver)
        let subscription = subscriber.disposable
        receiver.attach(subscription)
        if Scheduler.current != nil {
            subscription.add(work(subscriber))
        } else {
            subscription.add(Scheduler.subscription.schedule { subscription.add(work(subscriber)) })
        }
        return subscription
    }
}
