import Disposables
import Foundation
import Signals
import Synchronization

/// The blocking modes of the thread matrix for the async bridges' consuming side: a task runs a
/// `for await` loop over a signal's values, the loop's body blocks until the disposing thread's
/// `Task.cancel()` has returned, and that cancellation is the disposal (from another thread
/// (d1); from the main thread, directly or in a tap's callback, while the body is in
/// `DispatchQueue.main.sync` (d2); inside the callback of another, unrelated subscription (d3);
/// by letting go of the last reference to a `ScopedDisposable` of the cancellation, or of an
/// owner holding one (d4)).
///
/// Each round checks that `cancel()` returned while the body was blocked, that no body started
/// after it returned, that the loop ended once the body returned, that the values are the
/// source's up to the blocked one, that the subscription the loop made let go of what it held
/// while the source was still held, and that everything was freed once let go of.
///
/// ```swift
/// let rows = [AsyncLoopRow("values") { signal, body, _ in
///     do { for try await value in signal.values { body(value) } } catch {}
/// }]
/// for failure in AsyncLoopMatrix.failures(of: rows) { XCTFail(failure) }
/// ```
public enum AsyncLoopMatrix {
    /// Runs every cell of `rows` and returns a description of each failure, at most one per
    /// cell (a cell stops at its first failing round). Call it on the main thread.
    public static func failures(
        of rows: [AsyncLoopRow],
        rounds: Int = ThreadMatrix.blockingRounds,
        tasks: [AsyncLoopTask] = AsyncLoopTask.allCases,
        sources: [MatrixSource] = MatrixSource.allCases,
        modes: [MatrixMode] = MatrixMode.selected.filter(\.isBlocking)
    ) -> [String] {
        precondition(Thread.isMainThread, "the async loop matrix runs on the main thread")
        let timing = ProcessInfo.processInfo.environment["THREAD_MATRIX_TIMES"] != nil
        var failures: [String] = []
        for row in rows {
            let live = SignalDiagnostics.liveSubscriptionCount
            for task in tasks {
                for source in sources {
                    for mode in modes {
                        let start = Date()
                        for round in 0..<rounds {
                            let cell = AsyncLoopCell(task: task, source: source, mode: mode, round: round)
                            if let failure = AsyncLoopRound(row, cell).run() {
                                failures.append("\(row.name) | \(cell): \(failure)")
                                break
                            }
                        }
                        if timing {
                            print("async loop matrix: \(row.name) | \(task), \(source), \(mode): \(Int(Date().timeIntervalSince(start) * 1_000)) ms")
                        }
                    }
                }
            }
            MatrixNotApplicable.report("async loop matrix", row: row.name, printing: timing)
            if let leak = LiveSubscriptions.leak(since: live, by: "async loop matrix row \(row.name)") { failures.append(leak) }
        }
        return failures
    }
}

/// A loop over a signal's values, run in a task.
public struct AsyncLoopRow: Sendable {
    public typealias Loop = @Sendable (
        Signal<Int, TestError>,
        _ body: @escaping @Sendable (Int) -> Void,
        _ isolation: isolated (any Actor)?
    ) async -> Void

    public let name: String
    /// Whether the loop gets every value the source sends (an unbounded buffer): then the round
    /// blocks a later body too, and expects the exact values.
    let getsEveryValue: Bool
    let loop: Loop

    /// - Parameters:
    ///   - getsEveryValue: Whether the loop sees every value the source sends (`false` for a
    ///     buffer that drops some).
    ///   - loop: Runs the loop over the signal (the source, sending 1, 2, 3), calling `body` with
    ///     each value in the loop's body; returns when the loop ends. It runs on the actor it is
    ///     given (the main actor, in a main-actor task).
    public init(_ name: String, getsEveryValue: Bool = true, _ loop: @escaping Loop) {
        self.name = name
        self.getsEveryValue = getsEveryValue
        self.loop = loop
    }
}

/// The task the loop runs in.
public enum AsyncLoopTask: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `Task.detached`: the body runs on the cooperative pool.
    case detached = "a detached task"
    /// `Task { @MainActor in … }`: the body runs on the main thread (so (d2) does not apply).
    case mainActor = "a main-actor task"

    public var description: String { rawValue }
}

/// One round of one async loop row.
public struct AsyncLoopCell: Sendable, CustomStringConvertible {
    public let task: AsyncLoopTask
    public let source: MatrixSource
    public let mode: MatrixMode
    public let round: Int

    /// Whether the body that blocks is a later value's (rounds 4-7 of every 8) than the first's.
    var blocksALaterValue: Bool { round / 4 % 2 == 1 }

    /// Whether the round takes its mode's variant: in (d2), the main thread cancels inside the
    /// callback of another subscription that it delivers; in (d3), the other subscription's
    /// callback is reached through an operator; in (d4), the last reference let go of is an
    /// owner's.
    var takesTheVariant: Bool { round / 2 % 2 == 1 }

    public var description: String {
        var variant = blocksALaterValue ? "a later value's body blocked" : "the first value's body blocked"
        if mode == .blockedDisposedFromTheMainThread, takesTheVariant {
            variant += ", inside another subscription's callback"
        }
        if mode == .blockedDisposedInsideAnotherCallback {
            variant += takesTheVariant ? ", the other through map" : ", the other a pipe"
        }
        if mode == .blockedLastReferenceReleased {
            variant += takesTheVariant ? ", an owner's" : ", the ScopedDisposable's own"
        }
        return "\(task), \(source), \(modeDescription), round \(round) (\(variant))"
    }

    private var modeDescription: String {
        switch mode {
        case .blockedDisposedFromAnotherThread: "(d1) blocked loop body, task cancelled from another thread"
        case .blockedDisposedFromTheMainThread: "(d2) loop body in DispatchQueue.main.sync, task cancelled from the main thread"
        case .blockedDisposedInsideAnotherCallback: "(d3) blocked loop body, task cancelled inside another subscription's callback"
        case .blockedLastReferenceReleased: "(d4) blocked loop body, last reference to a ScopedDisposable of the cancellation released"
        default: mode.rawValue
        }
    }
}

/// One round: makes the source, starts the loop's task, cancels it the cell's way while the
/// body blocks, then checks.
final class AsyncLoopRound: @unchecked Sendable {
    private let row: AsyncLoopRow
    private let cell: AsyncLoopCell
    private let blocker: MatrixBlocker
    private let blockedIndex: Int
    private let held = Lock(Held())
    private let seen = LoopValues()
    private let cancelReturned = MatrixFlag()
    private let loopEnded = MatrixPending()
    private let subscribed = MatrixFlag()
    private let tracked = Lock<[(name: String, isAlive: @Sendable () -> Bool)]>([])
    /// What each subscription of the hot source holds.
    private let subscriptionHolds = Recorder<WeakReference<LifetimeToken>>()

    private struct Held {
        var source: Signal<Int, TestError>?
        var input: Subscriber<Int, TestError>?
        var task: Task<Void, Never>?
        var scoped: (AnyObject & Sendable)?
    }

    init(_ row: AsyncLoopRow, _ cell: AsyncLoopCell) {
        self.row = row
        self.cell = cell
        blockedIndex = cell.blocksALaterValue && row.getsEveryValue ? (cell.source == .synchronous ? 2 : 1) : 0
        blocker = MatrixBlocker(mode: cell.mode, blocking: blockedIndex, disposal: "cancel()", blocked: "loop body")
    }

    func run() -> String? {
        makeSource()
        startTheLoop()
        if cell.source == .hot {
            // The loop subscribes at its first `next()`; then a plain thread sends.
            guard MatrixWait.until({ subscribed.isSet }, limit: MatrixWait.blockLimit) else {
                return abandon("the loop never subscribed to the hot source")
            }
            let input = held.withLock { $0.input }
            MatrixThreads.subscriber.async {
                for value in ThreadMatrix.sourceValues { input?.sendNext(value) }
            }
        }
        let failure = cell.mode == .blockedDisposedFromTheMainThread ? cancelFromTheMainThread() : cancelFromAWorker()
        if let failure { return failure }
        return finish()
    }

    // MARK: Steps

    private func makeSource() {
        switch cell.source {
        case .synchronous:
            let (signal, token) = trackingLifetime { token in
                Signal<Int, TestError> { subscriber in
                    withExtendedLifetime(token) {}
                    for value in ThreadMatrix.sourceValues { subscriber.sendNext(value) }
                    subscriber.sendCompleted()
                    return nil
                }
            }
            track("the source's create block", token)
            held.withLock { $0.source = signal }
        case .hot:
            let (pipe, input) = Signal<Int, TestError>.pipe()
            track("the pipe", WeakReference(pipe))
            track("the pipe's input", WeakReference(input))
            // Each subscription holds a token of its own while it lasts, and says it is live.
            let signal = Signal<Int, TestError> { [subscribed, subscriptionHolds] subscriber in
                let token = LifetimeToken()
                subscriptionHolds.record(WeakReference(token))
                let subscription = pipe.subscribe(
                    next: { value in withExtendedLifetime(token) { subscriber.sendNext(value) } },
                    error: { subscriber.sendError($0) },
                    completed: { subscriber.sendCompleted() }
                )
                subscribed.set()
                return subscription
            }
            track("the signal over the pipe", WeakReference(signal))
            held.withLock {
                $0.source = signal
                $0.input = input
            }
        }
    }

    private func startTheLoop() {
        let (body, bodyToken) = trackingLifetime { [blocker, blockedIndex, seen, cancelReturned] token in
            { @Sendable (value: Int) in
                withExtendedLifetime(token) {}
                let index = seen.record(value, late: cancelReturned.isSet)
                if index == blockedIndex { blocker.blockCallback(insideSubscribe: false) }
            }
        }
        track("the loop body's captures", bodyToken)
        let loop = row.loop
        let ended = loopEnded
        let (scoping, owned, taskKind) = (cell.mode == .blockedLastReferenceReleased, cell.takesTheVariant, cell.task)
        // The task starts inside the lock through which the disposing thread takes it (or the
        // `ScopedDisposable` of its cancellation): its body may block before this thread has
        // returned from here, and the disposer then finds them stored, and the release of the
        // `ScopedDisposable` the last (no local of this thread's still holds it).
        held.withLock { held in
            let signal = held.source!
            let task: Task<Void, Never> = switch taskKind {
            case .detached:
                Task.detached {
                    await loop(signal, body, nil)
                    ended.finish()
                }
            case .mainActor:
                Task { @MainActor in
                    await loop(signal, body, MainActor.shared)
                    ended.finish()
                }
            }
            held.task = task
            if scoping {
                let cancellation = Disposable { task.cancel() }
                let scoped: AnyObject & Sendable = owned ? SubscriptionHolder.Owner(cancellation) : cancellation.asScoped()
                track(owned ? "the owner of the ScopedDisposable" : "the ScopedDisposable", WeakReference(scoped))
                held.scoped = scoped
            }
        }
    }

    /// (d1), (d3), (d4): the matrix's disposing worker cancels.
    private func cancelFromAWorker() -> String? {
        let mode = cell.mode
        let throughAnOperator = cell.takesTheVariant
        let done = MatrixPending()
        let worker = MatrixThreads.disposer
        worker.async { [self] in
            defer { done.finish() }
            var other: (subscription: Disposable, input: Subscriber<Void, Never>)?
            if mode == .blockedDisposedInsideAnotherCallback {
                let (trigger, input) = Signal<Void, Never>.pipe()
                let signal = throughAnOperator ? trigger.map { $0 } : trigger
                other = (signal.subscribe(next: { [self] in cancelTheLoop() }), input)
            }
            defer { other?.subscription.dispose() }
            guard blocker.waitForEntry() == .blocked else { return }
            if let other {
                other.input.sendNext(())
            } else {
                cancelTheLoop()
            }
        }
        // Meanwhile the main thread runs its queue: a main-actor task's body runs there.
        guard done.wait(limit: 2 * MatrixWait.blockLimit) else {
            MatrixThreads.replace(worker)
            return abandon("cancelling the task did not return within \(Int(2 * MatrixWait.blockLimit)) s, though the blocked loop body gave up waiting after \(Int(MatrixWait.blockLimit)) s")
        }
        return nil
    }

    /// (d2): the main thread cancels while the body does `DispatchQueue.main.sync {}`.
    private func cancelFromTheMainThread() -> String? {
        _ = MatrixWait.until({ blocker.entry != nil }, limit: MatrixWait.blockLimit)
        guard blocker.entry == .blocked else { return nil }
        // In the variant, the cancellation comes from a "Cancel" tap: the callback of another
        // subscription, which the main thread delivers.
        let (taps, tapInput) = Signal<Void, Never>.pipe()
        let tapSubscription = taps.subscribe(next: { [self] in cancelTheLoop() })
        defer { tapSubscription.dispose() }
        blocker.parkTheMainThread()
        let watchdog = Watchdog(
            seconds: 6 * MatrixWait.blockLimit,
            "async loop matrix: \(cell): Task.cancel() on the main thread while the loop body waits in DispatchQueue.main.sync"
        )
        if cell.takesTheVariant {
            tapInput.sendNext(())
        } else {
            cancelTheLoop()
        }
        watchdog.cancel()
        return nil
    }

    /// Cancels the loop's task, the cell's way, then lets the body go on.
    private func cancelTheLoop() {
        if cell.mode == .blockedLastReferenceReleased {
            var last = held.withLock { $0.scoped.take() }
            last = nil
            withExtendedLifetime(last) {}
        } else {
            held.withLock { $0.task }?.cancel()
        }
        cancelReturned.set()
        blocker.release()
    }

    /// Lets the body go on and the loop end, after a failure found before the checks.
    private func abandon(_ failure: String) -> String {
        blocker.abandon()
        held.withLock { $0.task }?.cancel()
        _ = loopEnded.wait(limit: MatrixWait.blockLimit)
        return failure
    }

    // MARK: Checks

    private func finish() -> String? {
        var problems: [String] = []
        let entry = blocker.entry
        if entry == nil {
            problems.append("no loop body came to block within \(Int(MatrixWait.blockLimit)) s (got \(seen.values))")
            blocker.abandon()
        }
        if !cancelReturned.isSet {
            // Not applicable (or it went wrong): end the loop here.
            held.withLock { $0.task }?.cancel()
            _ = held.withLock { $0.scoped.take() }
            cancelReturned.set()
        }
        // The main thread runs its queue meanwhile: the blocked body's `DispatchQueue.main.sync`
        // block, a main-actor loop.
        if !loopEnded.wait(limit: MatrixWait.blockLimit) {
            problems.append("the loop had not ended \(Int(MatrixWait.blockLimit)) s after its task was cancelled and the blocked body released")
            blocker.abandon()
        }
        problems += blocker.problems
        if case let .notApplicable(reason) = entry {
            MatrixNotApplicable.record(cell.mode, reason)
        } else if entry == .blocked {
            MatrixNotApplicable.record(cell.mode, nil)
        }
        let holds = subscriptionHolds.values
        if !MatrixWait.until({ !holds.contains { $0.isAlive } }, limit: MatrixWait.limit) {
            problems.append("the loop's subscription still held what it captured \(Int(MatrixWait.limit)) s after the loop ended (the source still held)")
        }
        held.withLock { $0 = Held() }
        let tracked = tracked.withLock { $0 }
        if !MatrixWait.until({ !tracked.contains { $0.isAlive() } }, limit: MatrixWait.limit) {
            let alive = tracked.filter { $0.isAlive() }.map(\.name)
            problems.append("still alive \(Int(MatrixWait.limit)) s after the round was let go of: \(alive.joined(separator: ", "))")
        }
        let (values, late) = (seen.values, seen.late)
        if entry == .blocked {
            if !late.isEmpty {
                problems.append("the loop body started with \(late) after cancel() returned, while the body before it was blocked until it had")
            }
            if row.getsEveryValue {
                let expected = Array(ThreadMatrix.sourceValues.prefix(blockedIndex + 1))
                if values != expected {
                    problems.append("the loop got \(values), expected \(expected), the last of them blocked until cancel() returned")
                }
            } else if values.count != 1 || !ThreadMatrix.sourceValues.contains(values[0]) {
                problems.append("the loop got \(values), expected one of \(ThreadMatrix.sourceValues), blocked until cancel() returned")
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    private func track(_ name: String, _ reference: WeakReference<some AnyObject>) {
        tracked.withLock { $0.append((name, { reference.isAlive })) }
    }
}

/// The values a loop's bodies got, and those that started after `cancel()` returned.
private final class LoopValues: Sendable {
    private let state = Lock<(values: [Int], late: [Int])>(([], []))

    var values: [Int] { state.withLock { $0.values } }
    var late: [Int] { state.withLock { $0.late } }

    /// A body starts with `value`; returns its index.
    func record(_ value: Int, late: Bool) -> Int {
        state.withLock { state in
            if late { state.late.append(value) }
            state.values.append(value)
            return state.values.count - 1
        }
    }
}
