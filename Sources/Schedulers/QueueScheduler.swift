import Disposables
import Dispatch
import Foundation

/// A serial scheduler on a dispatch queue of its own, which may target another queue.
///
/// Blocks run one at a time, in the order they were scheduled, with the scheduler as
/// ``Scheduler/current``.
///
/// ```swift
/// let scheduler = QueueScheduler(name: "com.example.parser")
/// scheduler.schedule { print("on the parser's queue") }
/// ```
///
/// RAC 2.5: `RACTargetQueueScheduler` (`-initWithName:targetQueue:`), `RACQueueScheduler`.
public final class QueueScheduler: Scheduler, @unchecked Sendable {
    /// The serial queue blocks run on.
    ///
    /// RAC 2.5: `RACQueueScheduler`'s `queue`.
    public let queue: DispatchQueue

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

    /// The longest repeating interval Dispatch can count, in seconds: 2^63 nanoseconds, about 292
    /// years. A longer one repeats never.
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

    /// Queues `action` on the serial queue at `date` (wall-clock time).
    @discardableResult
    public override func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        let scheduled = ScheduledAction(work: action)
        queue.asyncAfter(wallDeadline: .after(date)) { scheduled.run(on: self) }
        return scheduled
    }

    /// Runs `action` on the serial queue at `date`, then every `interval` seconds, from a
    /// dispatch timer that stops when the returned disposable is disposed.
    ///
    /// An interval longer than Dispatch can count (``longestInterval``, about 292 years) runs
    /// `action` once: its next run would come later than any timer can wait.
    @discardableResult
    public override func schedule(
        after date: Date,
        repeatingEvery interval: TimeInterval,
        leeway: TimeInterval = 0,
        _ action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        precondition(interval > 0, "schedule(after:repeatingEvery:) needs a positive interval, got \(interval)")
        precondition(leeway >= 0, "schedule(after:repeatingEvery:leeway:) needs a leeway of zero or more, got \(leeway)")
        let timer = RepeatingTimer(queue: queue)
        timer.start(at: .after(date), every: interval, leeway: leeway) {
            self.performAsCurrentScheduler(action)
        }
        return Disposable { timer.cancel() }
    }
}

/// A dispatch timer that stops, and releases its handler, when cancelled.
private final class RepeatingTimer: @unchecked Sendable {
    private let source: DispatchSourceTimer

    init(queue: DispatchQueue) {
        source = DispatchSource.makeTimerSource(queue: queue)
    }

    func start(at deadline: DispatchWallTime, every interval: TimeInterval, leeway: TimeInterval, _ handler: @escaping @Sendable () -> Void) {
        // Dispatch traps on intervals it cannot count in 64-bit nanoseconds.
        let repeating: DispatchTimeInterval = interval >= QueueScheduler.longestInterval
            ? .never
            : .nanoseconds(Self.nanoseconds(interval))
        source.schedule(wallDeadline: deadline, repeating: repeating, leeway: .nanoseconds(Self.nanoseconds(leeway)))
        source.setEventHandler { [source] in
            // A firing already queued when `cancel()` was called must not run.
            if !source.isCancelled { handler() }
        }
        source.resume()
    }

    func cancel() {
        source.cancel()
    }

    private static func nanoseconds(_ seconds: TimeInterval) -> Int {
        seconds * 1e9 >= Double(Int.max) ? Int.max : Int(seconds * 1e9)
    }
}

extension DispatchWallTime {
    /// The wall-clock deadline of `date`; a date in the past means now.
    static func after(_ date: Date) -> DispatchWallTime {
        .now() + max(0, date.timeIntervalSinceNow)
    }
}
