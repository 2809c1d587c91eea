import Disposables
import Foundation

/// Runs every block inline; see ``Scheduler/immediate``.
///
/// RAC 2.5: `RACImmediateScheduler`.
final class ImmediateScheduler: Scheduler, @unchecked Sendable {
    static let shared = ImmediateScheduler()

    private init() {
        super.init(name: "ReactiveCocoaSwift.immediate")
    }

    @discardableResult
    override func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        action()
        return nil
    }

    /// Blocks the calling thread until `date`, then runs `action`; see ``Scheduler/immediate``.
    ///
    /// The wait is measured on a monotonic clock from the moment it starts. A date more than
    /// ``QueueScheduler/longestInterval`` off never comes: `action` is not run, and waits, held by
    /// the disposable returned, until disposed. A date whose time is NaN stops the program.
    @discardableResult
    override func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        checkDate(date, of: "Scheduler.immediate.schedule(after:_:)")
        return wait(date.timeIntervalSinceNow, thenRun: action)
    }

    /// Blocks the calling thread for `delay` seconds, measured on a monotonic clock, then runs
    /// `action`; a delay longer than ``QueueScheduler/longestInterval`` never comes, as in
    /// ``schedule(after:_:)``. A NaN delay stops the program.
    @discardableResult
    override func schedule(afterDelay delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        checkDelay(delay, of: "Scheduler.immediate.schedule(afterDelay:_:)")
        return wait(delay, thenRun: action)
    }

    @discardableResult
    override func schedule(
        after date: Date,
        repeatingEvery interval: TimeInterval,
        leeway: TimeInterval,
        _ action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        badInput("Scheduler.immediate.schedule(after:repeatingEvery:leeway:_:): immediate does not support repeating schedules, got an interval of \(interval)")
    }

    /// Sleeps for `delay` seconds and runs `action`, returning `nil`; or, for a delay that never
    /// comes, returns `action` unrun, kept until disposed.
    private func wait(_ delay: TimeInterval, thenRun action: @escaping @Sendable () -> Void) -> Disposable? {
        guard delay < longestWait else { return ScheduledAction(work: action) }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        action()
        return nil
    }

    /// A plain loop: each synchronous `reschedule` adds one more turn.
    @discardableResult
    override func scheduleRecursive(
        _ action: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
    ) -> Disposable? {
        let remaining = RescheduleCounter(1)
        let reschedule: @Sendable () -> Void = { _ = remaining.addOne() }
        while remaining.takeOne() {
            action(reschedule)
        }
        return nil
    }
}
