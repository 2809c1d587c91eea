import Disposables

/// The end of a chain that calls closures: what `subscribe(next:error:completed:)` builds.
///
/// As RAC 2.5's `-subscribe:` does, the subscription is handed a disposable of its own (a
/// ``SubscriptionDisposable``), apart from the one a terminal event disposes. Each callback is
/// called only after a final check of it, with no lock and no user code between the two: so once
/// its `dispose()` has returned, no callback starts, even one whose event another thread is already
/// delivering (the chain above lets go of its part when that event ends), and a `dispose()` that
/// arrives while a terminal event runs its disposal actions suppresses the `completed` or `error`
/// callback.
///
/// That disposable is made when the sink is attached, before any event can come from another
/// thread. A subscription that ended while it was made, and never attached the sink, needs none:
/// the sink itself, marked by the terminal event, stands for it.
///
/// A terminal event or ``cancel()`` lets go of the closures, so nothing they captured outlives
/// the subscription; the subscription's disposable holds none of them.
@usableFromInline
package final class ClosureSink<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    // Only the serialized event path reads and clears these.
    private var next: (@Sendable (Value) -> Void)?
    private var error: (@Sendable (Failure) -> Void)?
    private var completed: (@Sendable () -> Void)?
    /// The subscription's own disposable: written when the sink is attached, before any event
    /// can come from another thread, and read by the event path.
    @exclusivity(unchecked) private var handle: SubscriptionDisposable?

    @usableFromInline
    package init(
        next: (@Sendable (Value) -> Void)?,
        error: (@Sendable (Failure) -> Void)?,
        completed: (@Sendable () -> Void)?
    ) {
        self.next = next
        self.error = error
        self.completed = completed
        super.init()
    }

    /// The sink of a public `subscribe` to `signal` made at `file`:`line`, once
    /// ``SubscriptionTracking/mayRecord`` said it may be tracked: while
    /// ``SignalDiagnostics/isTrackingSubscriptions`` is on, its `completed` closure carries the
    /// subscription's ``SubscriptionTracking/Record``, let go of with the other closures. The
    /// value path is the same either way. Callers check the flag first and build an untracked sink
    /// with the initializer above, so that passing the site costs nothing when tracking is off.
    @usableFromInline @inline(never)
    package init(
        next: (@Sendable (Value) -> Void)?,
        error: (@Sendable (Failure) -> Void)?,
        completed: (@Sendable () -> Void)?,
        subscribedTo signal: AnyObject,
        file: StaticString,
        line: UInt
    ) {
        self.next = next
        self.error = error
        if let record = SubscriptionTracking.record(of: signal, file: file, line: line) {
            self.completed = SubscriptionTracking.completed(completed, carrying: record)
        } else {
            self.completed = completed
        }
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        if handle == nil { handle = SubscriptionDisposable() }
        handle?.keep(upstream, attached: true)
    }

    /// The disposable `subscribe` returns, given what subscribing returned.
    @usableFromInline
    package func subscription(returned: Disposable?) -> Disposable {
        if let handle {
            handle.adopt(returned)
            return handle
        }
        // Ended while it was made: the terminal event marked this sink.
        guard let returned else { return self }
        // A producer that never attached (it sends nothing from another thread): the handle
        // disposes what it returned, and the events, all sent already, need no check.
        let handle = SubscriptionDisposable()
        handle.adopt(returned)
        return handle
    }

    package override func receive(_ value: Value) {
        if let handle, handle.isDisposed { return }
        next?(value)
    }

    package override func valueHandler() -> ((Value) -> Void)? {
        next
    }

    package override func receive(error failure: Failure) {
        let error = self.error.take()
        next = nil
        completed = nil
        guard begin() else { return }
        error?(failure)
    }

    package override func receiveCompleted() {
        let completed = self.completed.take()
        next = nil
        error = nil
        guard begin() else { return }
        completed?()
    }

    /// The final check of a terminal event: `false` when the subscription was disposed; else
    /// marks it ended.
    private func begin() -> Bool {
        if let handle {
            // Won against a `dispose()`: the subscription has ended, and the handle lets go of
            // the upstream subscription, which may hold this sink (an operator's sink that is also
            // the disposable handed downstream).
            guard handle.markDisposed() else { return false }
            handle.dropUpstream()
        }
        markEnded()
        return true
    }

    package override func cancel() {
        // A callback of this sink may be running further up the stack: it holds its own closure.
        next = nil
        error = nil
        completed = nil
        markEnded()
    }

    package override func inputReleased() {
        cancel()
    }
}
