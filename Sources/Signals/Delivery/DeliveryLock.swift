import Disposables
import Synchronization

/// A serialization point: the one place where a sending thread waits while another runs user
/// code, and the place a disposal hands its work to when it must not wait.
///
/// Events enter a subscription's chain of sinks through a delivery lock (a ``Subscriber``'s, a
/// pipe's input, a junction), and the thread that owns it runs the chain down to the subscriber's
/// callbacks. So the sinks below it are called by one thread at a time, in order, and need no
/// lock of their own.
///
/// The lock is one atomic word: the ``DeliveryContext/id`` of the owning thread (0 when free) and
/// two flags, work handed over (``runExclusively(_:)``) and senders parked (see ``Parking``).
///
/// - A thread that already owns the lock is told so (``Admission/ownedByThisThread``), so that the
///   caller queues the event for the delivery in progress instead of deadlocking.
/// - A thread that is inside another delivery never waits for this one
///   (``Admission/busyElsewhere``): the caller puts its work off with ``DeliveryContext``, so two
///   sending threads can never wait for each other.
/// - Any other sending thread waits its turn, as RAC 2.5's `@synchronized` subscriber does, so a
///   send from it returns once its event has been delivered.
///
/// Disposal never waits: it marks the lock disposed (``Disposable/isDisposed``, checked before
/// each delivery) and lets go of the chain below with ``runExclusively(_:)``: at once when
/// nobody delivers, or, while another thread delivers, by that thread as it leaves the lock.
@usableFromInline
package class DeliveryLock: Disposable, @unchecked Sendable {
    /// The owner's context id, or 0, with ``handedOver`` and ``parked`` in the low bits (a
    /// context's id is the address of its 16-byte aligned state, so those bits are free).
    private let state = Atomic<UInt>(0)
    /// Work handed to the owner by threads that found the lock busy; under its own lock, which is
    /// held for a few instructions and never around user code.
    private let handedWork = Lock<[() -> Void]>([])
    private let contextKey = DeliveryContext.key

    private static var handedOver: UInt { 1 }
    private static var parked: UInt { 2 }
    private static var flags: UInt { 3 }

    /// What ``perform(in:_:)`` did.
    package enum Admission {
        /// The body ran, as the owner.
        case performed
        /// This thread owns the lock already: it is delivering, further up its stack.
        case ownedByThisThread
        /// Another thread owns the lock and this one is inside a delivery, so it must not wait:
        /// put the work off with ``DeliveryContext/defer_(for:_:)``.
        case busyElsewhere
    }

    package override init() {
        super.init()
        DeliveryContext.current(in: contextKey).countLive(1)
    }

    deinit {
        DeliveryContext.current(in: contextKey).countLive(-1)
    }

    /// The calling thread's ``DeliveryContext``.
    package final var currentContext: DeliveryContext {
        @inline(__always) get { DeliveryContext.current(in: contextKey) }
    }

    /// Runs `body` as the lock's owner, waiting for another thread's delivery to end when this
    /// thread is not delivering itself; see ``Admission`` for when it does not run `body`.
    @inline(__always)
    package final func perform(in context: DeliveryContext, _ body: () -> Void) -> Admission {
        if owner == context.id { return .ownedByThisThread }
        // Inside a delivery, work this thread put off for this lock goes first, so that its sends
        // keep their order. (Outside, that work is being done, in order, by `runDeferred`.)
        if context.hasDeferred, context.depth > 0, context.hasDeferred(for: self) { return .busyElsewhere }
        if !tryAcquire(context.id) {
            if context.depth > 0 { return .busyElsewhere }
            acquireWaiting(context.id)
        }
        context.depth += 1
        body()
        context.depth -= 1
        leave(context)
        if context.depth == 0, context.hasDeferred { context.runDeferred(afterASend: true) }
        return .performed
    }

    /// Whether the calling thread owns the lock: it is delivering through it, further up its
    /// stack.
    package final var isOwnedByCurrentThread: Bool {
        owner == currentContext.id
    }

    /// The owner's context id, or 0.
    private var owner: UInt {
        @inline(__always) get { state.load(ordering: .relaxed) & ~Self.flags }
    }

    /// Takes the lock if nobody owns it; never waits.
    @inline(__always)
    private func tryAcquire(_ id: UInt) -> Bool {
        var expected: UInt = 0
        while true {
            let (exchanged, found) = state.compareExchange(expected: expected, desired: expected | id, ordering: .acquiring)
            if exchanged { return true }
            // Owned: give up. Free with a flag set (work handed over a moment ago): try again.
            if found & ~Self.flags != 0 { return false }
            expected = found
        }
    }

    /// Takes the lock, parking while another thread owns it. For senders outside any delivery.
    @inline(never)
    private func acquireWaiting(_ id: UInt) {
        while !tryAcquire(id) {
            Parking.park(on: self) {
                // Owned still? Then make sure the owner will wake us as it leaves.
                var found = state.load(ordering: .relaxed)
                while true {
                    if found & ~Self.flags == 0 { return false }
                    if found & Self.parked != 0 { return true }
                    let (exchanged, now) = state.compareExchange(expected: found, desired: found | Self.parked, ordering: .relaxed)
                    if exchanged { return true }
                    found = now
                }
            }
        }
    }

    /// Lets go of the lock, as its owner: first runs the work handed over meanwhile, then frees
    /// the lock and wakes the senders parked on it.
    @inline(__always)
    private func leave(_ context: DeliveryContext) {
        let id = context.id
        if state.compareExchange(expected: id, desired: 0, ordering: .releasing).exchanged { return }
        leaveWithFlags(context)
    }

    @inline(never)
    private func leaveWithFlags(_ context: DeliveryContext) {
        while true {
            let found = state.load(ordering: .acquiring)
            if found & Self.handedOver != 0 {
                runHandedWork(context)
                continue
            }
            if state.compareExchange(expected: found, desired: 0, ordering: .releasing).exchanged {
                if found & Self.parked != 0 { Parking.unparkAll(on: self) }
                return
            }
        }
    }

    /// Runs the work handed over, as the owner.
    private func runHandedWork(_ context: DeliveryContext) {
        let work = handedWork.withLock { work -> [() -> Void] in
            state.bitwiseAnd(~Self.handedOver, ordering: .relaxed)
            defer { work = [] }
            return work
        }
        context.depth += 1
        for item in work { item() }
        context.depth -= 1
    }

    /// Runs `work` as the only thread that may touch what the lock guards, without ever waiting:
    /// at once when nobody delivers, else handed to the delivering thread, which runs it as it
    /// leaves the lock, once the event under way has been delivered (this thread too, when it is
    /// the one delivering, further up its stack). For letting go of a closed chain, and for an
    /// end that must not wait for a delivery (`take(until:)`'s trigger, `take(during:)`'s
    /// lifetime): completing downstream from `work` is safe, since the junction is marked ended
    /// before the callback runs and drops whatever that callback sends back in.
    ///
    /// `work` must not send through this lock. It runs with the thread counted as delivering, so
    /// an object it lets go of that one of its calls may still be using is retired (see
    /// ``Retained/take(retiring:)``).
    package final func runExclusively(_ work: @escaping () -> Void) {
        let context = currentContext
        if runExclusivelyIfFree(in: context, work) { return }
        let before = handedWork.withLock { handed -> UInt in
            handed.append(work)
            return state.bitwiseOr(Self.handedOver, ordering: .acquiringAndReleasing).oldValue
        }
        // The owner left before it could see the work: run it as the owner, unless another
        // thread has taken the lock meanwhile (it runs the work as it leaves).
        if before & ~Self.flags == 0, tryAcquire(context.id) {
            leave(context)
            if context.depth == 0, context.hasDeferred { context.runDeferred(afterASend: false) }
        }
    }

    /// ``runExclusively(_:)`` without the allocation of an escaping closure, for when nobody
    /// delivers: runs `work` as the owner and returns `true`, or returns `false` without running
    /// it (the lock is busy, perhaps with this thread's own delivery): the caller then calls
    /// ``runExclusively(_:)``.
    @inline(__always)
    package final func runExclusivelyIfFree(_ work: () -> Void) -> Bool {
        runExclusivelyIfFree(in: currentContext, work)
    }

    @inline(__always)
    private func runExclusivelyIfFree(in context: DeliveryContext, _ work: () -> Void) -> Bool {
        guard tryAcquire(context.id) else { return false }
        context.depth += 1
        work()
        context.depth -= 1
        leave(context)
        if context.depth == 0, context.hasDeferred { context.runDeferred(afterASend: false) }
        return true
    }
}
