import Disposables

/// One awaited answer from a subscription, for `await firstValue()` and `await allValues()`: the
/// values fold into `running` under the lock, and the first of the terminal event, the fold's own
/// decision to stop, and cancellation settles the outcome.
///
/// The continuation is stored only while the outcome is unsettled, and settling takes it out,
/// so it is resumed exactly once; nothing is resumed, disposed or released under the lock.
final class AsyncOutcome<Value, Failure: Error, Output>: @unchecked Sendable {
    typealias Waiter = UnsafeContinuation<Result<Output, Failure>, Never>

    private struct State {
        var running: Output
        var outcome: Result<Output, Failure>?
        var isSettled = false
        var waiter: Waiter?
        var subscription: Disposable?
    }

    private let state: Lock<State>
    /// Folds a value into the running output; `true` settles with it (and disposes).
    let fold: (inout Output, Value) -> Bool

    init(_ start: sending Output, fold: @escaping (inout Output, Value) -> Bool) {
        state = Lock(State(running: start))
        self.fold = fold
    }

    /// Subscribes to `signal` and waits for the outcome; cancellation of the task settles it
    /// with what has been folded so far and disposes the subscription.
    func run(_ signal: Signal<Value, Failure>, isolation actor: isolated (any Actor)?) async -> Result<Output, Failure> {
        let outcome = await withTaskCancellationHandler(operation: {
            // Cancelled already: the handler has settled it; do not subscribe.
            if !state.withLock({ $0.isSettled }), let subscription = signal.attachSink(OutcomeSink(self)) {
                attach(subscription)
            }
            return await withUnsafeContinuation(isolation: actor) { (waiter: Waiter) in
                let ready: Result<Output, Failure>? = state.withLock { state in
                    if let outcome = state.outcome.take() { return outcome }
                    state.waiter = waiter
                    return nil
                }
                if let ready { waiter.resume(returning: ready) }
            }
        }, onCancel: {
            // Runs inside `Task.cancel()`, which holds the task's status lock meanwhile: disposing
            // here could wait for a delivery on another thread that is itself resuming this task,
            // which needs that lock. So only settle here; the task disposes below.
            settle(nil, disposing: false)
        }, isolation: actor)
        state.withLock { $0.subscription.take() }?.dispose()
        return outcome
    }

    func attach(_ upstream: Disposable) {
        let stale: Disposable? = state.withLock { state in
            if state.isSettled { return upstream }
            if state.subscription == nil { state.subscription = upstream }
            return nil
        }
        stale?.dispose()
    }

    func receive(_ value: Value) {
        let (settles, dropped): (Bool, Value?) = state.withLock { state in
            if state.isSettled { return (false, value) }
            return (fold(&state.running, value), nil)
        }
        withExtendedLifetime(dropped) {}
        if settles { settle(nil, disposing: true) }
    }

    /// Settles the outcome with `error`, or with the running output when it is `nil` (on
    /// completion, on cancellation, or when the fold stopped), unless it is settled already;
    /// disposes the subscription if `disposing`, else leaves that to the end of ``run``.
    func settle(_ error: Failure?, disposing: Bool) {
        let (waiter, outcome, subscription): (Waiter?, Result<Output, Failure>?, Disposable?) = state.withLock { state in
            if state.isSettled { return (nil, nil, nil) }
            state.isSettled = true
            let outcome: Result<Output, Failure> = error.map { .failure($0) } ?? .success(state.running)
            let subscription = disposing ? state.subscription.take() : nil
            guard let waiter = state.waiter.take() else {
                state.outcome = outcome
                return (nil, nil, subscription)
            }
            return (waiter, outcome, subscription)
        }
        subscription?.dispose()
        if let waiter, let outcome { waiter.resume(returning: outcome) }
    }
}

/// The sink an ``AsyncOutcome`` subscribes with.
private final class OutcomeSink<Value, Failure: Error, Output>: Sink<Value, Failure>, @unchecked Sendable {
    private let outcome: AsyncOutcome<Value, Failure, Output>

    init(_ outcome: AsyncOutcome<Value, Failure, Output>) {
        self.outcome = outcome
        super.init()
    }

    override func attach(_ upstream: Disposable) {
        outcome.attach(upstream)
    }

    override func receive(_ value: Value) {
        outcome.receive(value)
    }

    override func receive(error: Failure) {
        outcome.settle(error, disposing: true)
    }

    override func receiveCompleted() {
        outcome.settle(nil, disposing: true)
    }
}
