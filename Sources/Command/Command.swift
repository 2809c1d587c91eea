import Disposables
import Schedulers
import Signals
import Subjects

/// An action a user can trigger, such as a button's: each ``execute(_:)`` runs the signal block
/// with its input and shares the signal it returns; the command says whether it is
/// ``executing``, whether it is ``enabled``, and gathers the executions' ``errors``.
///
/// ```swift
/// let login = Command<Credentials, Session, LoginError>(enabled: formIsValid) { credentials in
///     api.logIn(credentials)
/// }
/// login.enabled.subscribe(next: { button.isEnabled = $0 })
/// login.errors.subscribe(next: { errorLabel.text = "\($0)" })
/// login.execute(credentials)
/// ```
///
/// - **Executions.** `execute` checks that the command is enabled and starts the execution in one
///   step, calls the signal block on the calling thread, and subscribes its signal on the main
///   queue, after `executing` and `enabled` have changed there. The execution runs to its end
///   whether or not anyone subscribes to what `execute` returns; nothing can cancel it.
/// - **The main thread.** ``executionSignals``, ``errors`` and every change of ``executing`` and
///   ``enabled`` are delivered on the main queue (with `Scheduler.main` current), so the main
///   queue must run (an app's run loop, `dispatchMain()`, or a command-line tool or a test
///   spinning `RunLoop.main`, as the `asynchronous` blocking forms of `Signal` do while they
///   wait).
/// - **Release.** When the command is released, its four signals complete on the main queue and
///   the caller's enabled signal is disposed; executions still running carry on, for whoever
///   subscribed to them, and keep nothing of the command.
/// - **Threads.** Every member may be used from any thread. Waiting on the main thread for an
///   execution with a blocking form (`first()`, `waitUntilCompleted()`) never returns, since the
///   execution needs the main queue: use the asynchronous forms there, which run it.
/// - **Cycles.** A subscription to the command's signals whose closure captures the command keeps
///   it alive until the subscription is disposed.
///
/// RAC 2.5: `RACCommand`.
public final class Command<Input: Sendable, Output: Sendable, Failure: Error>: @unchecked Sendable {
    /// A signal of the executions' signals, sent on the main thread as each execution starts:
    /// subscribe to each (or `flatten()`, `switchToLatest()`) for the executions' values.
    ///
    /// Hot: a subscriber sees only the executions that start after it subscribed. Each execution's
    /// signal replays everything the execution sent, so subscribing to it late loses nothing; it
    /// completes where the execution fails (the error goes to ``errors``), so `flatten()` of this
    /// signal never fails. Completes on the main thread when the command is released.
    ///
    /// RAC 2.5: `executionSignals`.
    public let executionSignals: Signal<Signal<Output, Never>, Never>

    /// Whether an execution is running: `true` from the start of the first of overlapping
    /// executions to the end of the last.
    ///
    /// Sends its latest value at once to each subscriber (through `Scheduler.subscription`, as
    /// every replay does), then only changes, on the main thread; starts as `false`. The latest
    /// value is the last one sent on the main thread: right after `execute`, before the main
    /// queue has run, it is still `false`. Completes on the main thread when the command is
    /// released.
    ///
    /// RAC 2.5: `executing`.
    public let executing: Signal<Bool, Never>

    /// Whether ``execute(_:)`` would start an execution: the latest value of the enabled signal
    /// given to init (`true` until it sends one), and no execution running unless
    /// ``allowsConcurrentExecution``.
    ///
    /// Sends its latest value at once to each subscriber (through `Scheduler.subscription`),
    /// then only changes, on the main thread. As for ``executing``, the latest value is the last
    /// one sent on the main thread; ``execute(_:)`` itself checks the state as it is. Completes on
    /// the main thread when the command is released.
    ///
    /// RAC 2.5: `enabled`.
    public let enabled: Signal<Bool, Never>

    /// The errors of the executions, sent on the main thread as each fails.
    ///
    /// Hot: a subscriber gets the errors sent after it subscribed, of executions started before
    /// it as well. ``CommandError/notEnabled`` is never sent here. Completes on the main thread
    /// when the command is released.
    ///
    /// RAC 2.5: `errors`. **Departure:** an execution that fails after the command was released
    /// is not reported here (RAC 2.5 keeps `errors` open until such executions end); its own
    /// signal, the one `execute` returned, still fails.
    public let errors: Signal<Failure, Never>

    // `@usableFromInline`, with the execution's path in the module: `execute` is `@inlinable`, so
    // that the client specializes the whole execution for its types, instead of running generic
    // code that looks up the metadata of `CommandState`, `CommandEvent` and their arrays and
    // optionals at every step (`Benchmarks`' `command.execute`). (The tests reach `core` too, for
    // their lifetime checks.)
    @usableFromInline let core: CommandCore<Output, Failure>
    @usableFromInline let signalBlock: @Sendable (Input) -> Signal<Output, Failure>
    /// The subscription to the enabled signal given to init, disposed when the command goes.
    private let enabledSubscription: Disposable?

    /// A command that calls `signalBlock` for each execution.
    ///
    /// - Parameters:
    ///   - enabledSignal: Whether the command may execute, besides the executions running: its
    ///     latest value counts, and `true` until it sends one. It is subscribed once, here, as any
    ///     signal is (a created signal's block runs at once where a scheduler is current, such as
    ///     on the main thread, else on a background scheduler; a subject is joined at once), and
    ///     disposed when the command is released. `nil` (the default) is always `true`. A value
    ///     sent to a subject while another thread is delivering on it counts once it is delivered.
    ///   - signalBlock: Makes an execution's signal from the input given to ``execute(_:)``. Called
    ///     on the thread that executes; the signal is subscribed on the main queue.
    ///
    /// RAC 2.5: `-initWithEnabled:signalBlock:`, `-initWithSignalBlock:`.
    public init(
        enabled enabledSignal: Signal<Bool, Never>? = nil,
        _ signalBlock: @escaping @Sendable (Input) -> Signal<Output, Failure>
    ) {
        let core = CommandCore<Output, Failure>()
        self.core = core
        self.signalBlock = signalBlock
        executionSignals = Self.executionSignals(of: core)
        executing = Self.view(of: core.executingSubject)
        enabled = Self.view(of: core.enabledSubject)
        errors = Self.view(of: core.errorsSubject)
        enabledSubscription = enabledSignal?.subscribe(next: { [weak core] value in core?.setEnabledInput(value) })
        core.publishInitialEnabled()
    }

    deinit {
        enabledSubscription?.dispose()
        // A deinit never waits: what the subscribers' callbacks owe a subject's bound is forgiven.
        DeliveryContext.neverWaiting { core.finish() }
    }

    /// Whether executions may overlap; `false` by default, so that the command is not enabled
    /// while an execution runs. Changing it updates ``enabled``.
    ///
    /// RAC 2.5: `allowsConcurrentExecution`.
    public var allowsConcurrentExecution: Bool {
        get { core.allowsConcurrentExecution }
        set { core.setAllowsConcurrentExecution(newValue) }
    }

    /// Executes the command with `input`, if it is enabled.
    ///
    /// Checking that the command is enabled and starting the execution are one atomic step: of
    /// many threads executing a command that disallows concurrent execution at once, one starts
    /// it and the others fail. Then `signalBlock(input)` runs on the calling thread; its signal is
    /// subscribed once, on the main queue, after ``executing`` and ``enabled`` have changed
    /// there, and shared through a replay subject, which ``executionSignals`` sends too. The work
    /// starts whether or not the result is subscribed, and runs to its end.
    ///
    /// - Returns: The execution's signal, which replays every value it sent to each subscriber,
    ///   then completes or fails with ``CommandError/failed(_:)`` as the execution does; or, when
    ///   the command is not enabled, a signal that fails with ``CommandError/notEnabled`` at once,
    ///   without calling the signal block.
    ///
    /// RAC 2.5: `-execute:`. **Departure:** RAC 2.5 reads `enabled` and then starts the execution,
    /// so two threads may both start a command that disallows concurrent execution.
    @inlinable @discardableResult
    public func execute(_ input: Input) -> Signal<Output, CommandError<Failure>> {
        guard let index = core.begin() else { return .error(.notEnabled) }
        let execution = CommandExecution(core: core)
        core.start(index, signalBlock(input), execution)
        return execution.results.mapError { .failed($0) }
    }

    /// `executionSignals`: the signals of the executions started since subscribing.
    private static func executionSignals(of core: CommandCore<Output, Failure>) -> Signal<Signal<Output, Never>, Never> {
        let executions = core.executionSubject
        return Signal(producer: { [weak core] sink in
            // Executions numbered from here on start after this subscription: those before it
            // may still be on their way to the main thread, and are left out.
            let first = core?.startedCount ?? .max
            return executions.filter { $0.index >= first }.map { $0.signal }.attachSink(sink)
        })
    }

    /// `subject` as a plain signal, so that no one can send to it.
    private static func view<Value>(of subject: Subject<Value, Never>) -> Signal<Value, Never> {
        Signal(producer: { sink in subject.attachSink(sink) })
    }
}
