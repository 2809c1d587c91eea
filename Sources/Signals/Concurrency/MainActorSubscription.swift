import Disposables

extension Signal where Value: Sendable {
    /// Subscribes with `@MainActor` closures: each value, the error and completion is delivered
    /// on the main actor, in the order the source sent them.
    ///
    /// Only the callbacks move: the subscription is made from the calling thread, whatever it is,
    /// just as ``subscribe(next:error:completed:file:line:)`` makes it (a created signal's work runs at once
    /// where a scheduler is current, else through `Scheduler.subscription`), and this method
    /// need not be called on the main actor. Contrast `subscribe(on:)`, which moves the
    /// subscription and leaves delivery alone.
    /// Delivery is ``deliverOnMainThread()``'s: an event the source sends on the main thread, with
    /// no earlier event still waiting, is delivered at once; any other goes through the main
    /// queue. Either way the closure runs on the main actor's executor, so it may read and write
    /// main-actor state directly. The main queue must run for events sent off the main thread: in
    /// an app it does; a command-line tool or a server runs the main run loop itself (see
    /// `Scheduler.main`, which also says why, on Linux under `dispatchMain()`, such closures run
    /// on the main queue but not on the main thread). Disposing the returned disposable cancels
    /// the events still waiting: no closure is called after `dispose()` returns on the main
    /// actor.
    ///
    /// The names pair with ``deliverOnMainThread()``: that one moves the events of a signal to the
    /// main thread; this one subscribes where the callbacks are *isolated* to the main actor, so
    /// that Swift 6 code needs no `MainActor.assumeIsolated` of its own.
    ///
    /// ```swift
    /// @MainActor final class ViewModel {
    ///     var title = ""
    ///     func bind(_ titles: Signal<String, Never>) -> Disposable {
    ///         titles.subscribeOnMainActor(next: { [weak self] in self?.title = $0 })
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - next: Called on the main actor with each value.
    ///   - error: Called on the main actor with the error; nothing follows it.
    ///   - completed: Called on the main actor when the signal completes; nothing follows it.
    ///   - file: Where the subscription is made, for ``SignalDiagnostics/liveSubscriptions``
    ///     (which lists it under this signal's name); leave it to its default.
    ///   - line: The line of `file`; leave it to its default.
    /// - Returns: A disposable that ends the subscription and cancels the events not yet delivered.
    ///
    /// RAC 2.5: `[[signal deliverOnMainThread] subscribeNext:error:completed:]`; new in the sense
    /// that RAC 2.5 has no actor isolation to carry.
    @discardableResult
    public func subscribeOnMainActor(
        next: @escaping @MainActor @Sendable (Value) -> Void = { _ in },
        error: @escaping @MainActor @Sendable (Failure) -> Void = { _ in },
        completed: @escaping @MainActor @Sendable () -> Void = {},
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable where Value: Sendable {
        // Tracked as a subscription to this signal, the one the caller named, not to the
        // delivering signal made here.
        let onNext: @Sendable (Value) -> Void = { value in MainActor.assumeIsolated { next(value) } }
        let onError: @Sendable (Failure) -> Void = { failure in MainActor.assumeIsolated { error(failure) } }
        let onCompleted: @Sendable () -> Void = { MainActor.assumeIsolated { completed() } }
        let sink = SubscriptionTracking.mayRecord
            ? ClosureSink(next: onNext, error: onError, completed: onCompleted, subscribedTo: self, file: file, line: line)
            : ClosureSink(next: onNext, error: onError, completed: onCompleted)
        return sink.subscription(returned: deliverOnMainThread().attachSink(sink))
    }

    /// Subscribes with a `@MainActor` closure for values, delivered on the main actor in order.
    ///
    /// The error and completion end the subscription and call nothing. See
    /// ``subscribeOnMainActor(next:error:completed:file:line:)`` for where events are delivered.
    ///
    /// ```swift
    /// titles.subscribeNextOnMainActor { [weak self] in self?.title = $0 }
    /// ```
    ///
    /// - Parameters:
    ///   - next: Called on the main actor with each value.
    ///   - file: Where the subscription is made, for ``SignalDiagnostics/liveSubscriptions``;
    ///     leave it to its default.
    ///   - line: The line of `file`; leave it to its default.
    /// - Returns: A disposable that ends the subscription and cancels the values not yet delivered.
    ///
    /// RAC 2.5: `[[signal deliverOnMainThread] subscribeNext:]`.
    @discardableResult
    public func subscribeNextOnMainActor(
        _ next: @escaping @MainActor @Sendable (Value) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable
    where Value: Sendable {
        subscribeOnMainActor(next: next, file: file, line: line)
    }
}
