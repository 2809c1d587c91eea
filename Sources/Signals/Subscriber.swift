import Disposables
import Synchronization

/// The subscriber a signal's create block sends to: it serializes events and enforces the grammar.
///
/// - Its callbacks never overlap: a send from another thread waits until the current event has
///   been delivered, so when `sendCompleted()` returns on one thread no value is delivered after
///   it. A send from inside a callback on the same thread (a reentrant send) is queued and
///   delivered, in order, right after the current event.
/// - Nothing is delivered after a terminal event or after its subscription is disposed.
/// - A terminal event first disposes ``disposable`` (the subscription's resources, such as the
///   disposable the create block returned), then reaches the receiver, as in RAC 2.5.
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

    // The hot path touches only types that are not generic (the lock, the owner) or are this
    // class's own parameters, so unspecialized code needs no metadata lookup per event.
    private let lock = Lock(())
    /// The thread delivering an event now, or 0.
    private let owner = Atomic<UInt>(0)
    /// Where events go; guarded by `lock`, cleared by the terminal event.
    private var receiver: Sink<Value, Failure>?
    /// Events sent reentrantly by the delivering thread; only that thread, holding `lock`, uses them.
    private var pending: [Event<Value, Failure>] = []
    private var hasPending = false

    /// A subscriber that calls the given closures; each is optional.
    ///
    /// Subscribe it to a signal with ``Signal/subscribe(_:)``.
    ///
    /// RAC 2.5: `+subscriberWithNext:error:completed:`.
    public convenience init(
        next: (@Sendable (Value) -> Void)? = nil,
        error: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) {
        self.init(ClosureSink(next: next, error: error, completed: completed))
    }

    package init(_ receiver: Sink<Value, Failure>) {
        disposable = CompoundDisposable()
        self.receiver = receiver
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
        if disposable.isDisposed { return }
        let thread = currentThreadIdentity()
        if owner.load(ordering: .relaxed) == thread {
            deferNext(value)
            return
        }
        lock.withLock { _ in
            owner.store(thread, ordering: .relaxed)
            if let receiver, !disposable.isDisposed { receiver.receive(value) }
            if hasPending { deliverPending() }
            owner.store(0, ordering: .relaxed)
        }
    }

    /// Sends an error and ends the subscription, unless it has ended already.
    ///
    /// RAC 2.5: `-sendError:`.
    public func sendError(_ error: Failure) {
        send(.error(error))
    }

    /// Sends completion and ends the subscription, unless it has ended already.
    ///
    /// RAC 2.5: `-sendCompleted`.
    public func sendCompleted() {
        send(.completed)
    }

    /// Ties `disposable` to this subscriber: it is disposed when the subscriber terminates or is
    /// disposed, and at once if that has happened already.
    ///
    /// RAC 2.5: `-didSubscribeWithDisposable:`.
    public func didSubscribe(with disposable: CompoundDisposable) {
        if disposable.isDisposed { return }
        self.disposable.add(disposable)
        // Once that subscription ends by itself, the subscriber need not hold it. The action is
        // the subscription's own child, so it never outlives it: `unowned` avoids a cycle.
        disposable.add(Disposable { [weak self, unowned disposable] in self?.disposable.remove(disposable) })
    }

    /// Sends `event` through the serialization point.
    package func send(_ event: Event<Value, Failure>) {
        if disposable.isDisposed { return }
        let thread = currentThreadIdentity()
        if owner.load(ordering: .relaxed) == thread {
            defer_(event)
            return
        }
        lock.withLock { _ in
            owner.store(thread, ordering: .relaxed)
            deliver(event)
            if hasPending { deliverPending() }
            owner.store(0, ordering: .relaxed)
        }
    }

    /// `defer_(.next(value))`, out of line so the hot path of `sendNext` never builds an `Event`.
    @inline(never)
    private func deferNext(_ value: Value) {
        defer_(.next(value))
    }

    /// Queues a reentrant event for the delivering thread (this one) to deliver next.
    private func defer_(_ event: Event<Value, Failure>) {
        pending.append(event)
        hasPending = true
    }

    private func deliverPending() {
        while hasPending {
            let event = pending.removeFirst()
            hasPending = !pending.isEmpty
            deliver(event)
        }
    }

    private func deliver(_ event: Event<Value, Failure>) {
        guard let receiver, !disposable.isDisposed else {
            pending.removeAll()
            hasPending = false
            return
        }
        switch event {
        case let .next(value):
            receiver.receive(value)
        case let .error(error):
            self.receiver = nil
            disposable.dispose()
            receiver.receive(error: error)
        case .completed:
            self.receiver = nil
            disposable.dispose()
            receiver.receiveCompleted()
        }
    }
}
