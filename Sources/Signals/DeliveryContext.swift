#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
        /// Whether the outermost frame is running `deferred` already.
        var isRunningDeferred = false
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

    /// Whether work waits to be done when this thread leaves its outermost delivery.
    var hasDeferred: Bool {
        @inline(__always) get { state.pointee.hasDeferred }
    }

    /// Whether work for `lock` waits: later work for the same lock must wait behind it, so that
    /// this thread's sends to one subscriber keep their order.
    func hasDeferred(for lock: AnyObject) -> Bool {
        let identity = ObjectIdentifier(lock)
        return state.pointee.deferred.contains { $0.lock == identity }
    }

    /// Puts `work` off until this thread has left its outermost delivery.
    func defer_(for lock: AnyObject, _ work: @escaping () -> Void) {
        state.pointee.deferred.append((ObjectIdentifier(lock), work))
        state.pointee.hasDeferred = true
    }

    /// Does the work put off, in order, including work it puts off in turn. Called when `depth`
    /// returns to 0.
    func runDeferred() {
        if state.pointee.isRunningDeferred { return }
        state.pointee.isRunningDeferred = true
        defer { state.pointee.isRunningDeferred = false }
        while let next = state.pointee.deferred.popFirst() {
            state.pointee.hasDeferred = !state.pointee.deferred.isEmpty
            next.work()
        }
    }

    /// The calling thread's context, made on its first use and freed when the thread exits.
    static var current: DeliveryContext {
        @inline(__always) get {
            if let pointer = pthread_getspecific(slot.key) {
                return DeliveryContext(state: pointer.assumingMemoryBound(to: State.self))
            }
            return makeCurrent()
        }
    }

    @inline(never)
    private static func makeCurrent() -> DeliveryContext {
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State())
        pthread_setspecific(slot.key, state)
        return DeliveryContext(state: state)
    }

    /// Frees a thread's state when the thread exits.
    fileprivate static func free(_ pointer: UnsafeMutableRawPointer) {
        let state = pointer.assumingMemoryBound(to: State.self)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    private static let slot = ContextSlot()
}

/// The thread-local slot of the contexts; a context's state is freed when its thread exits.
private final class ContextSlot: @unchecked Sendable {
    let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        #if canImport(Darwin)
        let status = pthread_key_create(&key) { pointer in
            DeliveryContext.free(pointer)
        }
        #else
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            DeliveryContext.free(pointer)
        }
        #endif
        precondition(status == 0, "DeliveryContext: pthread_key_create failed (\(status))")
        self.key = key
    }
}
