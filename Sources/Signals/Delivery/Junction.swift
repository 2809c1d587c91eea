import Disposables
import Synchronization

/// Where the inputs of a many-to-one operator meet (`zip`, `combineLatest`, `sample`,
/// `withLatestFrom`, `take(until:)` and so `take(during:)`): one delivery lock for the operator's
/// state and its output.
///
/// Each input's events are handled by the thread that owns the lock, which updates the
/// operator's state and calls the sink downstream directly, so an event costs one lock, whatever
/// the number of inputs, and the state needs no lock of its own. The rules of ``DeliveryLock``
/// hold: an input event sent from inside the delivery it causes (a subscriber sending into one of
/// the inputs) is queued and handled right after the current one, in order; one from a thread
/// inside another delivery is put off with ``DeliveryContext``.
///
/// ``subscription`` is the disposable of the operator's subscription: the junction is its first
/// child (disposing closes the lock and cancels the chain below, by the delivering thread when
/// one is delivering), and the inputs' subscriptions join it as they attach. A terminal event disposes it,
/// then goes downstream, as in RAC 2.5.
package class JunctionCore: DeliveryLock, @unchecked Sendable {
    /// The operator's subscription: this junction, then every input's subscription.
    ///
    /// Held weakly, since it holds the junction: those who can still use it hold it, the one the
    /// producer hands it to (``handOverSubscription()``) and every input. So once the inputs'
    /// sources have let go of them and nobody keeps the subscription, the whole operator goes.
    package final var subscription: CompoundDisposable? { weakSubscription }
    private weak var weakSubscription: CompoundDisposable?
    /// The subscription, held from the junction's creation until the producer takes it.
    private var newSubscription: CompoundDisposable?
    /// Whether a terminal event has been sent downstream.
    ///
    /// Written by the owner; read by the owner and, as a hint, by inputs and producers that
    /// do not own the lock (an event they let through is checked again by the owner), so it is
    /// atomic: a relaxed load, a plain load on every processor we run on.
    package final var isEnded: Bool {
        @inline(__always) get { ended.load(ordering: .relaxed) }
        @inline(__always) set { ended.store(newValue, ordering: .relaxed) }
    }
    private let ended = Atomic<Bool>(false)
    /// Input events that arrived while this thread was handling another, handled after it.
    @exclusivity(unchecked) private var pending = Queue<() -> Void>()
    @exclusivity(unchecked) private var hasPending = false

    override init() {
        let subscription = CompoundDisposable()
        weakSubscription = subscription
        newSubscription = subscription
        super.init()
        subscription.add(self)
    }

    /// The subscription, for the producer to return once it has made every input; the junction
    /// no longer holds it strongly.
    package final func handOverSubscription() -> CompoundDisposable {
        guard let subscription = newSubscription.take() else {
            preconditionFailure("Junction: the subscription was handed over twice")
        }
        inputGone()
        return subscription
    }

    /// How many inputs are alive, plus one for the producer until it hands the subscription over.
    private let liveInputs = Atomic<Int>(1)

    /// An input was made.
    final func inputMade() {
        liveInputs.add(1, ordering: .relaxed)
    }

    /// An input was released by its source (or the producer is done). Once none is left, nothing
    /// can send to the junction any more: it lets go of the chain below, as a released
    /// `Subscriber` does, whoever still holds the subscription.
    final func inputGone() {
        guard liveInputs.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        runExclusively { [self] in releaseReceiver() }
    }

    /// Whether the operator's subscription has ended or is being disposed: events are dropped.
    @inline(__always)
    package final var isClosed: Bool { isDisposed || isEnded }

    /// Queues `work`, an input event that arrived while this thread owns the lock.
    final func enqueue(_ work: @escaping () -> Void) {
        pending.append(work)
        hasPending = true
    }

    /// Handles what was queued meanwhile and, once disposed, lets go of the chain below: called as
    /// the owner after each input event.
    @inline(__always)
    final func drain() {
        if hasPending { runPending() }
        if isDisposed { cancelReceiver() }
    }

    @inline(never)
    private func runPending() {
        while let work = pending.popFirst() {
            hasPending = !pending.isEmpty
            if isClosed { break }
            work()
        }
        if isClosed {
            pending.removeAll()
            hasPending = false
        }
    }

    /// Runs `work` as the owner, as an input event would: now, after the event this thread is
    /// handling, or once this thread has left its deliveries. For the rare events that do not come
    /// from an input (the end of an operator with no inputs).
    final func run(_ work: @escaping () -> Void) {
        let context = currentContext
        switch perform(in: context, { if !isClosed { work() }; drain() }) {
        case .performed: return
        case .ownedByThisThread: enqueue(work)
        case .busyElsewhere: context.defer_(for: self) { [self] in run(work) }
        }
    }

    /// Closes the junction, without waiting: nothing goes downstream after this, and the chain
    /// below is cancelled and let go of, at once when nobody delivers, else by the delivering
    /// thread as its event ends (see ``DeliveryLock/runExclusively(_:)``).
    package override final func dispose() {
        guard markDisposed() else { return }
        // Owning the lock for this, nothing of the receiver's can be running on this thread.
        if runExclusivelyIfFree({ cancelReceiver(retiring: false) }) { return }
        runExclusively { [self] in cancelReceiver() }
    }

    /// Cancels and lets go of the chain below, unless it has ended by a terminal event.
    /// `retiring`: whether one of the receiver's calls may be running on this thread (see
    /// ``Retained/take(retiring:)``).
    func cancelReceiver(retiring: Bool = true) {}

    /// Lets go of the chain below without cancelling it: no input is left. As the owner.
    func releaseReceiver() {}
}

/// A ``JunctionCore`` with its output: the sink downstream, called only by the owner.
package class Junction<Output, Failure: Error>: JunctionCore, @unchecked Sendable {
    @exclusivity(unchecked) private var receiver: Retained<Sink<Output, Failure>>

    /// A junction sending to `downstream`, which it attaches to ``JunctionCore/subscription``.
    ///
    /// - Parameter attachesAtOnce: `false` for a junction that must finish setting up before
    ///   another thread can reach it (through the subscription, by disposing it): it calls
    ///   ``attachDownstream()`` itself, before its first input is subscribed.
    init(_ downstream: Sink<Output, Failure>, attachesAtOnce: Bool = true) {
        receiver = Retained(downstream)
        super.init()
        if attachesAtOnce { downstream.attach(subscription!) }
    }

    /// Attaches the downstream sink to the subscription; before any input is subscribed, while
    /// no other thread can reach the junction.
    final func attachDownstream() {
        receiver.use { $0.attach(subscription!) }
    }

    deinit {
        receiver.release()
    }

    /// Sends `value` downstream, unless the subscription has ended. As the owner.
    @inline(__always)
    final func emit(_ value: Output) {
        if !isDisposed { receiver.use { $0.receive(value) } }
    }

    /// Ends the subscription, then sends `completed`. As the owner.
    final func complete() {
        guard let receiver = end() else { return }
        receiver.receiveCompleted()
    }

    /// Ends the subscription, then sends `completed`, from outside the junction and without ever
    /// waiting for it: for an end that may come from a deinit (a lifetime's) while a callback on
    /// the delivering thread waits for this one.
    ///
    /// - Nobody delivers: completes now.
    /// - This thread delivers, further up its stack: completes as that event ends.
    /// - Another thread delivers and this one, inside a delivery of its own, has put work off
    ///   (perhaps a send to the source this end would otherwise overtake): completes after that
    ///   work, once this thread has left its deliveries, as an input event would.
    /// - Another thread delivers: hands the end to it, which completes as its event ends.
    ///
    /// - Parameter key: what the end is put off for: the caller, never the junction, so that the
    ///   work put off before it, once it reaches the junction, is not put off again behind it.
    final func completeWithoutWaiting(puttingOffAs key: AnyObject) {
        if isClosed { return }
        if runExclusivelyIfFree({ complete() }) { return }
        let context = currentContext
        if context.depth > 0, context.hasDeferredWork, !isOwnedByCurrentThread {
            // Runs at depth 0, where this function no longer puts itself off.
            context.defer_(for: key) { [self, key] in completeWithoutWaiting(puttingOffAs: key) }
            return
        }
        runExclusively { [self] in complete() }
    }

    /// Ends the subscription, then sends `error`. As the owner.
    final func fail(_ error: Failure) {
        guard let receiver = end() else { return }
        receiver.receive(error: error)
    }

    /// Marks the end, disposes the subscription (the inputs' included), and returns the receiver
    /// to send the terminal event to, unless the subscription had ended already.
    private func end() -> Sink<Output, Failure>? {
        guard !isClosed else { return nil }
        isEnded = true
        let receiver = receiver.take(retiring: .current)
        didEnd()
        // An input delivering this event holds the subscription.
        subscription?.dispose()
        return receiver
    }

    /// Called as the owner when the subscription ends by a terminal event or by disposal: let go
    /// of the state (buffered values).
    func didEnd() {}

    override final func releaseReceiver() {
        guard receiver.take(retiring: .current) != nil else { return }
        didEnd()
    }

    override final func cancelReceiver(retiring: Bool = true) {
        guard let receiver = retiring ? receiver.take(retiring: .current) : receiver.take() else { return }
        didEnd()
        if !isEnded { receiver.cancel() }
    }
}

/// A sink that feeds a junction: it counts among the junction's inputs while it lives, so that
/// the junction lets go of the chain below once every input has gone, and its upstream
/// subscription joins the junction's ``JunctionCore/subscription``; a cancel is not passed on
/// (the junction cancels its own output).
///
/// ``JunctionInput`` takes the junction's lock for each event; `take(until:)`'s trigger, which
/// must never wait for the junction, ends it without.
package class JunctionMember<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    /// The junction fed.
    fileprivate let junction: JunctionCore
    /// The operator's subscription, which the junction holds only weakly.
    private let subscription: CompoundDisposable?

    /// A new input of `junction`.
    init(_ junction: JunctionCore) {
        self.junction = junction
        subscription = junction.subscription
        super.init()
        junction.inputMade()
    }

    deinit {
        junction.inputGone()
    }

    package override final func attach(_ upstream: Disposable) {
        if let subscription { subscription.add(upstream) } else { upstream.dispose() }
    }
}

/// The sink of one input of a ``Junction``: takes the junction's lock for each event and hands the
/// event, as the owner, to `process`.
package class JunctionInput<Value, Failure: Error>: JunctionMember<Value, Failure>, @unchecked Sendable {
    /// Handles a value, as the owner of the junction's lock.
    func process(_ value: Value) {}

    /// Handles an error, as the owner.
    func process(error: Failure) {}

    /// Handles completion, as the owner.
    func processCompleted() {}

    package override final func receive(_ value: Value) {
        let junction = junction
        if junction.isClosed { return }
        let context = junction.currentContext
        switch junction.perform(in: context, { if !junction.isClosed { process(value) }; junction.drain() }) {
        case .performed: return
        case .ownedByThisThread: enqueue(value)
        case .busyElsewhere: putOff(value, in: context)
        }
    }

    // Out of line: only the rare paths make closures.

    @inline(never)
    private func enqueue(_ value: Value) {
        junction.enqueue { [self] in process(value) }
    }

    @inline(never)
    private func putOff(_ value: Value, in context: DeliveryContext) {
        context.defer_(for: junction) { [self] in receive(value) }
    }

    package override final func receive(error: Failure) {
        junction.run { [self] in process(error: error) }
    }

    package override final func receiveCompleted() {
        junction.run { [self] in processCompleted() }
    }
}
