import Disposables
import Dispatch
import Foundation

/// A serial scheduler on a dispatch queue of its own, which may target another queue.
///
/// Blocks run one at a time, with the scheduler as ``Scheduler/current``: those given to
/// ``schedule(_:)`` in the order they were scheduled, those for a date in the order of their
/// dates, and blocks for the same date in the order they were scheduled, whatever the machine's
/// load. A block for a date runs when the date has come and the queue is free; one whose date has
/// already come when it is scheduled takes its turn then, as ``schedule(_:)`` would.
///
/// Delays are measured on a monotonic clock, which never steps: a date is turned into a monotonic
/// deadline when it is scheduled, as Dispatch's `asyncAfter(deadline:)` does, so a wall clock set
/// back (an NTP correction, a user changing the time) never makes a block run early, and one set
/// forward never makes a waiting block run before its time. ``Scheduler/now`` is the wall clock.
/// A date, delay, interval or leeway that is NaN stops the program with a message naming the
/// method and the value; a date or delay more than ``longestInterval`` (about 292 years) off,
/// `Date.distantFuture` and infinity among them, never comes: its block waits, with no timer set,
/// until it is disposed.
///
/// ```swift
/// let scheduler = QueueScheduler(name: "com.example.parser")
/// scheduler.schedule { print("on the parser's queue") }
/// ```
///
/// RAC 2.5: `RACTargetQueueScheduler` (`-initWithName:targetQueue:`), `RACQueueScheduler`.
public final class QueueScheduler: Scheduler, DatedBlockOwner, @unchecked Sendable {
    /// The serial queue blocks run on.
    ///
    /// RAC 2.5: `RACQueueScheduler`'s `queue`.
    public let queue: DispatchQueue

    /// The blocks scheduled for a date, in the order they run, and the timer for the first.
    private let dated = Lock(Dated())

    /// The clocks the scheduler reads.
    private let clock: any SchedulerClock

    /// A serial scheduler called `name` whose queue targets `targetQueue`.
    ///
    /// RAC 2.5: `-[RACTargetQueueScheduler initWithName:targetQueue:]`.
    public convenience init(name: String, targetQueue: DispatchQueue) {
        self.init(name: name, queue: DispatchQueue(label: name, target: targetQueue), clock: SystemClock())
    }

    /// A serial scheduler called `name` on a new queue of its own.
    public convenience override init(name: String) {
        self.init(name: name, queue: DispatchQueue(label: name), clock: SystemClock())
    }

    /// A serial scheduler called `name` on a new queue of its own (targeting `targetQueue` when
    /// given) that reads `clock`: for tests, whose clock's wall clock may step.
    package convenience init(name: String, targetQueue: DispatchQueue? = nil, clock: any SchedulerClock) {
        self.init(name: name, queue: DispatchQueue(label: name, target: targetQueue), clock: clock)
    }

    /// A scheduler on `queue` itself, which must be serial.
    private init(name: String, queue: DispatchQueue, clock: any SchedulerClock) {
        self.queue = queue
        self.clock = clock
        super.init(name: name)
    }

    /// The longest delay a dispatch timer can count, in seconds: 2^63 nanoseconds, about 292
    /// years. A date or delay further off never comes, and a longer repeating interval repeats
    /// never: its next run would come after the last moment Dispatch can wait for.
    ///
    /// RAC 2.5: none; `RACQueueScheduler` hands Dispatch any interval and traps on these.
    public static let longestInterval: TimeInterval = longestWait

    /// The scheduler of the main queue: ``Scheduler/main``.
    static let mainQueue = QueueScheduler(name: "ReactiveCocoaSwift.main", queue: .main, clock: SystemClock())

    /// The wall clock.
    public override var now: Date {
        Date(timeIntervalSinceReferenceDate: clock.wallTime())
    }

    /// Queues `action` on the serial queue.
    @discardableResult
    public override func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        let scheduled = ScheduledAction(work: action)
        queue.async { scheduled.run(on: self) }
        return scheduled
    }

    /// Runs `action` on the serial queue at `date` (wall-clock time), or as soon as the queue is
    /// free after it.
    ///
    /// The date becomes a deadline on the monotonic clock as `action` is scheduled: `action`
    /// waits as long as the wall clock had to go to `date`, however the wall clock steps
    /// meanwhile. Blocks for a date run in the order of their dates, and blocks for the same date
    /// in the order they were scheduled, whatever the machine's load. A date already past when
    /// `action` is scheduled counts as that moment: `action` runs after the blocks scheduled
    /// before it that are due by then, and before every block scheduled after it, those of
    /// ``schedule(_:)`` included. A date more than ``longestInterval`` off (`.distantFuture`, a
    /// date at infinity) never comes: `action` waits, with no timer set, until disposed. A date
    /// whose time is NaN stops the program. Disposing the returned disposable before `action`
    /// starts cancels it and releases it at once.
    ///
    /// RAC 2.5: `-[RACQueueScheduler after:schedule:]`, which leaves the order of equal dates to
    /// `dispatch_after` and waits on the wall clock; here the scheduler keeps one queue of dated
    /// blocks and one timer, on the monotonic clock, for the first of them.
    @discardableResult
    public override func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        checkDate(date, of: "QueueScheduler.schedule(after:_:)")
        return enqueue(action, at: .date(date.timeIntervalSinceReferenceDate), repeatingEvery: nil, leeway: 0)
    }

    /// Runs `action` on the serial queue `delay` seconds from now, measured on the monotonic
    /// clock, or as soon as the queue is free after that.
    ///
    /// A wall clock that steps meanwhile neither hastens nor holds up `action`. A delay of zero
    /// or less is due now, as a date past is in ``schedule(after:_:)``; a delay longer than
    /// ``longestInterval`` (infinity among them) never comes: `action` waits, with no timer set,
    /// until disposed. A NaN delay stops the program.
    ///
    /// RAC 2.5: `-[RACScheduler afterDelay:schedule:]`, which counts from the wall clock.
    @discardableResult
    public override func schedule(afterDelay delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        checkDelay(delay, of: "QueueScheduler.schedule(afterDelay:_:)")
        return enqueue(action, at: .delay(delay), repeatingEvery: nil, leeway: 0)
    }

    /// Runs `action` on the serial queue at `date`, then every `interval` seconds, until the
    /// returned disposable is disposed.
    ///
    /// Each run takes its place among the dated blocks as ``schedule(after:_:)`` does, its
    /// deadline one interval after the last on the monotonic clock; runs missed while the queue
    /// was busy are skipped, as a dispatch timer skips them. An interval longer than
    /// ``longestInterval`` (about 292 years; infinity among them) runs `action` once: its next
    /// run would come later than any timer can wait. A NaN date, an interval that is not
    /// positive (NaN among them) and a leeway that is negative or NaN stop the program.
    ///
    /// RAC 2.5: `-[RACQueueScheduler after:repeatingEvery:withLeeway:schedule:]`, a dispatch timer.
    @discardableResult
    public override func schedule(
        after date: Date,
        repeatingEvery interval: TimeInterval,
        leeway: TimeInterval = 0,
        _ action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        checkDate(date, of: "QueueScheduler.schedule(after:repeatingEvery:leeway:_:)")
        checkRepetition(every: interval, leeway: leeway, of: "QueueScheduler.schedule(after:repeatingEvery:leeway:_:)")
        return enqueue(action, at: .date(date.timeIntervalSinceReferenceDate), repeatingEvery: interval, leeway: leeway)
    }

    /// Puts `action` in the queue of dated blocks, reading the clocks once, outside the lock.
    private func enqueue(
        _ action: @escaping @Sendable () -> Void,
        at time: ScheduledTime,
        repeatingEvery interval: TimeInterval?,
        leeway: TimeInterval
    ) -> Disposable {
        let scheduled = DatedAction(work: action, scheduler: self)
        let reading = time.read(clock)
        let wake = dated.withLock { state in
            let due = time.deadline(reading, in: &state.queue)
            let wake = state.queue.insert(scheduled, at: due, repeatingEvery: interval, leeway: leeway, now: reading.monotonic)
            if state.keptAlive == nil { state.keptAlive = self }
            state.setTimer(wake, for: self)
            return wake
        }
        if case let .drain(through) = wake {
            queue.async { self.drain(through: through) }
        }
        return scheduled
    }

    /// Runs, in order, the dated blocks due; on the serial queue, from the timer (`ticket` is
    /// `nil`) or queued for the `ticket`-th block, which was due when scheduled.
    private func drain(through ticket: UInt64?) {
        let clock = clock
        let reading = clock.monotonicTime()
        var drain: DatedQueue.Drain?
        while true {
            // `released` is let go of here, outside the lock.
            let (step, released) = dated.withLock { state -> (DatedQueue.Step, QueueScheduler?) in
                var current = drain ?? state.queue.startDrain(now: reading, fromTimer: ticket == nil)
                defer { drain = current }
                let step = state.queue.next(through: ticket, in: &current) { clock.monotonicTime() }
                guard case let .stop(wake) = step else { return (step, nil) }
                state.setTimer(wake, for: self)
                return (step, state.queue.isEmpty ? state.keptAlive.take() : nil)
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
        let released = dated.withLock { state -> QueueScheduler? in
            state.queue.blockDisposed()
            return state.queue.isEmpty ? state.keptAlive.take() : nil
        }
        _ = released
    }

    deinit {
        dated.withLock { $0.timer }?.cancel()
    }
}

extension QueueScheduler {
    /// The dated blocks of a scheduler, and what wakes it for them.
    private struct Dated {
        var queue = DatedQueue()
        /// The timer set for the first block whose date has not come; made when first needed.
        var timer: DispatchSourceTimer?
        /// The scheduler itself while dated blocks wait, as a dispatch timer would hold it: a
        /// scheduler let go of still runs the blocks it was given.
        var keptAlive: QueueScheduler?

        /// Sets the timer if `wake` says so, making it on first use.
        mutating func setTimer(_ wake: DatedQueue.Wake, for scheduler: QueueScheduler) {
            guard case let .timer(due, leeway) = wake else { return }
            let timer = self.timer ?? Self.makeTimer(for: scheduler)
            self.timer = timer
            timer.schedule(deadline: .at(monotonic: due), repeating: .never, leeway: .nanoseconds(nanoseconds(leeway)))
        }

        private static func makeTimer(for scheduler: QueueScheduler) -> DispatchSourceTimer {
            let timer = DispatchSource.makeTimerSource(queue: scheduler.queue)
            timer.setEventHandler { [weak scheduler] in scheduler?.drain(through: nil) }
            timer.resume()
            return timer
        }
    }
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

/// A scheduler whose dated blocks are ``DatedAction``s.
protocol DatedBlockOwner: AnyObject, Sendable {
    /// A dated block was disposed: the queue may drop it, and let the scheduler go when empty.
    func datedBlockDisposed()
}
