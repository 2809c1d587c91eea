#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A thread-specific key made once, whose destructor frees a thread's value when the thread
/// exits: the slot of each piece of the library's per-thread state (the stack limits with the
/// current scheduler, the trampoline's frames, the delivery contexts), read with
/// `pthread_getspecific(key)` on its hot paths.
package final class ThreadLocalKey: @unchecked Sendable {
    #if canImport(Darwin)
    /// Frees a thread's value when the thread exits; the system calls it only for a value that is
    /// set. (Darwin's type; the other systems' passes the value as an optional.)
    package typealias Destructor = @convention(c) (UnsafeMutableRawPointer) -> Void
    #else
    /// Frees a thread's value when the thread exits; the system calls it only for a value that is
    /// set, though this system's type passes it as an optional.
    package typealias Destructor = @convention(c) (UnsafeMutableRawPointer?) -> Void
    #endif

    /// The key: set once, in `init`, and never deleted.
    package let key: pthread_key_t

    /// Makes the key, or stops with a message naming `owner` when the system has no key left
    /// (not bad input: a limit of the process, said in release builds too).
    package init(_ owner: StaticString, destructor: Destructor) {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, destructor)
        if status != 0 { fatalError("\(owner): pthread_key_create failed (\(status))") }
        self.key = key
    }
}
