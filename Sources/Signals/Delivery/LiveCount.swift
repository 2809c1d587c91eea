import Disposables
import Synchronization

/// The count behind ``SignalDiagnostics/liveSubscriptionCount``: how many serialization points
/// (delivery locks and members of hot signals) exist, kept as one counter per thread so that the
/// subscribe and release paths pay no contended atomic operation.
///
/// Each thread's counter lives in its ``DeliveryContext`` and only that thread writes it, with a
/// plain relaxed load and store (no read-modify-write); a serialization point made on one thread
/// and freed on another adds one to the first thread's counter and takes one from the other's, so
/// only the sum means anything. Reading sums the counters of the living threads and what the
/// threads that exited left, under the registry's lock, which a thread also takes to register its
/// counter (at its first delivery) and to fold it into ``exited`` when it exits. That lock is a
/// `Lock`, not a bare `Mutex`: threads starting and exiting at once contend for it, and a bare
/// `Mutex` hands a contended lock over in the kernel, where ThreadSanitizer cannot see it, so it
/// reports the registry's critical sections as racing.
enum LiveCount {
    /// One thread's counter, at a stable address.
    typealias Counter = UnsafeMutablePointer<Atomic<Int>>

    private struct Registry {
        // The addresses of the living threads' counters; each is read here and written by its
        // thread only.
        var counters: Set<UInt> = []
        // The sum of the counters of the threads that exited.
        var exited = 0
    }

    private static let registry = Lock(Registry())

    /// A new thread's counter, registered.
    static func makeCounter() -> Counter {
        let counter = Counter.allocate(capacity: 1)
        counter.initialize(to: Atomic(0))
        let address = UInt(bitPattern: counter)
        registry.withLock { _ = $0.counters.insert(address) }
        return counter
    }

    /// Folds an exiting thread's counter into the total and frees it.
    static func retire(_ counter: Counter) {
        let address = UInt(bitPattern: counter)
        registry.withLock { registry in
            registry.exited += Self.counter(at: address).pointee.load(ordering: .relaxed)
            registry.counters.remove(address)
        }
        counter.deinitialize(count: 1)
        counter.deallocate()
    }

    /// The sum of every thread's counter.
    static var total: Int {
        registry.withLock { registry in
            registry.counters.reduce(registry.exited) { $0 + Self.counter(at: $1).pointee.load(ordering: .relaxed) }
        }
    }

    private static func counter(at address: UInt) -> Counter {
        Counter(bitPattern: address).unsafelyUnwrapped
    }

    /// Adds `delta` to the calling thread's counter, which only this thread writes.
    @inline(__always)
    static func add(_ delta: Int, to counter: Counter) {
        counter.pointee.store(counter.pointee.load(ordering: .relaxed) &+ delta, ordering: .relaxed)
    }
}
