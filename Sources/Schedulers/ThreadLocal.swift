import Disposables
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A per-thread slot holding an unretained reference to an object.
///
/// The slot does not retain what it holds: whoever stores an object keeps it alive for as long as
/// it is stored, and restores the previous value before it lets go (see
/// `Scheduler.performAsCurrentScheduler(_:)`). One `pthread_getspecific` per read, no allocation.
@usableFromInline
final class ThreadLocalReference<Object: AnyObject>: @unchecked Sendable {
    @usableFromInline let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        checkInput(status == 0, "ThreadLocalReference.init() needs a thread-local key, got error \(status) from pthread_key_create")
        self.key = key
    }

    @inlinable
    var value: Object? {
        get {
            guard let pointer = pthread_getspecific(key) else { return nil }
            return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
        }
        set {
            let pointer = newValue.map { Unmanaged.passUnretained($0).toOpaque() }
            pthread_setspecific(key, pointer)
        }
    }
}
