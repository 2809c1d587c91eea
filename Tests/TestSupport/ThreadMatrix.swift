import Disposables
import Foundation
import Schedulers
import Signals
import Synchronization

/// The thread-context matrix: every row (an operator, a subject, a multicast form…)
/// subscribed from every ``MatrixContext``, over a synchronous and a hot source, then ended in
/// every ``MatrixMode``, for ``rounds`` rounds each (``blockingRounds`` in the blocking modes,
/// and fewer in the others for a row that says so with ``MatrixRow/inRounds(_:)``).
///
/// Each round checks that nothing crashed, the exact events (or, when disposed from another
/// thread, an in-order prefix of them), the grammar (at most one terminal event, nothing after
/// it, callbacks never overlapping), that no callback started after `dispose()` returned (but
/// the one past the final check, if it was not blocked until then), and that the subscriber's
/// closures, the source and the signal under test were all freed. In the blocking modes it also
/// checks that `dispose()` returned while a callback of the subscription was blocked until it
/// had (`dispose()`, `subscribe` and deinits never wait for a callback).
///
/// ```swift
/// let rows = [MatrixRow("map", { $0.map { $0 * 10 } },
///                       sync: [.next(10), .next(20), .next(30), .completed],
///                       hot: [.next(10), .next(20), .next(30)])]
/// for failure in ThreadMatrix.failures(of: rows) { XCTFail(failure) }
/// ```
public enum ThreadMatrix {
    /// Rounds per cell (row, context, source, mode): 100 in the release run, whose fast code meets
    /// the most interleavings in a given time; 40 in a debug run; 16 under a sanitizer, where
    /// rounds are several times slower and CI's time is short. Every variant of a round
    /// (``MatrixCell``'s `usesSubscriber`, `takesTheVariant`, `blocksALaterEvent`) comes back every
    /// 8 rounds, so 16 take each twice; ThreadSanitizer reports a race between two accesses that
    /// nothing orders whenever both happen, so it needs each path taken rather than taken often.
    public static let rounds = BuildKind.raceRounds(optimized: 100, debug: 40, sanitized: 16)

    /// Rounds per cell in the blocking modes (d1)-(d4), each of which blocks a thread until
    /// another has disposed: fewer, as they cost more, and enough for every combination of
    /// their variants (a `Subscriber` or closures, which object holds the last reference or
    /// how the other subscription is reached, the first event blocked or a later one).
    public static let blockingRounds = 8

    /// Rounds per cell in modes (a)-(c) for a row run with ``MatrixRow/inRounds(_:)`` because
    /// other rows already run its delivery through the full count (a convenience over an
    /// operator, a type that subclasses another, an overload): 20, and 8 under a sanitizer, where
    /// rounds are several times slower and CI's time is short. ThreadSanitizer reports a race
    /// between two accesses that nothing orders whenever both happen, not only when they meet in
    /// time, so it needs each path taken rather than each taken often; the blocking modes keep
    /// their ``blockingRounds``, one per combination of their variants.
    public static let lightRounds = BuildKind.isSanitized ? 8 : 20

    /// What both sources send: the synchronous one then completes, the hot one never ends.
    public static let sourceValues = [1, 2, 3]

    /// A serial scheduler for rows that hop (`deliver(on:)`, `subscribe(on:)`, `delay`).
    ///
    /// A row that asks for it may subscribe there, so the matrix lets the queue run before it
    /// sends into the hot source.
    public static var queue: QueueScheduler {
        queueUses.add(1, ordering: .relaxed)
        return rowQueue
    }

    static let rowQueue = QueueScheduler(name: "thread matrix row")
    static let queueUses = Atomic<Int>(0)

    /// A virtual clock for rows with timers (`throttle`, `timeout`, `buffer`): nothing fires
    /// until the hot source has sent everything, then the matrix moves it on by an hour of
    /// virtual time, so these rows have exact results too.
    public static let clock = TestScheduler()

    /// Runs every cell of `rows` and returns a description of each failure, at most one per
    /// cell (a cell stops at its first failing round).
    ///
    /// Prints the cells each row excludes, and how often a known defect was stepped around.
    public static func failures(
        of rows: [MatrixRow],
        rounds: Int = rounds,
        contexts: [MatrixContext] = MatrixContext.threadContexts,
        sources: [MatrixSource] = MatrixSource.allCases,
        modes: [MatrixMode] = MatrixMode.selected
    ) -> [String] {
        precondition(Thread.isMainThread, "the thread matrix runs on the main thread")
        let timing = ProcessInfo.processInfo.environment["THREAD_MATRIX_TIMES"] != nil
        var failures: [String] = []
        for row in rows {
            let live = SignalDiagnostics.liveSubscriptionCount
            for exclusion in row.exclusions { print("thread matrix: \(row.name): excluded \(exclusion.cells): \(exclusion.reason)") }
            for context in contexts {
                for source in sources {
                    for mode in modes {
                        let start = Date()
                        let cellRounds = mode.isBlocking ? min(rounds, blockingRounds) : min(rounds, row.rounds ?? rounds)
                        let runCell: @Sendable (MatrixProgress?) -> String? = { progress in
                            for round in 0..<cellRounds {
                                let cell = MatrixCell(context: context, source: source, mode: mode, round: round)
                                progress?.roundsRun.add(1, ordering: .relaxed)
                                if row.exclusions.contains(where: { $0.excludes(cell) }) { continue }
                                if let failure = row.runRound(cell, row.traits) { return "\(row.name) | \(cell): \(failure)" }
                            }
                            return nil
                        }
                        let wholeCell = context.runsWholeCells && !mode.isBlocking
                        if let failure = wholeCell ? context.runWholeCell(runCell) : runCell(nil) {
                            failures.append(failure)
                        }
                        if timing {
                            print("thread matrix: \(row.name) | \(context), \(source), \(mode): \(Int(Date().timeIntervalSince(start) * 1_000)) ms")
                        }
                    }
                }
            }
            MatrixNotApplicable.report("thread matrix", row: row.name, printing: timing)
            if let leak = LiveSubscriptions.leak(since: live, by: "thread matrix row \(row.name)") { failures.append(leak) }
        }
        return failures
    }

    /// Moves the virtual clocks on (``clock`` and the context's test scheduler, by an hour) and
    /// runs what the main queue has ready: the work that only the test's thread can do.
    static func advance() {
        MatrixThreads.clock.advance(by: 3_600)
        clock.advance(by: 3_600)
        MatrixWait.runMainLoopOnce()
    }

    /// Waits until the subscription scheduler's background queue, ``queue`` and the context's
    /// `QueueScheduler` have run what they hold now, then calls ``advance()``: for a round whose
    /// source has sent everything.
    static func settle() {
        let drained = DispatchGroup()
        drained.enter()
        // From a thread with no current scheduler, this goes to the back of that queue.
        DispatchQueue.global().async { Scheduler.subscription.schedule { drained.leave() } }
        for scheduler in [rowQueue, MatrixThreads.scheduler] {
            drained.enter()
            scheduler.schedule { drained.leave() }
        }
        _ = MatrixWait.for { drained.wait(timeout: $0) }
        advance()
    }
}

/// What the rows subscribe to.
public enum MatrixSource: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A created (cold) signal that sends ``ThreadMatrix/sourceValues`` then completes, from its
    /// create block.
    case synchronous = "synchronous source"
    /// A pipe that the context sends ``ThreadMatrix/sourceValues`` into after subscribing, and
    /// never ends.
    case hot = "hot source"

    public var description: String { rawValue }
}

/// How a round ends.
public enum MatrixMode: String, CaseIterable, Sendable, CustomStringConvertible {
    /// (a) Another thread disposes while the source sends: the events are an in-order prefix of
    /// the expected ones, and none starts after `dispose()` returned.
    case disposedFromAnotherThread = "(a) disposed from another thread"
    /// (b) The first callback disposes its own subscription: exactly the first expected event.
    case disposedInsideCallback = "(b) disposed inside its first callback"
    /// (c) The source, the signal and the disposable are let go of, never disposed: exactly the
    /// expected events, then everything is freed.
    case letGo = "(c) let go of without disposal"

    // The blocking mode (d): a callback of the subscription (the first event's, or in some rounds
    // a later one's) does not return until the disposing thread's `dispose()` has returned.
    // `dispose()` must return meanwhile (the callback gives up after `MatrixWait.blockLimit` and
    // the round reports that dispose waited for it), no callback may start after it returned
    // (the blocked one was the one past the final check), the events are exactly the expected
    // ones up to the blocked one, and everything is freed once the blocked callback returns.
    // With the hot source, another plain thread sends one more value into it meanwhile (its send
    // may wait, as senders do, but must return, and the value must not reach the subscription).
    // See `MatrixBlocker`. A round whose callback cannot block (it runs inside the
    // `subscribe(next:)` whose disposable would end it, or on the main thread in (d2)) is not
    // counted; `THREAD_MATRIX_TIMES` prints how many were not, per row.

    /// (d1) A plain thread disposes while the callback blocks until its `dispose()` has returned;
    /// in rounds 2 and 3 of every 4 it first subscribes to the signal under test again (a
    /// subscription it disposes after), which must not wait for the callback either.
    case blockedDisposedFromAnotherThread = "(d1) blocked callback, disposed from another thread"
    /// (d2) The main thread disposes while the callback, on another thread, does
    /// `DispatchQueue.main.sync {}` (with a deadline: it returns only once the main thread's
    /// `dispose()` has returned and the main thread runs its queue again); in rounds 2 and 3 of
    /// every 4, inside the callback of another subscription that the main thread delivers (a
    /// "Cancel" tap). Not applicable where that callback runs on the main thread.
    case blockedDisposedFromTheMainThread = "(d2) callback in DispatchQueue.main.sync, disposed from the main thread"
    /// (d3) A plain thread disposes inside the callback of another, unrelated subscription that
    /// it is delivering, while the callback blocks until that `dispose()` has returned.
    case blockedDisposedInsideAnotherCallback = "(d3) blocked callback, disposed inside another subscription's callback"
    /// (d4) A plain thread lets go of the last reference to a `ScopedDisposable` or to an owner
    /// object holding one, whose deinit disposes, while the callback blocks until that release
    /// has returned.
    case blockedLastReferenceReleased = "(d4) blocked callback, last reference to a ScopedDisposable released"

    public var description: String { rawValue }

    /// Whether this is one of the blocking modes (d1)-(d4).
    public var isBlocking: Bool {
        switch self {
        case .disposedFromAnotherThread, .disposedInsideCallback, .letGo: false
        case .blockedDisposedFromAnotherThread, .blockedDisposedFromTheMainThread,
             .blockedDisposedInsideAnotherCallback, .blockedLastReferenceReleased: true
        }
    }

    /// The blocking modes (d1)-(d4).
    public static let blocking: [MatrixMode] = allCases.filter(\.isBlocking)

    /// The modes a run covers: all of them, unless the environment variable `THREAD_MATRIX_MODES`
    /// says `blocking` (only (d1)-(d4)) or `nonblocking` (only (a)-(c)), for running a part.
    public static var selected: [MatrixMode] {
        switch ProcessInfo.processInfo.environment["THREAD_MATRIX_MODES"] {
        case "blocking": blocking
        case "nonblocking": allCases.filter { !$0.isBlocking }
        default: allCases
        }
    }
}

/// One round of one row: where, over which source, ended how.
public struct MatrixCell: Sendable, CustomStringConvertible {
    public let context: MatrixContext
    public let source: MatrixSource
    public let mode: MatrixMode
    public let round: Int

    public var description: String {
        var variant = usesSubscriber ? "a Subscriber" : "closures"
        if mode.isBlocking {
            variant += blocksALaterEvent ? ", a later event blocked" : ", the first event blocked"
            if mode == .blockedDisposedFromAnotherThread, takesTheVariant {
                variant += ", subscribed again first"
            }
            if mode == .blockedDisposedFromTheMainThread, takesTheVariant {
                variant += ", inside another subscription's callback"
            }
            if mode == .blockedDisposedInsideAnotherCallback {
                variant += takesTheVariant ? ", the other through map" : ", the other a pipe"
            }
            if mode == .blockedLastReferenceReleased {
                variant += takesTheVariant ? ", an owner's" : ", the ScopedDisposable's own"
            }
        }
        return "\(context), \(source), \(mode), round \(round) (\(variant))"
    }

    /// Whether the whole cell runs in its context, so that a round's steps run here rather than
    /// being sent there one by one. Never in the blocking modes, whose rounds the test's thread
    /// drives (in (d2) it is the disposing thread).
    var runsInItsContext: Bool { context.runsWholeCells && !mode.isBlocking }

    /// Odd rounds subscribe a `Subscriber` (whose disposable exists before `subscribe` returns),
    /// even ones closures; mode (b) always needs the subscriber.
    public var usesSubscriber: Bool { mode == .disposedInsideCallback || round % 2 == 1 }

    /// Whether a blocking round takes its mode's variant (rounds 2 and 3 of every 4): in (d1),
    /// the disposing thread subscribes again first; in (d2), the main thread disposes inside the
    /// callback of another subscription that it delivers; in (d3), the other subscription's
    /// callback is reached through an operator; in (d4), the last reference let go of is an
    /// owner object's rather than the `ScopedDisposable`'s own.
    var takesTheVariant: Bool { round / 2 % 2 == 1 }

    /// In the blocking modes, whether the callback that blocks is a later event's (rounds 4-7
    /// of every 8) rather than the first's.
    var blocksALaterEvent: Bool { round / 4 % 2 == 1 }
}

/// A row of the matrix: how to make the signal under test from a source, and the events it must
/// send for each source (`nil` where they depend on timing; then only the other properties are
/// checked).
public struct MatrixRow: Sendable {
    public let name: String
    let runRound: @Sendable (MatrixCell, Traits) -> String?
    fileprivate(set) var exclusions: [Exclusion] = []
    fileprivate(set) var traits = Traits()
    /// Rounds per cell in modes (a)-(c), when fewer than the matrix's.
    fileprivate(set) var rounds: Int?

    /// What a round needs to know of its row besides the events.
    struct Traits: Sendable {
        /// Whether the expected terminal event comes only once the matrix lets go of the row.
        var endsOnlyWhenLetGo = false
        /// Whether the row subscribes to its source from the main queue when made elsewhere.
        var subscribesOnTheMainQueue = false
    }

    struct Exclusion: Sendable {
        let cells: String
        let reason: String
        let excludes: @Sendable (MatrixCell) -> Bool
    }

    /// - Parameters:
    ///   - transform: Makes the signal under test; called in the cell's context, for each round.
    ///   - sync: The events for the synchronous source (1, 2, 3, completed).
    ///   - hot: The events for the hot source (1, 2, 3 sent after subscribing, never ending),
    ///     once the matrix has let go of it and moved the clocks on.
    public init<SourceFailure: Error & Sendable, Value: Equatable & Sendable, Failure: Error & Equatable & Sendable>(
        _ name: String,
        _ transform: @escaping @Sendable (Signal<Int, SourceFailure>) -> Signal<Value, Failure>,
        sync: [Event<Value, Failure>]?,
        hot: [Event<Value, Failure>]?
    ) {
        self.name = name
        runRound = { cell, traits in
            MatrixRound(transform, expected: cell.source == .synchronous ? sync : hot, cell: cell, traits: traits).run()
        }
    }

    /// The row without the cells `excludes` picks, because of a known library defect: the matrix
    /// prints `cells` and `reason` each run, so that the exclusion is seen until it is lifted.
    /// Exclusions add up.
    public func excluding(
        _ cells: String,
        because reason: String,
        where excludes: @escaping @Sendable (MatrixCell) -> Bool
    ) -> MatrixRow {
        var row = self
        row.exclusions.append(Exclusion(cells: cells, reason: reason, excludes: excludes))
        return row
    }

    /// The row, whose expected terminal event comes only once the matrix lets go of it (a
    /// command or a cell that ends its signals when released): the blocking modes, which hold
    /// on to the row until the blocked callback has returned, never block that event.
    public func endingOnlyWhenLetGo() -> MatrixRow {
        var row = self
        row.traits.endsOnlyWhenLetGo = true
        return row
    }

    /// The row, which subscribes to its source from the main queue when it is made on another
    /// thread (a binding that must be made on the main actor): before the hot source sends, the
    /// matrix waits, in the context, until the main queue has run what it holds.
    public func subscribingOnTheMainQueue() -> MatrixRow {
        var row = self
        row.traits.subscribesOnTheMainQueue = true
        return row
    }

    /// The row, run for at most `rounds` rounds per cell in modes (a)-(c) (the blocking modes
    /// keep ``ThreadMatrix/blockingRounds``, which their variants need), usually
    /// ``ThreadMatrix/lightRounds``.
    public func inRounds(_ rounds: Int) -> MatrixRow {
        var row = self
        row.rounds = rounds
        return row
    }
}

/// A row over sources that can fail with `TestError`: the matrix's usual source.
public func row<Value: Equatable & Sendable, Failure: Error & Equatable & Sendable>(
    _ name: String,
    _ transform: @escaping @Sendable (Signal<Int, TestError>) -> Signal<Value, Failure>,
    sync: [Event<Value, Failure>]?,
    hot: [Event<Value, Failure>]?
) -> MatrixRow {
    MatrixRow(name, transform, sync: sync, hot: hot)
}
