import Disposables
import Signals

/// Holds a token until `release()`, from any thread.
public final class TokenHolder: Sendable {
    private let token: Lock<Lifetime.Token?>

    public init(_ token: Lifetime.Token) {
        self.token = Lock(token)
    }

    public func release() {
        let released = token.withLock { $0.take() }
        _ = released   // released here, outside the lock
    }
}
