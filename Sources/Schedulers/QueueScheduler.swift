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
public final class QueueScheduler: Scheduler, DatedScheduling, DatedBlockOwner, @unchecked Sendable {
    /// The serial queue blocks run on.
    ///
    /// RAC 2.5: `RACQueueScheduler`'s `queue`.
    public let queue: DispatchQueue

    /// The blocks scheduled for a date, in the order they run, and the timer for the first.
    private let dated: DatedBlocks

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
        dated = DatedBlocks(clock: clock)
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
        queue
    }

    func drainDated(through ticket: UInt64?) {
        // The timer fires on the serial queue itself.
        guard let ticket else { return dated.drain(through: nil, as: self) }
        queue.async { self.dated.drain(through: ticket, as: self) }
    }

    func datedBlockDisposed() {
        dated.blockDisposed()
    }
}
