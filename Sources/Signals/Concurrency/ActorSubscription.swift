import Disposables
import Schedulers

extension Signal where Value: Sendable {
    /// Subscribes with closures isolated to `actor`: each value, the error and completion is
    /// delivered on the actor, in the order the source sent them, and each closure gets the
    /// actor as an `isolated` parameter, so it may read and write the actor's state directly.
    ///
    /// Delivery is ``deliver(on:)``'s onto a fresh `ActorScheduler` for `actor`: events are
    /// queued in order and run on the actor one at a time, between the actor's own jobs. As with
    /// ``subscribeOnMainActor(next:error:completed:file:line:)``, only the callbacks move; the subscription
    /// is made as ``subscribe(next:error:completed:file:line:)`` makes it. Disposing the returned
    /// disposable cancels the events not yet delivered: no closure starts after `dispose()`
    /// returns. The actor is held strongly until the subscription ends.
    ///
    /// ```swift
    /// actor Store {
    ///     var items: [String] = []
    /// }
    /// let store = Store()
    /// items.subscribeOnActor(store, next: { store, item in store.items.append(item) })
    /// ```
    ///
    /// - Parameters:
    ///   - actor: The actor the closures are isolated to.
    ///   - next: Called on `actor` with each value.
    ///   - error: Called on `actor` with the error; nothing follows it.
    ///   - completed: Called on `actor` when the signal completes; nothing follows it.
    ///   - file: Where the subscription is made, for ``SignalDiagnostics/liveSubscriptions``
    ///     (which lists it under this signal's name); leave it to its default.
    ///   - line: The line of `file`; leave it to its default.
    /// - Returns: A disposable that ends the subscription and cancels the events not yet delivered.
    ///
    /// RAC 2.5: `[[signal deliverOn:scheduler] subscribeNext:error:completed:]`; RAC 2.5 has no
    /// actors, so no isolation to carry.
    @discardableResult
    public func subscribeOnActor<Isolation: Actor>(
        _ actor: Isolation,
        next: @escaping @Sendable (isolated Isolation, Value) -> Void = { _, _ in },
        error: @escaping @Sendable (isolated Isolation, Failure) -> Void = { _, _ in },
        completed: @escaping @Sendable (isolated Isolation) -> Void = { _ in },
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable {
        // ActorScheduler runs every block isolated to `actor`, which is what makes the
        // assumptions below hold. Tracked as a subscription to this signal, not to the
        // delivering one.
        let onNext: @Sendable (Value) -> Void = { value in actor.assumeIsolated { next($0, value) } }
        let onError: @Sendable (Failure) -> Void = { failure in actor.assumeIsolated { error($0, failure) } }
        let onCompleted: @Sendable () -> Void = { actor.assumeIsolated { completed($0) } }
        let sink = SubscriptionTracking.mayRecord
            ? ClosureSink(next: onNext, error: onError, completed: onCompleted, subscribedTo: self, file: file, line: line)
            : ClosureSink(next: onNext, error: onError, completed: onCompleted)
        return sink.subscription(returned: deliver(on: ActorScheduler(actor)).attachSink(sink))
    }
}
