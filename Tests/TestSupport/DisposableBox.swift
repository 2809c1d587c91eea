import Disposables

/// A place for a closure to find the disposable it belongs to, such as a block that disposes its
/// own schedule.
public final class DisposableBox: Sendable {
    private let stored = Lock<Disposable?>(nil)

    public init() {}

    public var disposable: Disposable? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
