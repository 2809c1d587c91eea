#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Disposables

/// One thread's part in delivering events: how many deliveries it is inside, and the work it put
/// off until it has left them all.
///
/// This is what keeps serialization free of deadlocks. A thread that is delivering an event (it
/// owns a ``DeliveryLock`` and may be running a subscriber's callback) never waits for another
/// thread: when it must send to a subscriber that another thread is delivering to, or wait for
/// such a delivery to end, it puts that work off, here, and does it once it has left its
/// outermost delivery, where it owns nothing that anyone could be waiting for. So no two threads
/// ever wait for each other, and the work is still done before the thread's outermost send
/// returns to its caller.
///
/// A context is a handle on state that only its own thread touches, kept by pointer so that the
/// hot path pays neither reference counting nor exclusivity checks.
package struct DeliveryContext {
    private let state: UnsafeMutablePointer<State>

    private struct State {
        /// How many deliveries (and quiescing steps) this thread is inside, outermost first.
        var depth = 0
        /// Whether work waits in `deferred`; a flag, so that the hot path reads no generic queue.
        var hasDeferred = false
        /// Work put off until `depth` is 0, in order, each with the lock it is for.
        var deferred = Queue<(lock: ObjectIdentifier, work: () -> Void)>()
        /// How many items of `deferred` each lock has: what `hasDeferred(for:)` asks, in O(1)
        /// however long the queue (a scan of it made each send put off, or sent to a free lock
        /// meanwhile, cost time linear in what was put off before: a burst of them, quadratic).
        /// A lock in it is held by its work's closure, so its identity is not reused meanwhile.
        var deferredPerLock: [ObjectIdentifier: Int] = [:]
        /// Whether the outermost frame is running `deferred` already.
        var isRunningDeferred = false
        /// The waits this thread owes for what it sent from inside its deliveries beyond a bound
        /// (see ``DeliveryDebt``), one per debtor, by identity.
        var debts: [ObjectIdentifier: any DeliveryDebt] = [:]
        /// Whether the outermost frame is settling `debts` already.
        var isSettling = false
        /// How many deinits that end a signal this thread is inside: a send made in one settles
        /// no debt (see ``DeliveryContext/neverWaiting(_:)``).
        var neverWaiting = 0
        /// How many replays this thread is catching members up with (see `ReplaySink`).
        var catchUps = 0
        /// Objects let go of inside a delivery, released once this thread has left them all.
        var retired: [AnyObject] = []
        /// This thread's part of ``LiveCount``: serialization points made here, less those
        /// freed here.
        let liveCount = LiveCount.makeCounter()
    }

    /// Names the thread while it lives: what a ``DeliveryLock`` records as its owner.
    var id: UInt {
        @inline(__always) get { UInt(bitPattern: state) }
    }

    /// How many deliveries (and quiescing steps) this thread is inside.
    var depth: Int {
        @inline(__always) get { state.pointee.depth }
        @inline(__always) nonmutating set { state.pointee.depth = newValue }
    }

    /// Whether this thread is catching a member up with a replay: then it never waits for
    /// another member's catch-up (see `CatchUp`), which might be waiting for its own.
    var isCatchingUp: Bool {
        state.pointee.catchUps > 0
    }

    /// Counts a replay this thread catches a member up with (`+1`), or its end (`-1`).
    func countCatchUp(_ delta: Int) {
        state.pointee.catchUps += delta
    }

    /// Whether work waits to be done when this thread leaves its outermost delivery.
    var hasDeferred: Bool {
        @inline(__always) get { state.pointee.hasDeferred }
    }

    /// Whether work (not only objects to release) waits to be done when this thread leaves its
    /// outermost delivery.
    var hasDeferredWork: Bool {
        state.pointee.hasDeferred && !state.pointee.deferred.isEmpty
    }

    /// Whether work for `lock` waits: later work for the same lock must wait behind it, so that
    /// this thread's sends to one subscriber keep their order. Out of line: the hot path of a send
    /// asks it only when work was put off, and the dictionary lookup inlined there cost every
    /// send a few instructions.
    @inline(never)
    func hasDeferred(for lock: AnyObject) -> Bool {
        if state.pointee.deferred.isEmpty { return false }
        return state.pointee.deferredPerLock[ObjectIdentifier(lock)] != nil
    }

    /// Puts `work` off until this thread has left its outermost delivery.
    func defer_(for lock: AnyObject, _ work: @escaping () -> Void) {
        let identity = ObjectIdentifier(lock)
        state.pointee.deferred.append((identity, work))
        state.pointee.deferredPerLock[identity, default: 0] += 1
        state.pointee.hasDeferred = true
    }

    /// Records that this thread owes `debt` a wait, once it has left its outermost delivery, if
    /// that was a send (see ``runDeferred(afterASend:)``); once per debtor.
    func owe(_ debt: any DeliveryDebt) {
        state.pointee.debts[ObjectIdentifier(debt)] = debt
        state.pointee.hasDeferred = true
    }

    /// Counts a serialization point made on this thread (`+1`) or freed on it (`-1`), for
    /// ``SignalDiagnostics/liveSubscriptionCount``.
    @inline(__always)
    func countLive(_ delta: Int) {
        LiveCount.add(delta, to: state.pointee.liveCount)
    }

    /// Lets go of `object` once this thread has left its outermost delivery, or now when it is
    /// in none.
    ///
    /// This is what lets a delivery call the sink below a lock without retaining it for the call:
    /// the sink is let go of only by the lock's owner, and when the owner lets go of it from
    /// inside a delivery (a subscriber disposing its own subscription from its callback), one of
    /// the sink's methods may be running further up the stack, so the release waits until every
    /// delivery on this thread has returned.
    func retire(_ object: AnyObject) {
        guard depth > 0 else { return }
        state.pointee.retired.append(object)
        state.pointee.hasDeferred = true
    }

    /// Does the work put off, in order, including work it puts off in turn, then releases what
    /// was retired. Called when `depth` returns to 0.
    ///
    /// Releasing a retired object runs its deinit, which may put work off or retire more objects
    /// in turn, so it must never run while this thread's state is being changed: each step takes
    /// what it needs out of the state, leaves the state whole, and only then runs the work or
    /// releases the objects.
    ///
    /// Then the debts (``DeliveryDebt``): when the outermost delivery that just ended was a send
    /// (`afterASend`), this thread is now where a plain sender is, outside every delivery, owning
    /// nothing anyone could be waiting for, and it settles each debt, waiting as a plain sender
    /// at the bound would. After a subscribe, a disposal or a deinit, which never wait, the debts
    /// are forgiven, and so are those of a send made inside one: inside a subscription
    /// (`StackCheck.isSubscribingWhereSendsNeverWait`, marked by a chain's outermost
    /// `Signal.attachSink(_:)`, but not by the library's own subscriptions from scheduled blocks,
    /// `Signal.subscribingFromAScheduledBlock(_:)`) or a deinit that ends a signal
    /// (``neverWaiting(_:)``).
    func runDeferred(afterASend: Bool) {
        // Inside the loop below, further up this thread's stack: that loop does it all.
        if state.pointee.isRunningDeferred { return }
        runDeferredWork()
        if state.pointee.debts.isEmpty { return }
        if afterASend, state.pointee.neverWaiting == 0, !StackCheck.isSubscribingWhereSendsNeverWait {
            settleDebts()
        } else if !state.pointee.isSettling {
            state.pointee.debts = [:]
            updateHasDeferred()
        }
    }

    /// Settles the debts, in a loop: a settlement that delivers (a waiting sender may be handed the
    /// delivering role) may put work off and owe more, which the same loop does and settles, in
    /// constant stack.
    @inline(never)
    private func settleDebts() {
        if state.pointee.isSettling { return }
        state.pointee.isSettling = true
        while let (key, debt) = state.pointee.debts.first {
            state.pointee.debts[key] = nil
            debt.settle()
            runDeferredWork()
        }
        state.pointee.isSettling = false
        updateHasDeferred()
    }

    private func updateHasDeferred() {
        state.pointee.hasDeferred = !state.pointee.deferred.isEmpty || !state.pointee.retired.isEmpty
            || !state.pointee.debts.isEmpty
    }

    /// Runs `body`, a subscription the library makes from a scheduled block of its own
    /// (`subscribe(on:)`'s, a retry's after its delay, `Signal.defer`'s on a background scheduler):
    /// there the thread is where any sender on a scheduler is, so the sends made inside the
    /// subscription settle what they owe a subject's bound, as a plain sender waits at it, rather
    /// than being forgiven as those inside a subscription the app makes are (see
    /// ``runDeferred(afterASend:)``). Inside another subscription, it changes nothing.
    package static func subscribingWhereSendsMayWait<Result>(_ body: () -> Result) -> Result {
        // Not a level of its own (no values pass here): when too deep already, the first level
        // subscribed in `body` stops with the message.
        let level = StackCheck.beginSubscriptionLevel(valueSize: 0, sendsMayWait: true)
        defer { StackCheck.endSubscriptionLevel(level) }
        return body()
    }

    /// Runs `body`, a deinit that ends a signal, in which this thread's sends settle no debt, as a
    /// deinit never waits: a `Lifetime`'s token sends its end from its deinit, and whatever the
    /// callbacks owe is forgiven (as for a subscription's sends, see ``runDeferred(afterASend:)``).
    /// (Outside the library, a send waits at a subject's bound as it always does.)
    @inline(__always)
    package static func neverWaiting<Result>(_ body: () -> Result) -> Result {
        let context = current
        context.state.pointee.neverWaiting += 1
        defer { context.state.pointee.neverWaiting -= 1 }
        return body()
    }

    /// The work put off and the objects retired: see ``runDeferred(afterASend:)``.
    private func runDeferredWork() {
        state.pointee.isRunningDeferred = true
        while true {
            if let next = popDeferred() {
                next()
            } else if let retired = takeRetired() {
                // The state no longer refers to these: their deinits may change it freely.
                release(retired)
            } else {
                break
            }
        }
        // Nothing is left: neither list has an element; the debts are the caller's.
        state.pointee.hasDeferred = !state.pointee.debts.isEmpty
        state.pointee.isRunningDeferred = false
    }

    /// Takes the first piece of work put off out of the state, if any.
    @inline(never)
    private func popDeferred() -> (() -> Void)? {
        guard let next = state.pointee.deferred.popFirst() else { return nil }
        if state.pointee.deferredPerLock[next.lock]! == 1 {
            state.pointee.deferredPerLock[next.lock] = nil
        } else {
            state.pointee.deferredPerLock[next.lock]! -= 1
        }
        state.pointee.hasDeferred = !state.pointee.deferred.isEmpty || !state.pointee.retired.isEmpty
        return next.work
    }

    /// Takes every retired object out of the state, if any, leaving it an empty list.
    @inline(never)
    private func takeRetired() -> [AnyObject]? {
        if state.pointee.retired.isEmpty { return nil }
        let retired = state.pointee.retired
        state.pointee.retired = []
        state.pointee.hasDeferred = !state.pointee.deferred.isEmpty
        return retired
    }

    /// Releases `objects`, outside any access to the state; then gives their array's storage
    /// back to the state, when it is small and nothing was retired meanwhile, for the next
    /// objects retired (one retirement at each terminal event inside a delivery would otherwise
    /// allocate an array each time).
    @inline(never)
    private func release(_ objects: consuming [AnyObject]) {
        var objects = objects
        objects.removeAll(keepingCapacity: true)
        if objects.capacity <= 64, state.pointee.retired.isEmpty {
            state.pointee.retired = objects
        }
    }

    /// The calling thread's context, made on its first use and freed when the thread exits.
    static var current: DeliveryContext {
        @inline(__always) get { current(in: key) }
    }

    /// The thread-local key of the contexts. A hot path reads it once, into a constant, so that
    /// finding the current context costs no check of a lazy global.
    static var key: pthread_key_t { slot.key }

    /// The calling thread's context, given ``key``.
    @inline(__always)
    static func current(in key: pthread_key_t) -> DeliveryContext {
        if let pointer = pthread_getspecific(key) {
            return DeliveryContext(state: pointer.assumingMemoryBound(to: State.self))
        }
        return makeCurrent()
    }

    @inline(never)
    private static func makeCurrent() -> DeliveryContext {
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State())
        pthread_setspecific(slot.key, state)
        return DeliveryContext(state: state)
    }

    /// Frees a thread's state when the thread exits.
    fileprivate static func free(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        let state = pointer.assumingMemoryBound(to: State.self)
        LiveCount.retire(state.pointee.liveCount)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    private static let slot = ThreadLocalKey("DeliveryContext") { pointer in DeliveryContext.free(pointer) }
}

/// A wait a thread owes for what it sent from inside a delivery, where it never waits.
///
/// A send from inside a callback never waits for another thread (two threads could wait for each
/// other), so what it adds to a queue that another thread drains (a subject's events, a replay's
/// held events) is not held back by the queue's bound there. Unchecked, a thread that forwards
/// into a subject from a callback would grow that queue without limit. So such a send, past the
/// bound, records a debt (``DeliveryContext/owe(_:)``), and the thread settles it once its
/// outermost send is over (``DeliveryContext/runDeferred(afterASend:)``): outside every delivery,
/// it waits there as a plain sender at the bound would, until the queue is back within it. What
/// one thread can add beyond the bound is then what one outermost delivery sends.
package protocol DeliveryDebt: AnyObject {
    /// Waits, as a plain sender at the bound would, until the debtor's queue is within its bound;
    /// at once when it is. Called outside every delivery.
    func settle()
}
