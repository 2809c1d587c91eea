import Disposables

// Signals made from async work. Each subscription starts the work in a new unstructured `Task`
// (on the global executor, at the subscribing context's priority); disposing the subscription
// cancels that task, and the task's end completes or fails the signal. Nothing is sent after
// disposal, even by work that ignores cancellation and goes on.

extension Signal where Value: Sendable {
    /// A signal that sends the elements of `sequence`, then completes when it ends, or fails with
    /// the error it throws.
    ///
    /// Each subscription iterates the sequence afresh, in a task of its own; disposing the
    /// subscription cancels that task. An `AsyncStream` gives a `Signal<Element, Never>`; a
    /// sequence that throws `any Error`, such as `AsyncThrowingStream`, a
    /// `Signal<Element, any Error>`.
    ///
    /// ```swift
    /// let ticks = Signal(AsyncStream { continuation in
    ///     for tick in 1...3 { continuation.yield(tick) }
    ///     continuation.finish()
    /// })
    /// ticks.subscribe(next: { print($0) })   // prints 1, 2, 3 from a task, then completes
    /// ```
    ///
    /// - Parameter sequence: The values to send; its iterator is used only inside the task.
    ///
    /// New; RAC 2.5 has none.
    public convenience init<Source: AsyncSequence & Sendable>(_ sequence: Source)
    where Source.Element == Value, Source.Failure == Failure {
        self.init(emitting: { send throws(Failure) in
            var iterator = sequence.makeAsyncIterator()
            while let value = try await iterator.next(isolation: nil) {
                send(value)
            }
        })
    }

    /// A signal that runs `operation` for each subscription and sends its result, then
    /// completes; or fails with the error it throws.
    ///
    /// The operation runs in a task of its own; disposing the subscription cancels that task,
    /// and then nothing is sent, whatever the operation returns.
    ///
    /// ```swift
    /// let user = Signal { () async throws(LoadError) -> User in try await load(id) }
    /// ```
    ///
    /// - Parameter operation: The work; it starts when the signal is subscribed.
    ///
    /// New; RAC 2.5 has none (its nearest is `+startLazilyWithScheduler:block:`).
    public convenience init(_ operation: @escaping @Sendable () async throws(Failure) -> Value) {
        self.init(emitting: { send throws(Failure) in
            send(try await operation())
        })
    }

    /// A signal that runs `body` for each subscription, sending each value `body` passes to
    /// `send`; it completes when `body` returns and fails with the error `body` throws.
    ///
    /// `body` runs in a task of its own; disposing the subscription cancels that task, and then
    /// nothing more is sent, even if `body` goes on calling `send`. `send` may be called from
    /// any thread (it serializes the values as a ``Subscriber`` does), but only until `body`
    /// returns: what it sends later is dropped.
    ///
    /// ```swift
    /// let pages = Signal<Page, any Error>(emitting: { send in
    ///     var cursor: Cursor? = .start
    ///     while let next = cursor {
    ///         let page = try await fetch(next)
    ///         send(page)
    ///         cursor = page.next
    ///     }
    /// })
    /// ```
    ///
    /// - Parameter body: The work; it starts when the signal is subscribed.
    ///
    /// New; RAC 2.5 has none.
    public convenience init(
        emitting body: @escaping @Sendable (_ send: @escaping @Sendable (Value) -> Void) async throws(Failure) -> Void
    ) {
        // Not a created signal: one would run this block on the background subscription scheduler
        // when subscribed from a task (no scheduler is current there), and the `Task` made there
        // would take that thread's priority (and no task-local values) instead of the
        // subscriber's. Starting a task needs no scheduler: it is made in the subscribing context.
        self.init(producer: { downstream in
            let subscriber = Subscriber(downstream)
            downstream.attach(subscriber.disposable)
            let task = Task {
                // Disposed before the task started: do not start the work at all.
                if subscriber.isDisposed { return }
                do throws(Failure) {
                    try await body { value in subscriber.sendNext(value) }
                    subscriber.sendCompleted()
                } catch {
                    subscriber.sendError(error)
                }
            }
            subscriber.disposable.add(Disposable { task.cancel() })
            return subscriber.disposable
        })
    }
}
