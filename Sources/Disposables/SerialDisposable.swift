/// A slot for one disposable at a time, whose content can be swapped atomically.
///
/// Putting a new disposable in does **not** dispose the old one: ``swap(_:)`` hands it back.
/// Disposing the serial disposable disposes what it holds; once disposed, anything put in is
/// disposed at once.
///
/// Serial disposables may hold one another to any depth: disposing or releasing such a chain runs
/// in constant stack (see ``CompoundDisposable``).
///
/// RAC 2.5: `RACSerialDisposable`.
public final class SerialDisposable: Disposable, @unchecked Sendable {
    private let inner: Lock<Disposable?>

    /// A serial disposable holding `inner`, or nothing.
    ///
    /// RAC 2.5: `+serialDisposableWithDisposable:`.
    public init(_ inner: Disposable? = nil) {
        self.inner = Lock(inner)
        super.init()
    }

    /// A serial disposable holding a ``Disposable`` that runs `action`.
    ///
    /// RAC 2.5: `+[RACSerialDisposable disposableWithBlock:]`.
    public override convenience init(_ action: @escaping @Sendable () -> Void) {
        self.init(Disposable(action))
    }

    /// The disposable held now; setting it is ``swap(_:)`` with the old one dropped, not disposed.
    ///
    /// RAC 2.5: `disposable`.
    public var disposable: Disposable? {
        get { inner.withLock { $0 } }
        set { swap(newValue) }
    }

    /// Puts `newDisposable` in and returns the one it replaces, undisposed.
    ///
    /// - Returns: The previous content, or `nil` when the serial disposable is already disposed,
    ///   in which case `newDisposable` is disposed at once.
    ///
    /// RAC 2.5: `-swapInDisposable:`.
    @discardableResult
    public func swap(_ newDisposable: Disposable?) -> Disposable? {
        let (accepted, previous) = inner.withLock { current -> (Bool, Disposable?) in
            // `dispose()` marks before it locks, so a swap it has not yet seen reads true here.
            if isDisposed { return (false, nil) }
            defer { current = newDisposable }
            return (true, current)
        }
        if !accepted { newDisposable?.dispose() }
        return previous
    }

    /// Disposes the held disposable, once; later ones are disposed as they arrive.
    public override func dispose() {
        guard markDisposed() else { return }
        let held = inner.withLock { current in
            defer { current = nil }
            return current
        }
        guard let held else { return }
        Trampoline.dispose(held)
    }

    deinit {
        // A disposed serial disposable has let go of what it held already.
        if isDisposed { return }
        var held = inner.withLock { current in
            defer { current = nil }
            return current
        }
        if held == nil { return }
        // What it held may hold a serial disposable, and so on: released through the trampoline.
        Trampoline.release { held.take() }
    }
}
