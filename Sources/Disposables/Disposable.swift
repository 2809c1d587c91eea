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
/// - Once `dispose()` has returned, no callback of that subscription starts, on any thread, and
///   no terminal event follows. `dispose()` called from a thread that is not itself delivering an
///   event waits for a callback of the subscription that is running on another thread to return.
///   Called from inside a callback, it never waits for another thread (so that two threads can
///   never wait for each other): an event already on its way on another thread may finish its
///   way, and nothing starts after it. From inside the subscription's own callback, it stops the
///   rest of the event's way at once.
/// - Everything the subscription captured (the sinks, the closures given to `subscribe`, queued
///   inner signals) is released once nothing is running through it, whoever still holds the
///   disposable or the subscriber the signal's block was handed.
/// - Once the subscription has ended, by a terminal event or by disposal, `isDisposed` is `true`.
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
