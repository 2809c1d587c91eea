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
@usableFromInline
package struct Lock<Value>: ~Copyable, @unchecked Sendable {
    @usableFromInline let mutex: Mutex<Value>

    @inlinable
    package init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// Unlike `Mutex.withLock`, `body` need not keep the value in a region of its own (`sending`):
    /// the types that use `Lock` are `@unchecked Sendable` and guard their state themselves, and
    /// they store events and closures that are not `Sendable` in it.
    @inlinable @inline(__always)
    package borrowing func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        withLock(annotated: ThreadSanitizer.isActive, body)
    }

    /// `withLock(_:)` for a caller that looked up ``ThreadSanitizer/isActive`` once, beforehand:
    /// on a hot path, that saves a lazy global's check per critical section.
    @inlinable @inline(__always)
    package borrowing func withLock<Result>(annotated isAnnotated: Bool, _ body: (inout Value) -> Result) -> Result {
        // Under ThreadSanitizer, the mutex's address names the lock. It is taken before locking,
        // with a read, so that no access to the value comes before the acquire annotation.
        let annotated: UnsafeMutableRawPointer? = isAnnotated
            ? withUnsafePointer(to: mutex) { UnsafeMutableRawPointer(mutating: $0) }
            : nil
        return mutex.withLock { (value: inout sending Value) -> sending Result in
            if let annotated { ThreadSanitizer.acquire(annotated) }
            defer { if let annotated { ThreadSanitizer.release(annotated) } }
            // `value` is the mutex's own storage, passed by address; reaching it through a pointer
            // keeps the region checker out of a critical section whose safety `Lock` guarantees.
            // (Passed into a closure instead, the region checker rejects it.) The address is that
            // of the mutex's storage, stable for the mutex's life, and used only until this
            // closure returns, while the mutex is held.
            let storage = withUnsafeMutablePointer(to: &value) { $0 }
            nonisolated(unsafe) let result = body(&storage.pointee)
            return result
        }
    }
}

extension Lock {
    /// Runs `body` with exclusive access to the value if the lock is free now; returns `nil`
    /// without waiting when another thread holds it.
    @inlinable @inline(__always)
    package borrowing func withLockIfAvailable<Result>(_ body: (inout Value) -> Result) -> Result? {
        withLockIfAvailable(annotated: ThreadSanitizer.isActive, body)
    }

    /// `withLockIfAvailable(_:)` for a caller that looked up ``ThreadSanitizer/isActive`` once.
    @inlinable @inline(__always)
    package borrowing func withLockIfAvailable<Result>(annotated isAnnotated: Bool, _ body: (inout Value) -> Result) -> Result? {
        let annotated: UnsafeMutableRawPointer? = isAnnotated
            ? withUnsafePointer(to: mutex) { UnsafeMutableRawPointer(mutating: $0) }
            : nil
        return mutex.withLockIfAvailable { (value: inout sending Value) -> sending Result in
            if let annotated { ThreadSanitizer.acquire(annotated) }
            defer { if let annotated { ThreadSanitizer.release(annotated) } }
            let storage = withUnsafeMutablePointer(to: &value) { $0 }
            nonisolated(unsafe) let result = body(&storage.pointee)
            return result
        }
    }
}

/// ThreadSanitizer's annotation functions, when the process runs under it.
@usableFromInline
package enum ThreadSanitizer {
    @usableFromInline typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    @usableFromInline static let annotations: (acquire: Annotation, release: Annotation)? = {
        let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        guard let acquire = dlsym(everywhere, "__tsan_acquire"),
              let release = dlsym(everywhere, "__tsan_release") else { return nil }
        return (unsafeBitCast(acquire, to: Annotation.self), unsafeBitCast(release, to: Annotation.self))
    }()

    /// Whether the process runs under ThreadSanitizer.
    @inlinable @inline(__always)
    package static var isActive: Bool { annotations != nil }

    /// Tells ThreadSanitizer that the lock at `address` was acquired.
    @inlinable @inline(__always)
    package static func acquire(_ address: UnsafeMutableRawPointer) {
        if let annotations { annotations.acquire(address) }
    }

    /// Tells ThreadSanitizer that the lock at `address` is about to be released.
    @inlinable @inline(__always)
    package static func release(_ address: UnsafeMutableRawPointer) {
        if let annotations { annotations.release(address) }
    }
}
