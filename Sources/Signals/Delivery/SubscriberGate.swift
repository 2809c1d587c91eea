import Disposables
import Synchronization

/// The serialization point of a ``Subscriber``: the receiver, the queue of reentrant events and
/// the lock, kept apart from the subscriber so that its ``CompoundDisposable`` can hold it (and
/// close it) without a cycle.
///
/// `receiver`, `pending` and `isEnded` are touched only by the lock's owner, one thread at a time,
/// so they need no exclusivity checks at run time. The hot path touches nothing generic but this
/// class's own parameters (`hasPending` stands for the queue), so unspecialized code needs no
/// metadata lookup per event; nor does making a gate, or a terminal event that is delivered at
/// once (no `Event` is built for it).
@usableFromInline
package final class SubscriberGate<Value, Failure: Error>: DeliveryLock, @unchecked Sendable {
    @exclusivity(unchecked) private var receiver: Retained<Sink<Value, Failure>>
    /// Events sent reentrantly by the delivering thread, delivered after the current one; made for
    /// the first of them. (A field of type `Queue<Event<Value, Failure>>` cost the lookups of the
    /// metadata of `Queue`, `Optional`, `Array` and `Event` for every gate made.)
    @exclusivity(unchecked) private var pending: PendingEvents<Value, Failure>?
    /// Read by a ``Burst`` as the owner, after each value.
    @usableFromInline @exclusivity(unchecked) private(set) var hasPending = false
    /// What a pending terminal event disposes before it is delivered; set by the first terminal
    /// event queued, and kept until one is delivered (a terminal event that is dropped with its
    /// feed, see ``sendTerminal(_:disposing:feed:dropsWhenFeedDisposed:)``, leaves it for the next).
    private var pendingSubscription: CompoundDisposable?
    /// Whether a terminal event that cannot be dropped is queued: any terminal event queued after
    /// it is not delivered, so it is not queued either.
    private var hasFirmTerminalPending = false
    /// Whether a terminal event has been delivered.
    @exclusivity(unchecked) private var isEnded = false
    /// Sends put off by threads inside other deliveries (see ``DeliveryContext``), two for each,
    /// plus one once the subscriber has been released: the last of the two to finish lets go of
    /// the receiver, so that a send put off before the release is still delivered.
    private let putOffCount = Atomic<Int>(0)

    @usableFromInline
    init(_ receiver: Sink<Value, Failure>) {
        self.receiver = Retained(receiver)
        super.init()
    }

    deinit {
        receiver.release()
    }

    /// Makes the gate the first child of `subscription`, the disposable of its subscriber, which
    /// closes it.
    @usableFromInline
    func install(in subscription: CompoundDisposable) {
        subscription.add(self)
    }

    func sendNext(_ value: Value) {
        if isDisposed { return }
        let context = currentContext
        switch perform(in: context, { deliverNext(value) }) {
        case .performed: return
        case .ownedByThisThread: enqueueNext(value)
        case .busyElsewhere: deferNext(value, in: context)
        }
    }

    /// Sends `value` unless `feed` has been disposed: the subscription through which a signal
    /// feeds this subscriber (``Signal/subscribe(_:file:line:)``), checked again as the owner, right before
    /// the receiver is called, so that nothing reaches the receiver once that subscription's
    /// `dispose()` has returned.
    func sendNext(_ value: Value, feed: Disposable) {
        if isDisposed || feed.isDisposed { return }
        let context = currentContext
        switch perform(in: context, { deliverNext(value, feed: feed) }) {
        case .performed: return
        case .ownedByThisThread: enqueueNext(value, feed: feed)
        case .busyElsewhere: deferNext(value, feed: feed, in: context)
        }
    }

    // Out of line, so that the hot path of `sendNext` never builds an `Event` (whose metadata an
    // unspecialized caller would look up on every value) nor a closure.

    @inline(never)
    private func enqueueNext(_ value: Value) {
        enqueue(.next(value), nil)
    }

    @inline(never)
    private func deferNext(_ value: Value, in context: DeliveryContext) {
        putOff(in: context) { [self] in sendNext(value) }
    }

    @inline(never)
    private func enqueueNext(_ value: Value, feed: Disposable) {
        enqueue(.next(value), nil, feed: feed)
    }

    @inline(never)
    private func deferNext(_ value: Value, feed: Disposable, in context: DeliveryContext) {
        putOff(in: context) { [self] in sendNext(value, feed: feed) }
    }

    /// Puts `send` off until this thread has left its deliveries; the receiver is kept for it.
    private func putOff(in context: DeliveryContext, _ send: @escaping () -> Void) {
        // The sender holds the subscriber, so this comes before its release.
        putOffCount.add(2, ordering: .relaxed)
        context.defer_(for: self) { [self] in
            send()
            if putOffCount.subtract(2, ordering: .acquiringAndReleasing).newValue == 1 { dropReceiver() }
        }
    }

    func sendError(_ error: Failure, disposing subscription: CompoundDisposable) {
        if isDisposed { return }
        let context = currentContext
        switch perform(in: context, { deliverError(error, disposing: subscription); drainPending() }) {
        case .performed: return
        case .ownedByThisThread: enqueueTerminal(.error(error), subscription)
        case .busyElsewhere: deferTerminal(.error(error), subscription, in: context)
        }
    }

    func sendCompleted(disposing subscription: CompoundDisposable) {
        if isDisposed { return }
        let context = currentContext
        switch perform(in: context, { deliverCompleted(disposing: subscription); drainPending() }) {
        case .performed: return
        case .ownedByThisThread: enqueueCompleted(subscription)
        case .busyElsewhere: deferCompleted(subscription, in: context)
        }
    }

    /// Sends the terminal `event`; unless `feed` (see ``sendNext(_:feed:)``) has been disposed,
    /// in which case the subscription still ends, silently, or, with `dropsWhenFeedDisposed`,
    /// the event is dropped and the subscription goes on: for a feed that is one of several in
    /// turn, such as a switch's inner signal, whose end no longer concerns the subscriber once a
    /// later feed has replaced it.
    func sendTerminal(
        _ event: Event<Value, Failure>,
        disposing subscription: CompoundDisposable,
        feed: Disposable? = nil,
        dropsWhenFeedDisposed drops: Bool = false
    ) {
        guard let feed else {
            switch event {
            case .next: preconditionFailure("SubscriberGate: a value sent as a terminal event")
            case let .error(error): sendError(error, disposing: subscription)
            case .completed: sendCompleted(disposing: subscription)
            }
            return
        }
        if isDisposed { return }
        let context = currentContext
        switch perform(in: context, { deliverTerminal(event, disposing: subscription, feed: feed, drops: drops); drainPending() }) {
        case .performed: return
        case .ownedByThisThread: enqueue(event, subscription, feed: feed, drops: drops)
        case .busyElsewhere:
            putOff(in: context) { [self] in
                sendTerminal(event, disposing: subscription, feed: feed, dropsWhenFeedDisposed: drops)
            }
        }
    }

    // Out of line, as for values: only the terminal events that wait build an `Event`.

    @inline(never)
    private func enqueueCompleted(_ subscription: CompoundDisposable) {
        enqueueTerminal(.completed, subscription)
    }

    @inline(never)
    private func enqueueTerminal(_ event: Event<Value, Failure>, _ subscription: CompoundDisposable) {
        enqueue(event, subscription)
    }

    @inline(never)
    private func deferCompleted(_ subscription: CompoundDisposable, in context: DeliveryContext) {
        deferTerminal(.completed, subscription, in: context)
    }

    @inline(never)
    private func deferTerminal(_ event: Event<Value, Failure>, _ subscription: CompoundDisposable, in context: DeliveryContext) {
        putOff(in: context) { [self] in sendTerminal(event, disposing: subscription) }
    }

    /// Sends the values `walk` gives in bursts, each as the lock's owner: see
    /// ``Subscriber/sendNexts(_:)``. Unspecialized, and so out of the way of each value: only the
    /// walk, and the ``Burst`` it is handed, run per value.
    func sendBursts(from subscriber: Subscriber<Value, Failure>, _ walk: (borrowing Burst<Value, Failure>) -> Bool) -> Bool {
        let subscription = subscriber.disposable
        while !subscription.isDisposed {
            var finished = false
            var ran = false
            let context = currentContext
            let admission = perform(in: context) {
                if !isDisposed {
                    receiver.use { receiver in
                        ran = true
                        finished = walk(Burst(subscriber, self, receiver: receiver, length: Burst<Value, Failure>.capacity))
                    }
                }
                // As after a value: what was sent reentrantly, then the chain's cancellation.
                drainPending()
            }
            switch admission {
            case .performed:
                // An emptied slot: the subscription has ended, whether or not it is marked yet.
                if !ran { return false }
            case .ownedByThisThread, .busyElsewhere:
                // One value the ordinary way: queued behind the delivery further up this thread's
                // stack, or put off behind what this thread put off for this gate.
                finished = walk(Burst(subscriber, self, receiver: nil, length: 1))
            }
            if finished { return true }
        }
        return false
    }

    /// Drops the receiver once the sends put off for it have been delivered: nothing will send
    /// through this gate any more.
    func releaseReceiver() {
        // A closed gate has let go of its receiver, or its closer is about to.
        if isDisposed { return }
        // With sends put off, the last of them drops it.
        if putOffCount.add(1, ordering: .acquiringAndReleasing).oldValue == 0 { dropReceiver() }
    }

    private func dropReceiver() {
        runExclusively { [self] in
            receiver.take(retiring: .current)?.inputReleased()
        }
    }

    /// Closes the gate, without waiting: nothing is delivered after this, and the chain below is
    /// cancelled and let go of, at once when nobody delivers, else by the delivering thread as its
    /// event ends (see ``DeliveryLock/runExclusively(_:)``).
    package override func dispose() {
        guard markDisposed() else { return }
        // The terminal event's own disposal, by the owner: it has taken the receiver already.
        if isOwnedByCurrentThread, isEnded { return }
        // Owning the lock for this, nothing of the receiver's can be running on this thread.
        if runExclusivelyIfFree({ cancelReceiver(retiring: false) }) { return }
        runExclusively { [self] in cancelReceiver() }
    }

    // The rest runs as the lock's owner.

    private func deliverNext(_ value: Value) {
        if !isDisposed {
            receiver.use { $0.receive(value) }
        }
        drainPending()
    }

    private func deliverNext(_ value: Value, feed: Disposable) {
        if !isDisposed, !feed.isDisposed {
            receiver.use { $0.receive(value) }
        }
        drainPending()
    }

    private func deliverTerminal(
        _ event: Event<Value, Failure>,
        disposing subscription: CompoundDisposable,
        feed: Disposable?,
        drops: Bool = false
    ) {
        if let feed {
            // Checked before the end: the subscriber's own disposal actions dispose the feed.
            let isFeedDisposed = feed.isDisposed
            if isFeedDisposed, drops { return }
            guard let receiver = end(disposing: subscription) else { return }
            // The feed's disposal came first: its subscriber is not told of the end.
            if isFeedDisposed { return receiver.cancel() }
            return receiver.send(event)
        }
        switch event {
        case .next: preconditionFailure("SubscriberGate: a value delivered as a terminal event")
        case let .error(error): deliverError(error, disposing: subscription)
        case .completed: deliverCompleted(disposing: subscription)
        }
    }

    private func deliverError(_ error: Failure, disposing subscription: CompoundDisposable) {
        guard let receiver = end(disposing: subscription) else { return }
        receiver.receive(error: error)
    }

    private func deliverCompleted(disposing subscription: CompoundDisposable) {
        guard let receiver = end(disposing: subscription) else { return }
        receiver.receiveCompleted()
    }

    /// Ends the subscription for a terminal event, unless it has ended: returns the receiver to
    /// send the event to, if it is still there.
    private func end(disposing subscription: CompoundDisposable) -> Sink<Value, Failure>? {
        guard !isEnded, !isDisposed else { return nil }
        isEnded = true
        let receiver = receiver.take(retiring: .current)
        // As in RAC 2.5: the subscription's resources go first, then the event.
        subscription.dispose()
        return receiver
    }

    @inline(__always)
    private func drainPending() {
        if hasPending { deliverPending() }
        if isDisposed { cancelReceiver() }
    }

    @usableFromInline @inline(never)
    func deliverPending() {
        guard let pending else {
            hasPending = false
            return
        }
        while let (event, feed, drops) = pending.popFirst() {
            hasPending = !pending.isEmpty
            if isDisposed || isEnded { break }
            switch event {
            case let .next(value):
                if feed?.isDisposed != true { receiver.use { $0.receive(value) } }
            case .error, .completed:
                // Kept for a later terminal event should this one be dropped with its feed.
                if let subscription = pendingSubscription {
                    deliverTerminal(event, disposing: subscription, feed: feed, drops: drops)
                }
            }
        }
        if isDisposed || isEnded {
            pending.removeAll()
            hasPending = false
            pendingSubscription = nil
            hasFirmTerminalPending = false
        }
    }

    @inline(never)
    private func enqueue(
        _ event: Event<Value, Failure>,
        _ subscription: CompoundDisposable?,
        feed: Disposable? = nil,
        drops: Bool = false
    ) {
        if let subscription {
            // Only the first terminal event that cannot be dropped counts; the rest would be
            // dropped on delivery anyway.
            if hasFirmTerminalPending { return }
            hasFirmTerminalPending = !drops || feed == nil
            if pendingSubscription == nil { pendingSubscription = subscription }
        }
        if pending == nil { pending = PendingEvents() }
        pending?.append(event, feed: feed, drops: drops)
        hasPending = true
    }

    /// Cancels and lets go of the chain below, unless it has ended by a terminal event.
    /// `retiring`: whether one of the receiver's calls may be running on this thread (see
    /// ``Retained/take(retiring:)``).
    private func cancelReceiver(retiring: Bool = true) {
        if let receiver = retiring ? receiver.take(retiring: .current) : receiver.take(), !isEnded {
            receiver.cancel()
        }
    }
}

/// The queue of a ``SubscriberGate``'s reentrant events, made for the first of them. Touched only
/// by the gate's owner, and only inside its own methods, so that no access to the queue can span
/// a call that delivers an event (and may send another).
private final class PendingEvents<Value, Failure: Error> {
    /// Each event with the feed it came through, if any, and whether it is dropped (a terminal
    /// event) when that feed has been disposed.
    private var events = Queue<(Event<Value, Failure>, Disposable?, Bool)>()

    var isEmpty: Bool { events.isEmpty }

    @inline(never)
    func append(_ event: Event<Value, Failure>, feed: Disposable?, drops: Bool) {
        events.append((event, feed, drops))
    }

    @inline(never)
    func popFirst() -> (Event<Value, Failure>, Disposable?, Bool)? {
        events.popFirst()
    }

    @inline(never)
    func removeAll() {
        events.removeAll()
    }
}
