#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The one lock of the package: a `Synchronization.Mutex` that ThreadSanitizer can see.
///
/// On Linux `Mutex` hands a contended lock over inside the kernel (a priority-inheriting futex),
/// where ThreadSanitizer cannot see it, so it reports races between two critical sections of the
/// same lock. `Lock` tells ThreadSanitizer about each acquire and release when the process runs
/// under it (found once, with `dlsym`); otherwise the cost is one predictable branch.
///
/// Use it as `Mutex`: `lock.withLock { state in … }`, and never call user code inside.
package struct Lock<Value>: ~Copyable, @unchecked Sendable {
    private let mutex: Mutex<Value>

    package init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// Unlike `Mutex.withLock`, `body` need not keep the value in a region of its own (`sending`):
    /// the types that use `Lock` are `@unchecked Sendable` and guard their state themselves, and
    /// they store events and closures that are not `Sendable` in it.
    @inline(__always)
    package borrowing func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        withoutActuallyEscaping(body) { body in
            typealias Sending = (inout sending Value) -> sending Result
            let body = unsafeBitCast(body, to: Sending.self)
            guard ThreadSanitizer.isActive else { return mutex.withLock(body) }
            // The mutex's own address names the lock; taking it is a read, which races with nothing.
            let address = withUnsafePointer(to: mutex) { UnsafeMutableRawPointer(mutating: $0) }
            return mutex.withLock { (value: inout sending Value) -> sending Result in
                ThreadSanitizer.acquire(address)
                defer { ThreadSanitizer.release(address) }
                return body(&value)
            }
        }
    }

    /// Runs `body` with exclusive access to the value if no other thread holds the lock;
    /// returns `nil` without waiting otherwise (also when this thread holds it).
    @inline(__always)
    package borrowing func withLockIfAvailable<Result>(_ body: (inout Value) -> Result) -> Result? {
        withoutActuallyEscaping(body) { body in
            typealias Sending = (inout sending Value) -> sending Result
            let body = unsafeBitCast(body, to: Sending.self)
            guard ThreadSanitizer.isActive else { return mutex.withLockIfAvailable(body) }
            let address = withUnsafePointer(to: mutex) { UnsafeMutableRawPointer(mutating: $0) }
            return mutex.withLockIfAvailable { (value: inout sending Value) -> sending Result in
                ThreadSanitizer.acquire(address)
                defer { ThreadSanitizer.release(address) }
                return body(&value)
            }
        }
    }
}

/// ThreadSanitizer's annotation functions, when the process runs under it.
package enum ThreadSanitizer {
    private typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private static let annotations: (acquire: Annotation, release: Annotation)? = {
        let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        guard let acquire = dlsym(everywhere, "__tsan_acquire"),
              let release = dlsym(everywhere, "__tsan_release") else { return nil }
        return (unsafeBitCast(acquire, to: Annotation.self), unsafeBitCast(release, to: Annotation.self))
    }()

    /// Whether the process runs under ThreadSanitizer.
    @inline(__always)
    package static var isActive: Bool { annotations != nil }

    /// Tells ThreadSanitizer that the lock at `address` was acquired.
    @inline(__always)
    package static func acquire(_ address: UnsafeMutableRawPointer) {
        if let annotations { annotations.acquire(address) }
    }

    /// Tells ThreadSanitizer that the lock at `address` is about to be released.
    @inline(__always)
    package static func release(_ address: UnsafeMutableRawPointer) {
        if let annotations { annotations.release(address) }
    }
}
