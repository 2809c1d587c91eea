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

    @discardableResult
    override func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        Thread.sleep(until: date)
        action()
        return nil
    }

    @discardableResult
    override func schedule(
        after date: Date,
        repeatingEvery interval: TimeInterval,
        leeway: TimeInterval,
        _ action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        preconditionFailure("immediate does not support repeating schedules")
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
