import Disposables
import Foundation
import Schedulers
import Signals
import Synchronization

/// The thread-context matrix of issue 15: every row (an operator, a subject, a multicast form…)
/// subscribed from every ``MatrixContext``, over a synchronous and a hot source, then ended in
/// every ``MatrixMode``, for ``rounds`` rounds each.
///
/// Each round checks that nothing crashed, the exact events (or, when disposed from another
/// thread, an in-order prefix of them), the grammar (at most one terminal event, nothing after
/// it, callbacks never overlapping), that no callback started after `dispose()` returned, and
/// that the subscriber's closures, the source and the signal under test were all freed.
///
/// ```swift
/// let rows = [MatrixRow("map", { $0.map { $0 * 10 } },
///                       sync: [.next(10), .next(20), .next(30), .completed],
///                       hot: [.next(10), .next(20), .next(30)])]
/// for failure in ThreadMatrix.failures(of: rows) { XCTFail(failure) }
/// ```
public enum ThreadMatrix {
    /// Rounds per cell (row, context, source, mode).
    public static let rounds = 100

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
        modes: [MatrixMode] = MatrixMode.allCases
    ) -> [String] {
        precondition(Thread.isMainThread, "the thread matrix runs on the main thread")
        let timing = ProcessInfo.processInfo.environment["THREAD_MATRIX_TIMES"] != nil
        var failures: [String] = []
        for row in rows {
            for exclusion in row.exclusions { print("thread matrix: \(row.name): excluded \(exclusion.cells): \(exclusion.reason)") }
            for context in contexts {
                for source in sources {
                    for mode in modes {
                        let start = Date()
                        let runCell: @Sendable (MatrixProgress?) -> String? = { progress in
                            for round in 0..<rounds {
                                let cell = MatrixCell(context: context, source: source, mode: mode, round: round)
                                progress?.roundsRun.add(1, ordering: .relaxed)
                                if row.exclusions.contains(where: { $0.excludes(cell) }) { continue }
                                if let failure = row.runRound(cell) { return "\(row.name) | \(cell): \(failure)" }
                            }
                            return nil
                        }
                        if let failure = context.runsWholeCells ? context.runWholeCell(runCell) : runCell(nil) {
                            failures.append(failure)
                        }
                        if timing {
                            print("thread matrix: \(row.name) | \(context), \(source), \(mode): \(Int(Date().timeIntervalSince(start) * 1_000)) ms")
                        }
                    }
                }
            }
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

    public var description: String { rawValue }
}

/// One round of one row: where, over which source, ended how.
public struct MatrixCell: Sendable, CustomStringConvertible {
    public let context: MatrixContext
    public let source: MatrixSource
    public let mode: MatrixMode
    public let round: Int

    public var description: String {
        "\(context), \(source), \(mode), round \(round) (\(usesSubscriber ? "a Subscriber" : "closures"))"
    }

    /// Whether the whole cell runs in its context, so that a round's steps run here rather than
    /// being sent there one by one.
    var runsInItsContext: Bool { context.runsWholeCells }

    /// Odd rounds subscribe a `Subscriber` (whose disposable exists before `subscribe` returns),
    /// even ones closures; mode (b) always needs the subscriber.
    public var usesSubscriber: Bool { mode == .disposedInsideCallback || round % 2 == 1 }
}

/// A row of the matrix: how to make the signal under test from a source, and the events it must
/// send for each source (`nil` where they depend on timing; then only the other properties are
/// checked).
public struct MatrixRow: Sendable {
    public let name: String
    let runRound: @Sendable (MatrixCell) -> String?
    fileprivate(set) var exclusions: [Exclusion] = []

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
        runRound = { cell in
            MatrixRound(transform, expected: cell.source == .synchronous ? sync : hot, cell: cell).run()
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
