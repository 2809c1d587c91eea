#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Disposables
import Foundation
import Synchronization

/// The blocked callback's side of a round in the blocking modes (d1)-(d4), and its handshake with
/// the disposing side.
///
/// One callback of the subscription under test (of the event at ``blockedIndex``) blocks until the disposing thread's
/// `dispose()` (or release of the last reference) has returned: in (d1), (d3) and (d4) it waits
/// for ``release()``, which the disposer calls right after; in (d2) it does the equivalent of
/// `DispatchQueue.main.sync {}` once the main thread has stopped running its queue to dispose
/// (``parkTheMainThread()``), so it returns only when the main thread runs its queue again, after
/// its `dispose()` returned.
///
/// Nothing hangs: the callback gives up after ``MatrixWait/blockLimit`` seconds, and a
/// `dispose()` that returns only after that is reported as one that waited for the callback.
final class MatrixBlocker: Sendable {
    /// What the callback to block did.
    enum Entry: Sendable, Equatable {
        /// It blocks (or blocked) until the disposer's `dispose()` returned.
        case blocked
        /// It could not block in this round, for the reason given (the round is not counted).
        case notApplicable(String)
    }

    private struct State {
        var entry: Entry?
        var released = false
        /// The callback stopped waiting at its deadline, before the release.
        var gaveUp = false
        /// That the disposing side waited for the callback has been reported.
        var waitReported = false
        /// The blocked callback has stopped blocking.
        var unblocked = false
        /// The round stopped waiting for the disposer: the callback goes on without a release.
        var abandoned = false
        var problems: [String] = []
    }

    let mode: MatrixMode
    /// The index of the event whose callback blocks: 0 for the first.
    let blockedIndex: Int
    /// How the failures name the disposal and what blocks ("dispose()" and "callback", or
    /// "cancel()" and "loop body").
    private let disposal: String, blocked: String
    private let state = Lock(State())
    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let mainParked = DispatchSemaphore(value: 0)

    init(mode: MatrixMode, blocking blockedIndex: Int, disposal: String = "dispose()", blocked: String = "callback") {
        precondition(mode.isBlocking, "a MatrixBlocker is for the blocking modes")
        self.mode = mode
        self.blockedIndex = blockedIndex
        self.disposal = disposal
        self.blocked = blocked
    }

    /// What the blocked callback did, once it has started.
    var entry: Entry? { state.withLock { $0.entry } }

    /// Whether the blocked callback has stopped blocking (released, or given up).
    var hasUnblocked: Bool { state.withLock { $0.unblocked } }

    /// What went wrong between the callback and the disposer.
    var problems: [String] { state.withLock { $0.problems } }

    // MARK: The callback's side

    /// Called by the subscription's callback of the event at ``blockedIndex``: blocks until the
    /// disposer has disposed.
    ///
    /// - Parameter insideSubscribe: Whether the callback runs inside the `subscribe(next:)`
    ///   call whose disposable the disposer needs: then it cannot be disposed, and goes on.
    func blockCallback(insideSubscribe: Bool) {
        if mode == .blockedDisposedFromTheMainThread, Thread.isMainThread {
            enter(.notApplicable("the \(blocked) to block ran on the main thread, which disposes"))
            return
        }
        if insideSubscribe {
            enter(.notApplicable("the callback to block ran inside subscribe(next:), before its disposable existed"))
            return
        }
        enter(.blocked)
        let deadline = DispatchTime.now() + MatrixWait.blockLimit
        let gotThrough: Bool
        if mode == .blockedDisposedFromTheMainThread {
            // `DispatchQueue.main.sync {}`, with a deadline: the block runs once the main thread
            // runs its queue again, which it does only after its `dispose()` returned.
            if mainParked.wait(timeout: deadline) == .success {
                let ran = DispatchSemaphore(value: 0)
                DispatchQueue.main.async { ran.signal() }
                gotThrough = ran.wait(timeout: deadline) == .success
            } else {
                gotThrough = false
            }
        } else {
            gotThrough = released.wait(timeout: deadline) == .success
        }
        state.withLock { state in
            state.unblocked = true
            if state.abandoned { return }
            if !gotThrough {
                state.gaveUp = true
            } else if !state.released {
                state.problems.append("the \(blocked)'s DispatchQueue.main.sync block ran before the main thread's \(disposal) returned (\(disposal) ran the main run loop)")
            }
        }
    }

    private func enter(_ entry: Entry) {
        state.withLock { $0.entry = entry }
        entered.signal()
    }

    // MARK: The disposing side

    /// Waits until the callback has blocked, or found that it cannot; `nil` after
    /// `MatrixWait.blockLimit` seconds, or once the round abandoned.
    func waitForEntry() -> Entry? {
        _ = entered.wait(timeout: .now() + MatrixWait.blockLimit)
        return state.withLock { $0.abandoned ? nil : $0.entry }
    }

    /// In (d2): the main thread has stopped running its queue and disposes now.
    func parkTheMainThread() {
        mainParked.signal()
    }

    /// The disposer's `dispose()` (or release) has returned: lets the callback go on, and reports
    /// a dispose that returned only after the callback had given up waiting for it.
    func release() {
        state.withLock { $0.released = true }
        checkReturnedInTime(disposal)
        released.signal()
    }

    /// `call` (the disposer's `dispose()`, or a `subscribe` it made first) has returned: reports
    /// it as one that waited for the callback if the callback had given up waiting by then.
    func checkReturnedInTime(_ call: String) {
        state.withLock { state in
            guard state.gaveUp, !state.waitReported else { return }
            state.waitReported = true
            state.problems.append("\(call) waited for the \(blocked): it returned only after the blocked \(blocked) gave up waiting for it (\(Int(MatrixWait.blockLimit)) s)")
        }
    }

    /// The round stops waiting for the disposer: lets the callback (and the disposer's wait for
    /// it) go on, so that nothing stays blocked.
    func abandon() {
        state.withLock { $0.abandoned = true }
        entered.signal()
        released.signal()
        mainParked.signal()
    }

    func problem(_ description: String) {
        state.withLock { $0.problems.append(description) }
    }
}

/// Tells whether the current thread is inside a `subscribe(next:)` call (whose disposable does
/// not exist until it returns).
final class MatrixSubscribeMarker: @unchecked Sendable {
    private let thread = Lock<pthread_t?>(nil)

    /// The current thread calls `subscribe(next:)`.
    func enter() { thread.withLock { $0 = pthread_self() } }

    /// That call has returned, and its disposable is stored.
    func leave() { thread.withLock { $0 = nil } }

    var isInsideOnThisThread: Bool {
        thread.withLock { thread in thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }
}

/// The rounds of the blocking modes whose callback blocked, and those whose callback could not
/// block (it ran on the main thread in (d2), or inside `subscribe(next:)`), by reason: not
/// failures, but the cells they fill are not covered. `THREAD_MATRIX_TIMES` prints them per row.
enum MatrixNotApplicable {
    static let counts = Lock<[String: Int]>([:])

    /// A round of `mode` blocked its callback (`reason` `nil`), or could not, for `reason`.
    static func record(_ mode: MatrixMode, _ reason: String?) {
        let key = "\(mode.rawValue.prefix(4)) " + (reason.map { "not applicable: \($0)" } ?? "blocked")
        counts.withLock { $0[key, default: 0] += 1 }
    }

    /// The counts so far, emptied.
    static func take() -> [String: Int] {
        counts.withLock { counts in
            defer { counts = [:] }
            return counts
        }
    }

    /// Takes the tally of `row` and, when `printing`, prints it line by line after `label`.
    static func report(_ label: String, row: String, printing: Bool) {
        let tally = take()
        guard printing else { return }
        for (reason, count) in tally.sorted(by: { $0.key < $1.key }) {
            print("\(label): \(row): blocking rounds: \(reason): \(count)")
        }
    }
}
