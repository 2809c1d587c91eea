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
/// RAC 2.5: `RACDisposable`, `+disposableWithBlock:`.
open class Disposable: @unchecked Sendable {
    // Written at init, then read and cleared only by the one caller that wins `disposed`.
    private var action: (@Sendable () -> Void)?
    @usableFromInline let disposed = Atomic<Bool>(false)
    /// Where a ``CompoundDisposable`` last stored this disposable, so `remove(_:)` is O(1).
    package let compoundSlot = Atomic<Int>(-1)

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
