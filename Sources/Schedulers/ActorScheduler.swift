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
public final class ActorScheduler: Scheduler, DatedBlockOwner, @unchecked Sendable {
    /// The actor the blocks run isolated to.
    ///
    /// RAC 2.5: none; `RACQueueScheduler`'s `queue` plays this part for a queue.
    public let actor: any Actor

    /// The blocks waiting, the dated ones and what wakes the scheduler for them: all the mutable
    /// state there is, behind a lock, which is why the class can be `Sendable` (`@unchecked` as
    /// its superclass is).
    private let state = Lock(State())

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

    /// Runs `action` on the actor at `date`, or as soon as it can after it.
    ///
    /// The date becomes a deadline on the monotonic clock as `action` is scheduled, as on a
    /// ``QueueScheduler``. A date already past when `action` is scheduled counts as that moment:
    /// `action` runs after the blocks scheduled before it that are due by then, and before every
    /// block scheduled after it. A date more than ``QueueScheduler/longestInterval`` off
    /// (`.distantFuture`, a date at infinity) never comes: `action` waits until disposed. A date
    /// whose time is NaN stops the program.
    ///
    /// - Returns: A disposable that cancels `action` if it has not started yet.
    ///
    /// RAC 2.5: `-after:schedule:`.
    @discardableResult
    public override func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        checkDate(date, of: "ActorScheduler.schedule(after:_:)")
        return enqueueDated(action, at: .date(date.timeIntervalSinceReferenceDate), repeatingEvery: nil, leeway: 0)
    }

    /// Runs `action` on the actor `delay` seconds from now, measured on the monotonic clock, or
    /// as soon as it can after that.
    ///
    /// A delay of zero or less is due now; one longer than ``QueueScheduler/longestInterval``
    /// (infinity among them) never comes: `action` waits until disposed. A NaN delay stops the
    /// program.
    ///
    /// - Returns: A disposable that cancels `action` if it has not started yet.
    ///
    /// RAC 2.5: `-afterDelay:schedule:`.
    @discardableResult
    public override func schedule(afterDelay delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        checkDelay(delay, of: "ActorScheduler.schedule(afterDelay:_:)")
        return enqueueDated(action, at: .delay(delay), repeatingEvery: nil, leeway: 0)
    }

    /// Runs `action` on the actor at `date`, then every `interval` seconds, until the returned
    /// disposable is disposed.
    ///
    /// Runs missed while the actor was busy are skipped, as on a ``QueueScheduler``; an interval
    /// longer than ``QueueScheduler/longestInterval`` (infinity among them) runs `action` once.
    ///
    /// - Parameters:
    ///   - date: When the first run is due; not NaN.
    ///   - interval: Seconds between runs, on the monotonic clock; must be positive (not NaN).
    ///   - leeway: How late each run may be; zero or more (not NaN).
    ///   - action: The block to run.
    /// - Returns: A disposable that stops the schedule.
    ///
    /// RAC 2.5: `-after:repeatingEvery:withLeeway:schedule:`.
    @discardableResult
    public override func schedule(
        after date: Date,
        repeatingEvery interval: TimeInterval,
        leeway: TimeInterval = 0,
        _ action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        checkDate(date, of: "ActorScheduler.schedule(after:repeatingEvery:leeway:_:)")
        checkRepetition(every: interval, leeway: leeway, of: "ActorScheduler.schedule(after:repeatingEvery:leeway:_:)")
        return enqueueDated(action, at: .date(date.timeIntervalSinceReferenceDate), repeatingEvery: interval, leeway: leeway)
    }

    deinit {
        state.withLock { $0.timer }?.cancel()
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
            case let .dated(ticket): drainDated(through: ticket)
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

    /// Puts `action` in the queue of dated blocks, reading the clocks once, outside the lock.
    private func enqueueDated(
        _ action: @escaping @Sendable () -> Void,
        at time: ScheduledTime,
        repeatingEvery interval: TimeInterval?,
        leeway: TimeInterval
    ) -> Disposable {
        let scheduled = DatedAction(work: action, scheduler: self)
        let reading = time.read(clock)
        let wake = state.withLock { state in
            let due = time.deadline(reading, in: &state.dated)
            let wake = state.dated.insert(scheduled, at: due, repeatingEvery: interval, leeway: leeway, now: reading.monotonic)
            if state.keptAlive == nil { state.keptAlive = self }
            state.setTimer(wake, for: self)
            return wake
        }
        if case let .drain(through) = wake { enqueue(.dated(through: through)) }
        return scheduled
    }

    /// Runs, in order, the dated blocks due; on the actor, from the timer (`ticket` is `nil`) or
    /// for the `ticket`-th block, which was due when scheduled.
    private func drainDated(through ticket: UInt64?) {
        let clock = clock
        let reading = clock.monotonicTime()
        var drain: DatedQueue.Drain?
        while true {
            // `released` is let go of here, outside the lock.
            let (step, released) = state.withLock { state -> (DatedQueue.Step, ActorScheduler?) in
                var current = drain ?? state.dated.startDrain(now: reading, fromTimer: ticket == nil)
                defer { drain = current }
                let step = state.dated.next(through: ticket, in: &current) { clock.monotonicTime() }
                guard case let .stop(wake) = step else { return (step, nil) }
                state.setTimer(wake, for: self)
                return (step, state.dated.isEmpty ? state.keptAlive.take() : nil)
            }
            switch step {
            case let .run(action, repeating: false):
                action.run(on: self)
            case let .run(action, repeating: true):
                action.runRepeating(on: self)
            case .stop:
                _ = released
                return
            }
        }
    }

    /// A dated block was disposed: the queue may drop it, and let the scheduler go when empty.
    func datedBlockDisposed() {
        let released = state.withLock { state -> ActorScheduler? in
            state.dated.blockDisposed()
            return state.dated.isEmpty ? state.keptAlive.take() : nil
        }
        _ = released
    }

    /// The timer fired: the dated blocks due take their turn in the queue.
    fileprivate func timerFired() {
        enqueue(.dated(through: nil))
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
        var dated = DatedQueue()
        /// The timer set for the first dated block whose date has not come; made when needed.
        var timer: DispatchSourceTimer?
        /// The scheduler itself while dated blocks wait, as a dispatch timer would hold it.
        var keptAlive: ActorScheduler?

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

        /// Sets the timer if `wake` says so, making it on first use.
        mutating func setTimer(_ wake: DatedQueue.Wake, for scheduler: ActorScheduler) {
            guard case let .timer(due, leeway) = wake else { return }
            let timer = self.timer ?? Self.makeTimer(for: scheduler)
            self.timer = timer
            timer.schedule(deadline: .at(monotonic: due), repeating: .never, leeway: .nanoseconds(nanoseconds(leeway)))
        }

        private static func makeTimer(for scheduler: ActorScheduler) -> DispatchSourceTimer {
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.setEventHandler { [weak scheduler] in scheduler?.timerFired() }
            timer.resume()
            return timer
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
