import Disposables

/// The base of the one-input operators that may end their source before it ends (`take`,
/// `take(while:)`, `tryMap`, `dematerialize`): it keeps the source's subscription, and
/// ``complete()`` or ``fail(_:)`` disposes it, then sends the terminal event. From then on it
/// ignores the rest: the source's own terminal event, and the cancel that disposing the source
/// sends down the chain (the terminal event it sends comes next).
package class EndingSink<Value, DownstreamValue, Failure: Error>: PassthroughSink<Value, DownstreamValue, Failure>, @unchecked Sendable {
    private var upstream: Disposable?
    /// Whether the sink has ended its source; a subclass drops the values that still come.
    final private(set) var isDone = false

    package override func attach(_ upstream: Disposable) {
        self.upstream = upstream
        super.attach(upstream)
    }

    /// Disposes the source, then sends completion.
    final func complete() {
        endSource()
        downstream.receiveCompleted()
    }

    /// Disposes the source, then sends `error`.
    final func fail(_ error: Failure) {
        endSource()
        downstream.receive(error: error)
    }

    private func endSource() {
        isDone = true
        upstream.take()?.dispose()
    }

    package override func receive(error: Failure) {
        if !isDone { super.receive(error: error) }
    }

    package override func receiveCompleted() {
        if !isDone { super.receiveCompleted() }
    }

    package override func cancel() {
        // Disposing the source was this sink's own doing: the terminal event it sends comes next.
        if !isDone { super.cancel() }
    }
}
