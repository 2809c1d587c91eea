import Disposables

/// The shared core of one ``SignalValues`` iterator: the sink the signal sends to and the `next`
/// the loop calls, around one lock and a ``ValuesStateMachine``.
///
/// `next` takes a buffered value under the lock without suspending; only when the buffer is
/// empty does it suspend, on an `UnsafeContinuation` that the state machine hands out exactly
/// once (to the value or terminal event that comes, or to cancellation), so no continuation is
/// resumed twice nor left waiting once the subscription ends or the task is cancelled. Nothing is
/// resumed, disposed or released under the lock. The cancellation handler only resumes the
/// waiting task; that task disposes the subscription as it returns (see `wait`).
///
/// `next` and `receive` are `@inlinable`, and the sink calls `receive` through a closure made in
/// the same specialized code, so that for a client's concrete types a value's way from the signal
/// to the loop looks up no generic metadata.
@usableFromInline
final class ValuesChannel<Value, Failure: Error>: @unchecked Sendable {
    @usableFromInline typealias Waiter = UnsafeContinuation<Result<Value?, Failure>, Never>

    @usableFromInline let state: Lock<ValuesStateMachine<Value, Failure, Waiter>>
    @usableFromInline let signal: Signal<Value, Failure>

    @usableFromInline
    init(_ signal: Signal<Value, Failure>, policy: SignalValues<Value, Failure>.BufferingPolicy) {
        self.signal = signal
        state = Lock(ValuesStateMachine(policy: policy))
    }

    // MARK: The consuming side

    @inlinable
    func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Value? {
        if Task.isCancelled {
            cancel()
            return nil
        }
        while true {
            switch state.withLock({ $0.next() }) {
            case let .deliver(result):
                return try result.get()
            case .subscribe:
                subscribe()
            case .wait:
                let result = await wait(isolation: actor)
                // `nil` after waiting: the end, or cancellation, whose handler only resumed us.
                if case .success(nil) = result { cancel() }
                return try result.get()
            }
        }
    }

    @inlinable
    func wait(isolation actor: isolated (any Actor)?) async -> Result<Value?, Failure> {
        await withTaskCancellationHandler(operation: {
            await withUnsafeContinuation(isolation: actor) { (waiter: Waiter) in
                if let ready = state.withLock({ $0.suspend(waiter) }) {
                    waiter.resume(returning: ready)
                }
            }
        }, onCancel: {
            // Runs inside `Task.cancel()`, which holds the task's status lock meanwhile: disposing
            // here could wait for a delivery on another thread that is itself resuming this task,
            // which needs that lock. So only resume here; the task disposes when it runs again.
            state.withLock { $0.cancelWaiter() }?.resume(returning: .success(nil))
        }, isolation: actor)
    }

    @inlinable
    func subscribe() {
        let sink = ValuesSink(self) { [self] value in receive(value) }
        if let subscription = signal.attachSink(sink) {
            attach(subscription)
        }
    }

    /// Ends the iteration: disposes the subscription, resumes a suspended `next` with `nil` and
    /// lets go of the buffered values. Called on task cancellation and when the iterator goes.
    @usableFromInline
    func cancel() {
        let cancellation = state.withLock { $0.cancel() }
        cancellation.subscription?.dispose()
        cancellation.waiter?.resume(returning: .success(nil))
        withExtendedLifetime(cancellation.dropped) {}
    }

    // MARK: The signal's side

    @usableFromInline
    func attach(_ upstream: Disposable) {
        state.withLock { $0.attach(upstream) }?.dispose()
    }

    @inlinable
    func receive(_ value: Value) {
        let (waiter, value) = state.withLock { $0.receive(value) }
        if let waiter, let value {
            // Invariant: the value goes to the consuming task and is kept nowhere else. Values
            // cross threads in every signal: the library does not ask them to be `Sendable`
            // (see `Signal`), and the region checker cannot see that this one is handed over.
            nonisolated(unsafe) let delivered = Result<Value?, Failure>.success(value)
            waiter.resume(returning: delivered)
        }
    }

    @usableFromInline
    func receive(end: Result<Void, Failure>) {
        let (waiter, subscription) = state.withLock { $0.receive(end: end) }
        withExtendedLifetime(subscription) {}
        guard let waiter else { return }
        switch end {
        case .success: waiter.resume(returning: .success(nil))
        case let .failure(error): waiter.resume(returning: .failure(error))
        }
    }
}

/// The sink a ``ValuesChannel`` subscribes with: values go to `onValue`, made by the channel
/// in code specialized for its types (and handed out as the sink's value handler).
@usableFromInline
final class ValuesSink<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private let channel: ValuesChannel<Value, Failure>
    private let onValue: (Value) -> Void

    @usableFromInline
    init(_ channel: ValuesChannel<Value, Failure>, onValue: @escaping (Value) -> Void) {
        self.channel = channel
        self.onValue = onValue
        super.init()
    }

    override func attach(_ upstream: Disposable) {
        channel.attach(upstream)
    }

    override func receive(_ value: Value) {
        onValue(value)
    }

    override func valueHandler() -> ((Value) -> Void)? {
        onValue
    }

    override func receive(error: Failure) {
        channel.receive(end: .failure(error))
    }

    override func receiveCompleted() {
        channel.receive(end: .success(()))
    }
}

/// Keeps a ``ValuesChannel`` for one iterator, and ends the iteration when the iterator goes
/// (a `break` out of the loop): the channel itself is also held by its subscription's sink.
@usableFromInline
final class ValuesIteration<Value, Failure: Error>: Sendable {
    @usableFromInline let channel: ValuesChannel<Value, Failure>

    @usableFromInline
    init(_ channel: ValuesChannel<Value, Failure>) {
        self.channel = channel
    }

    deinit {
        channel.cancel()
    }
}
