import Disposables
import Foundation
import Schedulers
import Signals
import Synchronization

/// Where a matrix row is subscribed (and where its hot source sends): every thread context a
/// user's code runs in.
public enum MatrixContext: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The main thread, where `Scheduler.current` is `Scheduler.main`.
    case mainThread = "main thread"
    /// A plain `Thread`, with no current scheduler: created signals subscribe through the
    /// subscription scheduler, on a background scheduler.
    case plainThread = "plain Thread"
    /// A block on `DispatchQueue.global()`, with no current scheduler.
    case globalQueue = "global queue"
    /// A block on a `QueueScheduler`, which is current while it runs.
    case queueScheduler = "QueueScheduler block"
    /// A block on a `TestScheduler`, run by the test's thread, with the test scheduler current.
    case testScheduler = "TestScheduler block"
    /// A detached `Task`, on the concurrency runtime's cooperative pool, with no current
    /// scheduler. Not in ``threadContexts``: the rows of Swift concurrency's bridges ask for it.
    case task = "Task"

    /// The contexts every row runs in: all but ``task``, which for the library's other rows is
    /// one more thread with no current scheduler, as the plain thread and the global queue are.
    public static let threadContexts: [MatrixContext] = allCases.filter { $0 != .task }

    public var description: String { rawValue }

    /// Whether a scheduler is current in this context, so that created signals subscribe inline.
    var hasCurrentScheduler: Bool {
        switch self {
        case .mainThread, .queueScheduler, .testScheduler: true
        case .plainThread, .globalQueue, .task: false
        }
    }

    /// Whether a cell's rounds all run in one block in this context, checks included, rather
    /// than each step of each round being sent there from the test's thread.
    ///
    /// For a plain thread and a global queue that saves two thread switches per round and loses
    /// nothing: nothing the rows do waits for those threads. A scheduler's block must return for
    /// the scheduler to run what rows put on it, and the main thread and the test scheduler's
    /// block are the test's thread already.
    var runsWholeCells: Bool {
        self == .plainThread || self == .globalQueue
    }

    /// Runs `cell` in this context and waits, spinning the main run loop, until it returns,
    /// reporting a hang when no round has finished for `MatrixWait.limit` seconds.
    func runWholeCell(_ cell: @escaping @Sendable (MatrixProgress?) -> String?) -> String? {
        let progress = MatrixProgress()
        let done = DispatchSemaphore(value: 0)
        let result = Lock<String?>(nil)
        let block: @Sendable () -> Void = {
            let failure = cell(progress)
            result.withLock { $0 = failure }
            done.signal()
            // Wakes the main run loop, which the test's thread sleeps in meanwhile.
            DispatchQueue.main.async {}
        }
        let worker = MatrixThreads.subscriber
        switch self {
        case .plainThread: worker.async(block)
        default: DispatchQueue.global().async(execute: block)
        }
        // Sleep in the main run loop, which runs what rows put on the main queue, rather than
        // polling: the cell's threads need the processor more.
        var seen = -1
        var deadline = Date(timeIntervalSinceNow: MatrixWait.limit)
        while done.wait(timeout: .now()) != .success {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            guard Date() > deadline else { continue }
            let now = progress.roundsRun.load(ordering: .relaxed)
            if now == seen {
                if self == .plainThread { MatrixThreads.replace(worker) }
                return "\(self): a round did not finish within \(MatrixWait.limit) s"
            }
            seen = now
            deadline = Date(timeIntervalSinceNow: MatrixWait.limit)
        }
        return result.withLock { $0 }
    }

    /// Runs `block` in this context and waits until it has returned.
    ///
    /// - Returns: `false` when it had not returned after `MatrixWait.limit` seconds.
    func run(_ block: @escaping @Sendable () -> Void) -> Bool {
        switch self {
        case .mainThread:
            precondition(Thread.isMainThread, "the thread matrix runs on the main thread")
            block()
            return true
        case .testScheduler:
            MatrixThreads.clock.schedule(block)
            // Only what is due now: a timer an operator put on the current scheduler waits for
            // `settle(advancingClocks: true)`.
            MatrixThreads.clock.advance(by: 0)
            return true
        case .plainThread:
            return MatrixThreads.runAndWait(on: MatrixThreads.subscriber, block)
        case .globalQueue:
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                block()
                done.signal()
            }
            return MatrixWait.for(done)
        case .queueScheduler:
            let done = DispatchSemaphore(value: 0)
            MatrixThreads.scheduler.schedule {
                block()
                done.signal()
            }
            return MatrixWait.for(done)
        case .task:
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                block()
                done.signal()
            }
            return MatrixWait.for(done)
        }
    }
}

extension MatrixContext {
    /// Starts `block` in this context and returns without waiting for it, except on the main
    /// thread and in the test scheduler's block, which are this thread: there it has run when
    /// this returns. For the blocking modes, whose callbacks may block the context until this
    /// thread (or another) has disposed.
    public func start(_ block: @escaping @Sendable () -> Void) -> MatrixPending {
        let pending = MatrixPending()
        let job: @Sendable () -> Void = {
            block()
            pending.finish()
        }
        switch self {
        case .mainThread:
            precondition(Thread.isMainThread, "the thread matrix runs on the main thread")
            job()
        case .testScheduler:
            MatrixThreads.clock.schedule(job)
            MatrixThreads.clock.advance(by: 0)
        case .plainThread:
            MatrixThreads.subscriber.async(job)
        case .globalQueue:
            DispatchQueue.global().async(execute: job)
        case .queueScheduler:
            MatrixThreads.scheduler.schedule(job)
        case .task:
            Task.detached { job() }
        }
        return pending
    }
}

/// Work started on another thread, which the test's thread waits for.
public final class MatrixPending: Sendable {
    private let done = MatrixFlag()
    private let wake = DispatchSemaphore(value: 0)

    public var isDone: Bool { done.isSet }

    /// The work has returned.
    func finish() {
        done.set()
        wake.signal()
    }

    /// Waits until the work has returned, running `between` (which moves virtual clocks on) and
    /// the main run loop meanwhile. Returns `false` after `limit` seconds.
    public func wait(limit: TimeInterval = MatrixWait.limit, between: () -> Void = {}) -> Bool {
        MatrixWait.until({ done.isSet }, wake: wake, limit: limit, between: between)
    }
}

/// How far a cell running in its context has got.
final class MatrixProgress: Sendable {
    let roundsRun = Atomic<Int>(0)
}

/// The threads and schedulers behind the contexts, made once for the process.
enum MatrixThreads {
    /// The scheduler of the `QueueScheduler` context.
    static let scheduler = QueueScheduler(name: "thread matrix context")
    /// The scheduler of the `TestScheduler` context.
    static let clock = TestScheduler()

    private static let workers = Lock<(subscriber: PlainWorker, disposer: PlainWorker, sender: PlainWorker)>((
        PlainWorker(name: "thread matrix subscriber"),
        PlainWorker(name: "thread matrix disposer"),
        PlainWorker(name: "thread matrix sender")
    ))

    /// The plain thread of the plain-thread context.
    static var subscriber: PlainWorker { workers.withLock { $0.subscriber } }

    /// The plain thread that disposes while the context sends, in mode (a), and while a callback
    /// blocks, in (d1), (d3) and (d4).
    static var disposer: PlainWorker { workers.withLock { $0.disposer } }

    /// The plain thread that sends one more value into the hot source while a callback blocks,
    /// in the blocking modes.
    static var sender: PlainWorker { workers.withLock { $0.sender } }

    /// Replaces a worker stuck in a block that never returned, so that later cells can run.
    static func replace(_ worker: PlainWorker) {
        workers.withLock { workers in
            if workers.subscriber === worker { workers.subscriber = PlainWorker(name: "thread matrix subscriber") }
            if workers.disposer === worker { workers.disposer = PlainWorker(name: "thread matrix disposer") }
            if workers.sender === worker { workers.sender = PlainWorker(name: "thread matrix sender") }
        }
    }

    /// Runs `block` on `worker` and waits for it; replaces the worker when it does not return.
    static func runAndWait(on worker: PlainWorker, _ block: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        worker.async {
            block()
            done.signal()
        }
        if MatrixWait.for(done) { return true }
        replace(worker)
        return false
    }
}

/// A plain `Thread` that runs the blocks it is given, one at a time, in order; no scheduler is
/// ever current on it. Kept for the whole run, so that rounds do not pay for starting threads.
final class PlainWorker: @unchecked Sendable {
    private let jobs = Lock<[@Sendable () -> Void]>([])
    private let wake = DispatchSemaphore(value: 0)

    init(name: String) {
        // The worker lives as long as the process: its thread keeps it.
        let thread = Thread { [self] in
            while true {
                wake.wait()
                let job = jobs.withLock { $0.removeFirst() }
                job()
            }
        }
        thread.name = name
        thread.start()
    }

    func async(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        wake.signal()
    }
}

/// Waiting without sleeping: semaphores and conditions polled with a deadline, spinning the main
/// run loop meanwhile when the waiter is the main thread (so that work put on the main queue, by
/// `deliverOnMainThread` or by an operator that picked the current scheduler there, still runs).
public enum MatrixWait {
    /// How long any one wait lasts before the matrix reports it as a hang: the suite's
    /// `defaultWaitSeconds`, which a loaded machine (a sanitizer build, both cores busy) never
    /// needs for a round that works.
    public static let limit: TimeInterval = defaultWaitSeconds

    /// How long a blocked callback of the blocking modes waits for the disposing thread's
    /// `dispose()` to return before it gives up (and the round reports that dispose waited).
    public static let blockLimit: TimeInterval = 10

    /// Waits for `semaphore`. Returns `false` after `limit` seconds.
    static func `for`(_ semaphore: DispatchSemaphore) -> Bool {
        self.for { semaphore.wait(timeout: $0) }
    }

    /// Waits with `wait` (a semaphore's or a group's), a little at a time. Returns `false` after
    /// `limit` seconds.
    static func `for`(_ wait: (DispatchTime) -> DispatchTimeoutResult) -> Bool {
        // The other thread usually answers within microseconds: look a few times before sleeping,
        // which saves this thread being woken, a slow trip through the kernel's scheduler.
        for _ in 0..<spins {
            if wait(.now()) == .success { return true }
            sched_yield()
        }
        let deadline = DispatchTime.now() + limit
        while DispatchTime.now() < deadline {
            if wait(.now() + .microseconds(100)) == .success { return true }
            runMainLoopOnce()
        }
        return false
    }

    /// Waits until `condition` holds. Between two looks it waits a little for `wake` (signalled
    /// by whatever may make the condition true), runs `between` (which moves virtual clocks on),
    /// and spins the main run loop. Returns `false` after `limit` seconds.
    static func until(
        _ condition: () -> Bool,
        wake: DispatchSemaphore? = nil,
        limit: TimeInterval = limit,
        between: () -> Void = {}
    ) -> Bool {
        let deadline = DispatchTime.now() + limit
        while !condition() {
            if DispatchTime.now() > deadline { return condition() }
            between()
            if condition() { return true }
            if let wake {
                _ = wake.wait(timeout: .now() + .microseconds(200))
            } else {
                sched_yield()
            }
            runMainLoopOnce()
        }
        return true
    }

    /// How many times a waiter looks before it sleeps.
    static let spins = 200

    /// Spins until `condition` holds; returns `false` after `limit` seconds.
    static func spin(until condition: () -> Bool) -> Bool {
        let deadline = DispatchTime.now() + limit
        var looks = 0
        while !condition() {
            sched_yield()
            looks += 1
            if looks % 1_024 == 0, DispatchTime.now() > deadline { return false }
        }
        return true
    }

    /// Runs whatever the main run loop (and so the main queue) has ready, when on the main thread.
    static func runMainLoopOnce() {
        if Thread.isMainThread { _ = RunLoop.main.run(mode: .default, before: Date()) }
    }
}
