import Disposables
import Dispatch
import Foundation

/// A serial scheduler whose blocks run isolated to an actor: on the actor's executor, one at a
/// time, between the actor's own jobs.
///
/// Blocks given to ``schedule(_:)`` run in the order they were scheduled, whatever thread
/// scheduled them; blocks for a date run in the order of their dates, and blocks for the same
/// date in the order they were scheduled, as on a ``QueueScheduler``. Each runs with the
/// scheduler as ``Scheduler/current`` and may assume the actor's isolation
/// (`actor.assumeIsolated { … }`); a block cannot await, since a scheduler's blocks are
/// synchronous.
///
/// The scheduler keeps its own queue of blocks and lends it to the actor one `Task` at a time,
/// so the order does not depend on the order in which tasks reach the actor. A `Task` runs the
/// blocks that were waiting when it started, then hands over to a new one, so that a block that
/// keeps rescheduling itself does not shut the actor's own work out.
///
/// ```swift
/// actor Store { var items: [String] = [] }
/// let store = Store()
/// let scheduler = ActorScheduler(store, name: "com.example.store")
/// signal.deliver(on: scheduler).subscribeNext { item in
///     store.assumeIsolated { $0.items.append(item) }
/// }
/// ```
///
/// Delays are measured on a monotonic clock, as on a ``QueueScheduler``: a wall clock that steps
/// never makes a block run early, and the same rule holds for the times given: NaN stops the
/// program, a date or delay more than ``QueueScheduler/longestInterval`` (about 292 years) off
/// never comes, a date past is due now.
///
/// A scheduler that has been let go of still runs the blocks it was given. Disposing what a
/// `schedule` method returned cancels a block that has not started and releases it at once.
///
/// RAC 2.5: none; new. It plays the part `RACTargetQueueScheduler` plays for a dispatch queue.
public final class ActorScheduler: Scheduler, DatedScheduling, DatedBlockOwner, @unchecked Sendable {
    /// The actor the blocks run isolated to.
    ///
    /// RAC 2.5: none; `RACQueueScheduler`'s `queue` plays this part for a queue.
    public let actor: any Actor

    /// The blocks waiting and whether a task drains them, behind a lock; with ``dated``, all the
    /// mutable state there is, which is why the class can be `Sendable` (`@unchecked` as its
    /// superclass is).
    private let state = Lock(State())

    /// The blocks scheduled for a date, in the order they run, and the timer for the first,
    /// behind a lock of their own.
    private let dated: DatedBlocks

    /// The clocks the scheduler reads.
    private let clock: any SchedulerClock

    /// A scheduler whose blocks run isolated to `actor`.
    ///
    /// `MainActor.shared` makes a scheduler for the main actor, though ``Scheduler/main`` is the
    /// usual way to run blocks there.
    ///
    /// - Parameters:
    ///   - actor: The actor to run the blocks on.
    ///   - name: A name for debugging.
    ///
    /// RAC 2.5: none; new.
    public convenience init(_ actor: any Actor, name: String = "ReactiveCocoaSwift.ActorScheduler") {
        self.init(actor, name: name, clock: SystemClock())
    }

    /// A scheduler whose blocks run isolated to `actor`, reading `clock`: for tests, whose
    /// clock's wall clock may step.
    package init(_ actor: any Actor, name: String = "ReactiveCocoaSwift.ActorScheduler", clock: any SchedulerClock) {
        self.actor = actor
        self.clock = clock
        dated = DatedBlocks(clock: clock)
        super.init(name: name)
    }

    /// A scheduler whose blocks run on `executor`, isolated to an actor of the scheduler's own
    /// that runs on it.
    ///
    /// - Parameters:
    ///   - executor: The serial executor to run the blocks on.
    ///   - name: A name for debugging.
    ///
    /// RAC 2.5: none; new, as `-[RACTargetQueueScheduler initWithName:targetQueue:]` is for a queue.
    public convenience init(executor: any SerialExecutor, name: String = "ReactiveCocoaSwift.ActorScheduler") {
        self.init(ExecutorActor(executor), name: name)
    }

    /// Runs `action` on the actor after the blocks already waiting.
    ///
    /// - Returns: A disposable that cancels `action` if it has not started yet.
    ///
    /// RAC 2.5: `-schedule:`.
    @discardableResult
    public override func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        let scheduled = ScheduledAction(work: action)
        enqueue(.block(scheduled))
        return scheduled
    }

    /// The wall clock.
    public override var now: Date {
        Date(timeIntervalSinceReferenceDate: clock.wallTime())
    }

    // MARK: The queue

    /// Appends `entry`, and starts a drain unless one is under way.
    private func enqueue(_ entry: Entry) {
        let start = state.withLock { state in
            state.waiting.append(entry)
            defer { state.isDraining = true }
            return !state.isDraining
        }
        if start { startDrain() }
    }

    /// Lends the queue to the actor: a task that runs the waiting blocks isolated to it.
    ///
    /// Detached: a `Task { }` would copy the task-local values and priority of whichever caller
    /// happened to start the drain (or of the drain before it) into every block it runs, blocks
    /// scheduled from elsewhere among them; a queue's blocks see none of their schedulers' task
    /// locals, and neither do these.
    private func startDrain() {
        let actor = actor
        Task.detached { await self.drain(isolatedTo: actor) }
    }

    /// Runs the entries that were waiting when it started, in order; then starts a new drain if
    /// more came meanwhile, else lets the next `schedule` start one.
    private func drain(isolatedTo actor: isolated any Actor) {
        var budget = state.withLock { $0.waiting.count - $0.head }
        while budget > 0, let entry = state.withLock({ $0.takeFirst() }) {
            budget -= 1
            switch entry {
            case let .block(action): action.run(on: self)
            case let .dated(ticket): dated.drain(through: ticket, as: self)
            }
        }
        let more = state.withLock { state in
            state.compact()
            if state.head == state.waiting.count { state.isDraining = false }
            return state.isDraining
        }
        if more { startDrain() }
    }

    // MARK: Dated blocks

    @discardableResult
    public override func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        scheduleDated(after: date, action)
    }

    @discardableResult
    public override func schedule(afterDelay delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        scheduleDated(afterDelay: delay, action)
    }

    @discardableResult
    public override func schedule(
        after date: Date,
        repeatingEvery interval: TimeInterval,
        leeway: TimeInterval = 0,
        _ action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        scheduleDated(after: date, repeatingEvery: interval, leeway: leeway, action)
    }

    func enqueueDated(
        _ action: @escaping @Sendable () -> Void,
        at time: ScheduledTime,
        repeatingEvery interval: TimeInterval?,
        leeway: TimeInterval
    ) -> Disposable {
        dated.enqueue(action, at: time, repeatingEvery: interval, leeway: leeway, for: self)
    }

    var timerQueue: DispatchQueue {
        .global()
    }

    func drainDated(through ticket: UInt64?) {
        enqueue(.dated(through: ticket))
    }

    func datedBlockDisposed() {
        dated.blockDisposed()
    }
}

extension ActorScheduler {
    /// What waits in the queue.
    private enum Entry {
        /// A block given to `schedule(_:)`.
        case block(ScheduledAction)
        /// A drain of the dated blocks: for the timer (`nil`) or for a block due when scheduled.
        case dated(through: UInt64?)
    }

    private struct State {
        /// The entries not yet run start at `head`.
        var waiting: [Entry] = []
        var head = 0
        /// Whether a task is draining the queue, or is about to.
        var isDraining = false

        /// Removes and returns the first entry waiting.
        mutating func takeFirst() -> Entry? {
            guard head < waiting.count else { return nil }
            defer { head += 1 }
            return waiting[head]
        }

        /// Drops the entries already run; O(1) amortized, since it copies only once at least half
        /// the array has been run.
        mutating func compact() {
            guard head > 0, head * 2 >= waiting.count else { return }
            waiting.removeFirst(head)
            head = 0
        }
    }
}

/// The actor of ``ActorScheduler/init(executor:name:)``: it runs on the executor given.
private actor ExecutorActor {
    private let executor: any SerialExecutor

    init(_ executor: any SerialExecutor) {
        self.executor = executor
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }
}
