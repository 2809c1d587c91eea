import Disposables

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Releases what a dying list node still held (its evaluated tail, or what computes it: its blocks,
/// and through them other lists), with a bound on how deep the deinits it sets off may nest.
///
/// A chain of nodes can be as long as the list: a million evaluated nodes, each holding the next,
/// a million `LazyList(head:tail:)` prepended one to the other, or a million `concat`s, each holding
/// the previous one in a block. Releasing the first would release the second from inside its
/// deinit, and so on, a million frames deep. Here, past ``maximumDepth`` nested releases on a
/// thread, a release is queued instead, and the outermost one on that thread works through the
/// queue in a loop.
enum Teardown {
    /// How many releases may nest on one thread before the next is queued.
    static let maximumDepth = 16

    /// One thread's nesting depth and queue.
    ///
    /// Only its own thread touches a frame. A release nested in another (set off by what the
    /// outer one dropped) touches it between the outer release's own accesses: the queue is
    /// changed only inside `enqueue` and `takeLast`, which are not inlined, so no access to it
    /// spans a drop; the depth is an integer each nested release puts back as it found it. The
    /// fields are not checked at run time, because the optimizer may merge the outer accesses
    /// around a nested call, which the check would report as a conflict.
    final class Frame {
        @exclusivity(unchecked) var depth = 0
        @exclusivity(unchecked) private var queued: [Any] = []

        var isEmpty: Bool { queued.isEmpty }

        /// Queues `value`, to be released by the outermost release's loop.
        @inline(never)
        func enqueue(_ value: Any) {
            queued.append(value)
        }

        /// The last queued value, out of the queue.
        @inline(never)
        func takeLast() -> Any {
            queued.removeLast()
        }
    }

    /// The per-thread `Frame`, retained by its slot and released when its thread ends.
    private static let key = ThreadLocalKey("LazyList") { pointer in releaseFrame(pointer) }.key

    private static func releaseFrame(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        Unmanaged<Frame>.fromOpaque(pointer).release()
    }

    private static var frame: Frame {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Frame>.fromOpaque(pointer).takeUnretainedValue()
        }
        let frame = Frame()
        pthread_setspecific(key, Unmanaged.passRetained(frame).toOpaque())
        return frame
    }

    /// Lets go of what `take` hands over, now or, when releases already nest deeply on this
    /// thread, from the outermost release's loop.
    ///
    /// `take` hands the value over as a call's result, so no copy of it outlives the call that
    /// releases it, optimized or not.
    static func release<Value>(_ take: () -> Value) {
        let frame = frame
        if frame.depth >= maximumDepth {
            frame.enqueue(take())
            return
        }
        frame.depth += 1
        drop(take())
        frame.depth -= 1
        guard frame.depth == 0 else { return }
        while !frame.isEmpty {
            frame.depth = 1
            // Released inside `drop`, once the access that took it out of the queue has ended:
            // what its release queues must not overlap that access.
            drop(frame.takeLast())
            frame.depth = 0
        }
    }

    /// Ends `value`'s lifetime here, whatever the optimizer would have chosen.
    @inline(never)
    private static func drop<Value>(_ value: consuming Value) {}
}
