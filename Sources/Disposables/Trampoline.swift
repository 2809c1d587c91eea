#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Disposes, and releases, what the disposables that hold others hold, in constant stack however
/// deeply they nest.
///
/// The holders (``CompoundDisposable``, ``SerialDisposable``, ``ScopedDisposable``) nest as deeply
/// as the work they stand for: a signal that subscribes to itself once per page holds each page's
/// subscription in the one before (a subscriber's compound, a merge's), so disposing the first
/// subscription disposes the next from inside its `dispose()`, and so on, one level of calls per
/// page; dropping a chain of undisposed holders releases one level per nested deinit. A few
/// thousand levels overflow a 512 KiB stack (Apple's secondary threads, Dispatch's workers), fifty
/// thousand the 8 MiB main thread. Other disposables that hold one (a subscription's own
/// disposable, an operator's sink) hold a holder, or nothing that nests: the holders between them
/// bound the depth.
///
/// So holders dispose their children through ``dispose(_:)``, which counts on each thread how many
/// holders are disposing their children: up to ``maximumDepth``, a holder disposes them at once,
/// as any other call would; past it, it puts them off, on a per-thread stack, and returns. The
/// outermost holder disposing on that thread works through that stack, in a loop, before its own
/// `dispose()` returns. The order is kept: a holder that finds something put off while it disposed
/// a child puts its remaining children off under it, so every child is still disposed after its
/// parent and after the whole of its elder siblings' disposal, as nested calls would. Only code
/// running between the two, on the same thread, deep inside a disposal, can tell: a nested
/// `dispose()` of a holder may return before that holder's children are disposed, though always
/// before the outermost `dispose()` on the thread returns.
///
/// A holder's deinit hands what it still holds to ``release(_:)``, which bounds nested releases the
/// same way (a scoped disposable's deinit disposes instead, through ``dispose(_:)``). Below the
/// bound, nothing is put off, and a holder with nothing to dispose or release does not look for its
/// thread's state at all.
package enum Trampoline {
    /// How many holders may dispose (or release) their children nested on one thread before the
    /// next one's are put off.
    package static let maximumDepth = 16

    /// Disposes `children`, in order: at once, or, past ``maximumDepth`` nested disposals on this
    /// thread, put off until the outermost one works through them.
    ///
    /// A holder calls it after it has marked itself disposed and taken its children out.
    static func dispose<Children: IteratorProtocol<Disposable>>(_ children: inout Children) {
        let frame = Frame.current
        let depth = frame.pointee.depth
        if depth >= maximumDepth {
            putOff(&children, frame: frame, at: frame.pointee.pending.count)
            return
        }
        frame.pointee.depth = depth + 1
        // What nested disposals put off goes above this; what this one puts off, below it.
        let height = frame.pointee.pending.count
        while let child = children.next() {
            child.dispose()
            if _slowPath(frame.pointee.pending.count != height) {
                // A nested holder put off its children: the rest of these come after them.
                putOff(&children, frame: frame, at: height)
                break
            }
        }
        frame.pointee.depth = depth
        if depth == 0, _slowPath(!frame.pointee.pending.isEmpty) { drain(frame) }
    }

    /// Disposes `first`, then `second`, as ``dispose(_:)`` does: for a holder of one or two.
    package static func dispose(_ first: Disposable?, _ second: Disposable? = nil) {
        var pair = Pair(first: first, second: second)
        dispose(&pair)
    }

    /// Releases what `take` hands over: at once, or, past ``maximumDepth`` nested releases on this
    /// thread, from the outermost release's loop.
    ///
    /// A holder's deinit calls it with what it still holds (it was not disposed). `take` hands the
    /// value over as a call's result, so that no copy of it outlives the call that releases it,
    /// optimized or not.
    package static func release<Value>(_ take: () -> Value) {
        let frame = Frame.current
        let depth = frame.pointee.releaseDepth
        if depth >= maximumDepth {
            enqueueRelease(take(), frame: frame)
            return
        }
        frame.pointee.releaseDepth = depth + 1
        drop(take())
        frame.pointee.releaseDepth = depth
        guard depth == 0 else { return }
        while !frame.pointee.released.isEmpty {
            frame.pointee.releaseDepth = 1
            // Released inside `drop`, after `takeRelease` has let go of the queue (what its
            // deinit queues must not overlap that access), and bound to no local that would
            // outlive the depth.
            drop(takeRelease(frame))
            frame.pointee.releaseDepth = 0
        }
    }

    /// Puts the rest of `children` off, at `height` on the pending stack: under whatever nested
    /// disposals put off meanwhile, which must come first.
    private static func putOff<Children: IteratorProtocol<Disposable>>(
        _ children: inout Children,
        frame: UnsafeMutablePointer<Frame>,
        at height: Int
    ) {
        var rest: [Disposable] = []
        while let child = children.next() { rest.append(child) }
        // The stack is worked through from its end: the first child goes last.
        rest.reverse()
        insert(rest, frame: frame, at: height)
    }

    @inline(never)
    private static func insert(_ disposables: [Disposable], frame: UnsafeMutablePointer<Frame>, at height: Int) {
        frame.pointee.pending.insert(contentsOf: disposables, at: height)
    }

    /// The outermost disposal's loop: disposes what was put off, last in first out, each at the
    /// depth of one holder.
    @inline(never)
    private static func drain(_ frame: UnsafeMutablePointer<Frame>) {
        while let next = takePending(frame) {
            frame.pointee.depth = 1
            next.dispose()
            frame.pointee.depth = 0
        }
    }

    /// Takes the top of the pending stack out, in an access of its own: the caller runs user code
    /// with it.
    @inline(never)
    private static func takePending(_ frame: UnsafeMutablePointer<Frame>) -> Disposable? {
        frame.pointee.pending.popLast()
    }

    @inline(never)
    private static func enqueueRelease(_ value: Any, frame: UnsafeMutablePointer<Frame>) {
        frame.pointee.released.append(value)
    }

    @inline(never)
    private static func takeRelease(_ frame: UnsafeMutablePointer<Frame>) -> Any {
        frame.pointee.released.removeLast()
    }

    /// Ends `value`'s lifetime here, whatever the optimizer would have chosen.
    @inline(never)
    private static func drop<Value>(_ value: consuming Value) {}

    /// One thread's depths and what it put off.
    ///
    /// Only its own thread touches it, through a pointer, so the exclusivity of its fields is not
    /// checked at run time. A nested disposal or release changes it between the outer one's
    /// accesses, never during one: every access that changes an array is a call of its own, with
    /// no user code and no deinit inside (what it takes out is released by the caller).
    struct Frame {
        /// How many holders are disposing their children on this thread.
        var depth = 0
        /// Disposals put off; the next one last.
        var pending: [Disposable] = []
        /// How many holders' deinits are releasing what they held on this thread.
        var releaseDepth = 0
        /// Releases put off.
        var released: [Any] = []

        /// The calling thread's frame, made on its first use and freed when the thread exits.
        @inline(__always)
        static var current: UnsafeMutablePointer<Frame> {
            if let pointer = pthread_getspecific(slot.key) {
                return pointer.assumingMemoryBound(to: Frame.self)
            }
            return makeCurrent()
        }

        @inline(never)
        private static func makeCurrent() -> UnsafeMutablePointer<Frame> {
            let frame = UnsafeMutablePointer<Frame>.allocate(capacity: 1)
            frame.initialize(to: Frame())
            pthread_setspecific(slot.key, frame)
            return frame
        }

        /// Frees a thread's frame when the thread exits; it holds nothing then, as every
        /// outermost disposal and release empties it before it returns.
        fileprivate static func free(_ pointer: UnsafeMutableRawPointer?) {
            guard let pointer else { return }
            let frame = pointer.assumingMemoryBound(to: Frame.self)
            frame.deinitialize(count: 1)
            frame.deallocate()
        }

        private static let slot = ThreadLocalKey("Trampoline") { pointer in Frame.free(pointer) }
    }

    /// The disposables of a holder of one or two, in order.
    private struct Pair: IteratorProtocol {
        var first: Disposable?
        var second: Disposable?

        mutating func next() -> Disposable? {
            if let first = first.take() { return first }
            return second.take()
        }
    }
}
