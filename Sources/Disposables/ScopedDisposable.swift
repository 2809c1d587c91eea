/// A disposable that disposes the one it wraps when it is deinitialized.
///
/// Keep it in a property or a local to tie a subscription to an owner's lifetime:
///
/// ```swift
/// final class Screen {
///     let subscription: ScopedDisposable
///     init(connection: Disposable) {
///         subscription = connection.asScoped()
///     }
/// }   // releasing the screen disposes the connection
/// ```
///
/// RAC 2.5: `RACScopedDisposable`, `+scopedDisposableWithDisposable:`.
public final class ScopedDisposable: Disposable, @unchecked Sendable {
    /// Wraps `disposable`, which is disposed with this one or at its deinit.
    ///
    /// Scoped disposables may wrap each other however deeply: the wrapped one is disposed as a
    /// compound's children are, so disposing or releasing a chain of a million of them takes
    /// constant stack, even on a thread with a 512 KiB stack.
    ///
    /// RAC 2.5: `+scopedDisposableWithDisposable:`.
    public init(_ disposable: Disposable) {
        super.init { Trampoline.dispose(disposable) }
    }

    deinit {
        dispose()
    }
}
