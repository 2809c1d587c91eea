import Disposables
import Synchronization

/// A serialization point: the one place where a thread waits while another runs user code.
///
/// Events enter a subscription's chain of sinks through a delivery lock (a ``Subscriber``'s, a
/// pipe's input, a replay's subscriber), and the thread that owns it runs the chain down to the
/// subscriber's callbacks. So the sinks below it are called by one thread at a time, in order,
/// and need no lock of their own.
///
/// - A thread that already owns the lock is told so (``Admission/ownedByThisThread``), so that the
///   caller queues the event for the delivery in progress instead of deadlocking.
/// - A thread that is inside another delivery never waits for this one
///   (``Admission/busyElsewhere``): the caller puts its work off with ``DeliveryContext``, so two
///   threads can never wait for each other, whatever their subscribers send to one another.
/// - Any other thread waits its turn, as RAC 2.5's `@synchronized` subscriber does, so a send
///   from it returns once its event has been delivered.
///
/// Disposal closes the lock (``Disposable/isDisposed``, checked before each delivery) and then
/// ``quiesce(_:)``s it: waits for a delivery under way on another thread, then lets go of the
/// chain as the owner, when nothing can be running through it.
@usableFromInline
package class DeliveryLock: Disposable, Settling, @unchecked Sendable {
    private let mutex = Lock(())
    /// The ``DeliveryContext/id`` of the thread delivering now, or 0.
    private let owner = Atomic<UInt>(0)
    /// Looked up once, so that an event costs no check of a lazy global.
    private let isAnnotated = ThreadSanitizer.isActive
    private let contextKey = DeliveryContext.key

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
    }

    /// The calling thread's ``DeliveryContext``.
    package final var currentContext: DeliveryContext {
        @inline(__always) get { DeliveryContext.current(in: contextKey) }
    }

    /// Runs `body` as the lock's owner, waiting for another thread's delivery to end when this
    /// thread is not delivering itself; see ``Admission`` for when it does not run `body`.
    @inline(__always)
    package final func perform(in context: DeliveryContext, _ body: () -> Void) -> Admission {
        if owner.load(ordering: .relaxed) == context.id { return .ownedByThisThread }
        // Inside a delivery, work this thread put off for this lock goes first, so that its sends
        // keep their order. (Outside, that work is being done, in order, by `runDeferred`.)
        if context.hasDeferred, context.depth > 0, context.hasDeferred(for: self) { return .busyElsewhere }
        if mutex.withLockIfAvailable(annotated: isAnnotated, { _ in own(context, body) }) == nil {
            if context.depth > 0 { return .busyElsewhere }
            mutex.withLock(annotated: isAnnotated) { _ in own(context, body) }
        }
        if context.depth == 0, context.hasDeferred { context.runDeferred() }
        return .performed
    }

    @inline(__always)
    private func own(_ context: DeliveryContext, _ body: () -> Void) {
        owner.store(context.id, ordering: .relaxed)
        context.depth += 1
        body()
        context.depth -= 1
        owner.store(0, ordering: .relaxed)
    }

    /// Runs `work` as the owner once no delivery through this lock is under way on another
    /// thread, then ``didQuiesce()``: for letting go of a closed chain when nothing can be running
    /// through it.
    ///
    /// From the owning thread, `work` runs at once (the delivery further up this thread's stack
    /// holds on to what it uses). From a thread inside another delivery while another thread
    /// owns the lock, it runs once this thread has left its outermost delivery.
    package final func quiesce(_ work: @escaping () -> Void) {
        let context = currentContext
        switch perform(in: context, { work(); didQuiesce() }) {
        case .performed:
            return
        case .ownedByThisThread:
            work()
        case .busyElsewhere:
            context.defer_(for: self) { [self] in quiesce(work) }
        }
    }

    /// ``quiesce(_:)`` without the allocation of an escaping closure, for when the lock is free or
    /// held by another thread that is not waiting on this one: runs `work` as the owner and returns
    /// `true`, or returns `false` without running it (this thread owns the lock, or must not
    /// wait): the caller then calls ``quiesce(_:)``.
    @inline(__always)
    package final func quiesceIfFree(_ work: () -> Void) -> Bool {
        let context = currentContext
        if case .performed = perform(in: context, { work(); didQuiesce() }) { return true }
        return false
    }

    /// Called as the owner after a quiescing `work`; a subscriber delivers what that work sent.
    package func didQuiesce() {}

    /// Waits for a delivery under way on another thread, unless this thread is inside a delivery
    /// (it never waits then) or owns the lock: so a `dispose()` that finds the subscription ended
    /// already returns after the terminal event that ended it has been delivered.
    package final func settle() {
        _ = quiesceIfFree {}
    }
}
