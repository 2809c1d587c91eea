import Disposables
import Dispatch
import Foundation

/// The dated blocks of a ``QueueScheduler`` or an ``ActorScheduler``, behind a lock of their own:
/// the queue they wait in (a ``DatedQueue``), the timer that wakes the scheduler for the first of
/// them, and the scheduler itself while any waits.
///
/// The two schedulers differ only in where a drain of the blocks due runs (the queue, the actor),
/// which each says as a ``DatedBlockOwner``. The clocks are read outside the lock; no block runs
/// under it.
struct DatedBlocks: ~Copyable {
    private let state = Lock(State())
    /// The clocks the scheduler reads.
    private let clock: any SchedulerClock

    /// The dated blocks of a scheduler that reads `clock`.
    init(clock: any SchedulerClock) {
        self.clock = clock
    }

    deinit {
        state.withLock { $0.timer }?.cancel()
    }

    /// Puts `action` in the queue for `time` on behalf of `owner`, reading the clocks once,
    /// outside the lock; a block due at once gets a drain of its own from `owner`, behind what
    /// `owner` queued before it.
    borrowing func enqueue(
        _ action: @escaping @Sendable () -> Void,
        at time: ScheduledTime,
        repeatingEvery interval: TimeInterval?,
        leeway: TimeInterval,
        for owner: some DatedBlockOwner
    ) -> Disposable {
        let scheduled = DatedAction(work: action, scheduler: owner)
        let reading = time.read(clock)
        let wake = state.withLock { state in
            let due = time.deadline(reading, in: &state.queue)
            let wake = state.queue.insert(scheduled, at: due, repeatingEvery: interval, leeway: leeway, now: reading.monotonic)
            if state.keptAlive == nil { state.keptAlive = owner }
            state.setTimer(wake, for: owner)
            return wake
        }
        if case let .drain(through) = wake { owner.drainDated(through: through) }
        return scheduled
    }

    /// Runs, in order, the dated blocks due, as `owner`'s; where `owner` drains them, from the
    /// timer (`ticket` is `nil`) or for the `ticket`-th block, which was due when scheduled.
    borrowing func drain(through ticket: UInt64?, as owner: some DatedBlockOwner) {
        let clock = clock
        let reading = clock.monotonicTime()
        var drain: DatedQueue.Drain?
        while true {
            // `released` is let go of here, outside the lock.
            let (step, released) = state.withLock { state -> (DatedQueue.Step, (any DatedBlockOwner)?) in
                var current = drain ?? state.queue.startDrain(now: reading, fromTimer: ticket == nil)
                defer { drain = current }
                let step = state.queue.next(through: ticket, in: &current) { clock.monotonicTime() }
                guard case let .stop(wake) = step else { return (step, nil) }
                state.setTimer(wake, for: owner)
                return (step, state.queue.isEmpty ? state.keptAlive.take() : nil)
            }
            switch step {
            case let .run(action, repeating: false):
                action.run(on: owner)
            case let .run(action, repeating: true):
                action.runRepeating(on: owner)
            case .stop:
                _ = released
                return
            }
        }
    }

    /// A block was disposed: the queue may drop it, and let the scheduler go when empty.
    borrowing func blockDisposed() {
        let released = state.withLock { state -> (any DatedBlockOwner)? in
            state.queue.blockDisposed()
            return state.queue.isEmpty ? state.keptAlive.take() : nil
        }
        _ = released
    }
}

extension DatedBlocks {
    /// What the lock guards.
    private struct State {
        var queue = DatedQueue()
        /// The timer set for the first block whose date has not come; made when first needed.
        var timer: DispatchSourceTimer?
        /// The scheduler itself while dated blocks wait, as a dispatch timer would hold it: a
        /// scheduler let go of still runs the blocks it was given.
        var keptAlive: (any DatedBlockOwner)?

        /// Sets the timer if `wake` says so, making it on first use.
        mutating func setTimer(_ wake: DatedQueue.Wake, for owner: some DatedBlockOwner) {
            guard case let .timer(due, leeway) = wake else { return }
            let timer = self.timer ?? Self.makeTimer(for: owner)
            self.timer = timer
            timer.schedule(deadline: .at(monotonic: due), repeating: .never, leeway: .nanoseconds(nanoseconds(leeway)))
        }

        private static func makeTimer(for owner: some DatedBlockOwner) -> DispatchSourceTimer {
            let timer = DispatchSource.makeTimerSource(queue: owner.timerQueue)
            timer.setEventHandler { [weak owner] in owner?.drainDated(through: nil) }
            timer.resume()
            return timer
        }
    }
}

/// A scheduler whose dated blocks are a ``DatedBlocks``: ``QueueScheduler``, ``ActorScheduler``.
protocol DatedBlockOwner: Scheduler, Sendable {
    /// The queue the timer fires on.
    var timerQueue: DispatchQueue { get }

    /// Has the dated blocks due run where this scheduler runs blocks
    /// (``DatedBlocks/drain(through:as:)``): for the timer, which fired on ``timerQueue``
    /// (`ticket` is `nil`), or for the `ticket`-th block, which was due when scheduled, after the
    /// blocks queued before it.
    func drainDated(through ticket: UInt64?)

    /// A dated block was disposed: the queue may drop it, and let the scheduler go when empty.
    func datedBlockDisposed()
}

/// A block for a date on a scheduler that keeps a ``DatedQueue`` (``QueueScheduler``,
/// ``ActorScheduler``): disposing it also tells the scheduler, which drops disposed blocks from its
/// queue.
final class DatedAction: ScheduledAction, @unchecked Sendable {
    /// Weak: whoever keeps the disposable does not keep the scheduler.
    private weak var scheduler: (any DatedBlockOwner)?

    init(work: @escaping @Sendable () -> Void, scheduler: any DatedBlockOwner) {
        self.scheduler = scheduler
        super.init(work: work)
    }

    override func dispose() {
        guard !isDisposed else { return }
        super.dispose()
        scheduler?.datedBlockDisposed()
    }
}
