import Synchronization

/// A handle that releases a resource or cancels work, once.
///
/// `dispose()` runs the action given at creation exactly once, on the first call, whichever
/// thread makes it; later and concurrent calls do nothing. The action is released after it runs,
/// so whatever it captured is freed.
///
/// ```swift
/// let disposable = Disposable { print("cleaned up") }
/// disposable.dispose()   // prints "cleaned up"
/// disposable.dispose()   // nothing
/// ```
///
/// Subclasses (``CompoundDisposable``, ``SerialDisposable``, ``ScopedDisposable``) override
/// `dispose()` and call `super.dispose()`.
///
/// ## The disposable of a subscription
///
/// The disposable a signal's `subscribe` returns keeps these promises, for every signal, operator
/// and subject of the library:
///
/// - `dispose()` never waits: not for a callback, not for another subscription's delivery, not
///   for any other thread, from any thread, inside a callback or outside one. It runs the
///   subscription's own disposal actions (the disposable the signal's create block returned, the
///   upstream subscriptions) on the calling thread before it returns; a create block still
///   running on another thread has not returned its disposable yet, so that thread disposes it
///   as the block returns.
/// - Once `dispose()` has returned, no callback of that subscription starts, on any thread,
///   terminal events included. A callback starts when it passes the final check of the
///   subscription's disposable, made right before the closure is called, with no lock and no user
///   code between the two. A callback already past it on another thread may finish (at most one:
///   callbacks never overlap), and a `dispose()` that arrives while a terminal event runs its
///   disposal actions suppresses the `completed` or `error` callback instead of waiting for it.
///   From inside the subscription's own callback, `dispose()` stops the rest of the event at once.
///   So a callback may wait for the thread that disposes its subscription
///   (`DispatchQueue.main.sync`, a semaphore, a blocking `first()`) without a deadlock.
/// - Everything the subscription captured (the sinks, the closures given to `subscribe`, queued
///   inner signals) is released by `dispose()` at once, or, when another thread is delivering an
///   event through it, by that thread as the event ends, even while the disposable, or the
///   subscriber the signal's block was handed, is still held.
/// - Once the subscription has ended, by a terminal event or by disposal, `isDisposed` is `true`.
///
/// **Departure:** RAC 2.5's `-dispose` does not wait either, but its passthrough subscriber checks
/// for disposal before it takes the subscriber's `@synchronized` lock, so there a callback waiting
/// for that lock can start after `-dispose` has returned. Here the check comes right before the
/// closure.
///
/// RAC 2.5: `RACDisposable`, `+disposableWithBlock:`.
open class Disposable: @unchecked Sendable {
    // Written at init, then read and cleared only by the one caller that wins `disposed`.
    private var action: (@Sendable () -> Void)?
    @usableFromInline let disposed = Atomic<Bool>(false)
    /// The ``CompoundDisposable`` (by address) that keeps this disposable's slot in `slotIndex`,
    /// or 0. The first compound to store it in its slot array claims it; the others look it up in
    /// a table of their own, so `remove(_:)` is O(1) whatever else holds the disposable.
    package let slotOwner = Atomic<UInt>(0)
    /// The slot in `slotOwner`'s array; written and read only under that compound's lock.
    package let slotIndex = Atomic<Int>(-1)

    /// A disposable with no action; `dispose()` only marks it disposed.
    public init() {
        action = nil
    }

    /// A disposable that runs `action` on the first `dispose()`.
    ///
    /// RAC 2.5: `+disposableWithBlock:`.
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    /// Whether `dispose()` has been called.
    ///
    /// RAC 2.5: `disposed`.
    @inlinable
    public final var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    /// Runs the action, the first time only; safe to call from any number of threads at once.
    ///
    /// RAC 2.5: `-dispose`.
    open func dispose() {
        guard markDisposed() else { return }
        runAction()
    }

    /// Marks the disposable disposed; `true` for the one caller that did so first.
    package final func markDisposed() -> Bool {
        // A load first: disposing what is already disposed (a finished subscription) is common,
        // and a load is cheaper than an exchange.
        !disposed.load(ordering: .relaxed) && !disposed.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Marks the disposable disposed without claiming the right to run its action: for a
    /// disposable that has no action and only records that its work has ended. A plain store is
    /// cheaper than the exchange of `markDisposed()`.
    @inlinable
    package final func markEnded() {
        disposed.store(true, ordering: .releasing)
    }

    /// Runs and releases the action. Only the caller that won `markDisposed()` may call it.
    package final func runAction() {
        let action = self.action.take()
        action?()
    }

    /// A ``ScopedDisposable`` that disposes this disposable when it is deinitialized.
    ///
    /// RAC 2.5: `-asScopedDisposable`.
    public final func asScoped() -> ScopedDisposable {
        ScopedDisposable(self)
    }
}
