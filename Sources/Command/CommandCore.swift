import Dispatch
import Disposables
import Schedulers
import Signals
import Subjects

/// An execution's signal on `executionSignals`, with its number, so that each subscriber sees only
/// the executions that started after it subscribed.
@usableFromInline
struct StartedExecution<Output>: Sendable {
    @usableFromInline let index: UInt64
    @usableFromInline let signal: Signal<Output, Never>

    @inlinable
    init(index: UInt64, signal: Signal<Output, Never>) {
        self.index = index
        self.signal = signal
    }
}

/// What a command shares with its signals and executions: the state, the hot subjects behind
/// `executionSignals`, `executing`, `enabled` and `errors`, and their delivery on the main queue.
///
/// The command holds it; the signals it gives out and the executions still running hold only the
/// subjects they need, or the core weakly. It lives on, once the command is released, only until
/// the main queue has sent the last events and completed every subject.
///
/// Every event for those signals goes through ``CommandState/pending`` and is sent by one block on
/// the main queue at a time (`drain()`), outside the lock, in the order it was queued: so changes
/// made on any thread reach the main thread in the order they were made, with one main-queue hop
/// for up to ``drainBudget`` events waiting (then the block yields to other main-queue work).
///
/// The path of an execution is `@usableFromInline` and `@inlinable`, so that a command's client
/// specializes it for its types (see ``Command``).
@usableFromInline
final class CommandCore<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline let state = Lock(CommandState<Output, Failure>())

    @usableFromInline let executionSubject = Subject<StartedExecution<Output>, Never>()
    @usableFromInline let executingSubject = ReplaySubject<Bool, Never>(capacity: 1)
    @usableFromInline let enabledSubject = ReplaySubject<Bool, Never>(capacity: 1)
    @usableFromInline let errorsSubject = Subject<Failure, Never>()
    /// `DispatchQueue.main`, looked up once: on Linux, each lookup makes a new wrapper object.
    @usableFromInline let mainQueue = DispatchQueue.main
    /// What an execution's signal on `executionSignals` continues with where the execution fails;
    /// made once, as it holds nothing.
    @usableFromInline let completion = Signal<Output, Never>.empty

    /// How many events one main-queue block sends at most before it lets other main-queue work
    /// run and queues another for the rest (events that executions add while it runs included).
    @inlinable
    static var drainBudget: Int { 1_024 }

    /// Events taken from ``CommandState/pending`` that the last main-queue block had no budget
    /// left to send: the next block sends them first, before it takes more. Touched only by the
    /// block that drains (one at a time: ``CommandState/isDraining``), on the main thread.
    @usableFromInline var carried: ArraySlice<CommandEvent<Output, Failure>> = []

    init() {
        executingSubject.sendNext(false)
    }

    /// Sends `enabled`'s first value, from the state as it is now.
    ///
    /// Sent under the lock, so that no change queued by another thread (the caller's enabled
    /// signal may send anywhere) can reach the subject before it. No user code runs: `enabled` is
    /// not given out before the command's init returns, so the subject has no subscriber yet.
    func publishInitialEnabled() {
        state.withLock { state in
            enabledSubject.sendNext(state.publishInitialEnabled())
        }
    }

    /// How many executions have started so far.
    var startedCount: UInt64 {
        state.withLock { $0.started }
    }

    var allowsConcurrentExecution: Bool {
        state.withLock { $0.allowsConcurrentExecution }
    }

    func setAllowsConcurrentExecution(_ value: Bool) {
        update { $0.setAllowsConcurrentExecution(value) }
    }

    func setEnabledInput(_ value: Bool) {
        update { $0.setEnabledInput(value) }
    }

    /// Starts an execution if the command is enabled, in one step with the check.
    ///
    /// - Returns: The execution's index, or `nil` when the command is not enabled.
    @inlinable
    func begin() -> UInt64? {
        update { $0.begin() }
    }

    /// Queues execution `index` for `executionSignals` and its subscription, on the main queue.
    @inlinable
    func start(_ index: UInt64, _ source: Signal<Output, Failure>, _ execution: CommandExecution<Output, Failure>) {
        let started = StartedExecution(index: index, signal: execution.results.catch(to: completion))
        update { state in
            state.queue(.started(started))
            state.queue(.subscribe(source, execution))
        }
    }

    /// An execution ended, with `error` if it failed.
    @inlinable
    func end(failing error: Failure?) {
        update { $0.end(failing: error) }
    }

    /// The command was released: every signal completes on the main queue, after the events
    /// queued before.
    func finish() {
        update { $0.finish() }
    }

    /// Changes the state with `change`, then queues a main-queue block if the change queued the
    /// first events for the main thread since the last block finished.
    @inlinable
    func update<Result>(_ change: (inout CommandState<Output, Failure>) -> Result) -> Result {
        var mustDrain = false
        let result = state.withLock { state in
            let result = change(&state)
            mustDrain = state.claimDrain()
            return result
        }
        if mustDrain { scheduleDrain() }
        return result
    }

    @inlinable
    func scheduleDrain() {
        mainQueue.async { self.drain() }
    }

    /// Sends the pending events on the main thread, with ``Scheduler/main`` as the current
    /// scheduler (an execution is subscribed here), until there are none or the budget is spent.
    ///
    /// The budget counts events, not batches: a batch taken from the state may hold far more than
    /// the budget (100,000 executions started before the main queue runs), and what is left of it
    /// waits in ``carried`` for the next block, ahead of anything queued since.
    @inlinable
    func drain() {
        Scheduler.main.performAsCurrentScheduler {
            var budget = Self.drainBudget
            while budget > 0 {
                if carried.isEmpty {
                    guard let events = state.withLock({ $0.takePending() }) else { return }
                    carried = events[...]
                }
                while budget > 0, let event = carried.popFirst() {
                    send(event)
                    budget -= 1
                }
            }
            // Still draining, in the state: the next block sends what is carried, then what is
            // pending.
            scheduleDrain()
        }
    }

    @inlinable
    func send(_ event: CommandEvent<Output, Failure>) {
        switch event {
        case let .executing(value):
            executingSubject.sendNext(value)
        case let .enabled(value):
            enabledSubject.sendNext(value)
        case let .started(execution):
            executionSubject.sendNext(execution)
        case let .subscribe(source, execution):
            execution.start(source)
        case let .failed(error):
            errorsSubject.sendNext(error)
        case .finished:
            executionSubject.sendCompleted()
            executingSubject.sendCompleted()
            enabledSubject.sendCompleted()
            errorsSubject.sendCompleted()
        }
    }
}

/// One execution's subscriber: it passes the events of the execution's signal on to `results`,
/// the replay subject that `execute` returned and `executionSignals` sent, and tells the command
/// when the execution ends, before its subscribers hear of it (so a subscriber may execute the
/// command again from its completion).
///
/// Subscribed with closures that capture only it (so they need no context of their own): the
/// execution is never cancelled (nothing disposes it, as in RAC 2.5), so it needs no disposable
/// kept, and no subscriber object.
@usableFromInline
final class CommandExecution<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline let results: ReplaySubject<Output, Failure>
    /// Tells the command's core that the execution ended, with its error if it failed; it holds
    /// the core weakly, so an execution still running when the command is released does not keep
    /// it.
    ///
    /// A closure made where `init` is inlined, in the client's code specialized for its types:
    /// the execution's signal calls this class in code that is not specialized, and the core's
    /// `end` would be neither if called from here.
    @usableFromInline let ended: @Sendable (Failure?) -> Void

    @inlinable
    init(core: CommandCore<Output, Failure>) {
        results = ReplaySubject()
        ended = { [weak core] error in core?.end(failing: error) }
    }

    /// Subscribes to `source`: the execution's work starts.
    @inlinable
    func start(_ source: Signal<Output, Failure>) {
        // Never disposed: the execution runs to its end.
        source.subscribe(
            next: { [self] value in receive(value) },
            error: { [self] error in receive(error: error) },
            completed: { [self] in receiveCompleted() }
        )
    }

    @usableFromInline
    func receive(_ value: Output) {
        results.sendNext(value)
    }

    @usableFromInline
    func receive(error: Failure) {
        ended(error)
        results.sendError(error)
    }

    @usableFromInline
    func receiveCompleted() {
        ended(nil)
        results.sendCompleted()
    }
}
