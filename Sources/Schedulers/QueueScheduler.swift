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

    /// A serial scheduler called `name` whose queue targets `targetQueue`.
    ///
    /// RAC 2.5: `-[RACTargetQueueScheduler initWithName:targetQueue:]`.
    public init(name: String, targetQueue: DispatchQueue) {
        queue = DispatchQueue(label: name, target: targetQueue)
        super.init(name: name)
    }

    /// A serial scheduler called `name` on a new queue of its own.
    public override init(name: String) {
        queue = DispatchQueue(label: name)
        super.init(name: name)
    }

    /// A scheduler on `queue` itself, which must be serial.
    private init(name: String, serialQueue queue: DispatchQueue) {
        self.queue = queue
        super.init(name: name)
    }

    /// The longest repeating interval a dispatch timer can count, in seconds: 2^63 nanoseconds,
    /// about 292 years. A longer one repeats never: its next run would come after the last date
    /// Dispatch can wait for.
    ///
    /// RAC 2.5: none; `RACQueueScheduler` hands Dispatch any interval and traps on these.
    public static let longestInterval: TimeInterval = Double(Int64.max) / 1e9

    /// The scheduler of the main queue: ``Scheduler/main``.
    static let mainQueue = QueueScheduler(name: "ReactiveCocoaSwift.main", serialQueue: .main)

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
    /// Blocks for a date run in the order of their dates, and blocks for the same date in the
    /// order they were scheduled, whatever the machine's load. A date already past when `action`
    /// is scheduled counts as that moment: `action` runs after the blocks scheduled before it
    /// that are due by then, and before every block scheduled after it, those of
    /// ``schedule(_:)`` included. Disposing the returned disposable before `action` starts
    /// cancels it and releases it at once.
    ///
    /// RAC 2.5: `-[RACQueueScheduler after:schedule:]`, which leaves the order of equal dates to
    /// `dispatch_after`; here the scheduler keeps one queue of dated blocks and one timer for
    /// the first of them.
    @discardableResult
    public override func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        enqueue(action, at: date, repeatingEvery: nil, leeway: 0)
    }

    /// Runs `action` on the serial queue at `date`, then every `interval` seconds, until the
    /// returned disposable is disposed.
    ///
    /// Each run takes its place among the dated blocks as ``schedule(after:_:)`` does, its date
    /// one interval after the last; runs missed while the queue was busy are skipped, as a
    /// dispatch timer skips them. An interval longer than ``longestInterval`` (about 292 years)
    /// runs `action` once: its next run would come later than any timer can wait.
    ///
    /// RAC 2.5: `-[RACQueueScheduler after:repeatingEvery:withLeeway:schedule:]`, a dispatch timer.
    @discardableResult
    public override func schedule(
        after date: Date,
        repeatingEvery interval: TimeInterval,
        leeway: TimeInterval = 0,
        _ action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        precondition(interval > 0, "schedule(after:repeatingEvery:) needs a positive interval, got \(interval)")
        precondition(leeway >= 0, "schedule(after:repeatingEvery:leeway:) needs a leeway of zero or more, got \(leeway)")
        return enqueue(action, at: date, repeatingEvery: interval, leeway: leeway)
    }

    /// Puts `action` in the queue of dated blocks, reading the clock once.
    private func enqueue(
        _ action: @escaping @Sendable () -> Void,
        at date: Date,
        repeatingEvery interval: TimeInterval?,
        leeway: TimeInterval
    ) -> Disposable {
        let scheduled = DatedAction(work: action, scheduler: self)
        let now = Date.timeIntervalSinceReferenceDate
        let wake = dated.withLock { state in
            let wake = state.queue.insert(scheduled, at: date.timeIntervalSinceReferenceDate, repeatingEvery: interval, leeway: leeway, now: now)
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
        let reading = Date.timeIntervalSinceReferenceDate
        var drain: DatedQueue.Drain?
        while true {
            // `released` is let go of here, outside the lock.
            let (step, released) = dated.withLock { state -> (DatedQueue.Step, QueueScheduler?) in
                var current = drain ?? state.queue.startDrain(now: reading, fromTimer: ticket == nil)
                defer { drain = current }
                let step = state.queue.next(through: ticket, in: &current) { Date.timeIntervalSinceReferenceDate }
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
            timer.schedule(wallDeadline: .at(due), repeating: .never, leeway: .nanoseconds(nanoseconds(leeway)))
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

/// `seconds` in whole nanoseconds, as many as Dispatch can count.
func nanoseconds(_ seconds: TimeInterval) -> Int {
    seconds * 1e9 >= Double(Int.max) ? Int.max : Int(seconds * 1e9)
}

extension DispatchWallTime {
    /// The wall-clock deadline of `due`, in seconds since the reference date, from the date
    /// alone: no clock is read, so equal dates give equal deadlines. Rounded up, and a
    /// microsecond later, so that when the timer fires the clock reads `due` or later.
    static func at(_ due: TimeInterval) -> DispatchWallTime {
        let nanoseconds = ((due + Date.timeIntervalBetween1970AndReferenceDate) * 1e9).rounded(.up) + 1_000
        // Dispatch counts wall time in signed 64-bit nanoseconds since 1970: until 2262.
        guard nanoseconds < 9e18 else { return .distantFuture }
        let whole = Int64(max(0, nanoseconds))
        // A 32-bit `time_t` ends in 2038.
        guard let seconds = time_t(exactly: whole / 1_000_000_000) else { return .distantFuture }
        return DispatchWallTime(timespec: timespec(tv_sec: seconds, tv_nsec: Int(whole % 1_000_000_000)))
    }
}
