import Disposables
import Foundation

/// Runs blocks inline when a scheduler is current, else on a background scheduler; see
/// ``Scheduler/subscription``.
///
/// RAC 2.5: `RACSubscriptionScheduler`.
final class SubscriptionScheduler: Scheduler, @unchecked Sendable {
    static let shared = SubscriptionScheduler()

    private let background = Scheduler.background(name: "ReactiveCocoaSwift.subscription")

    private init() {
        super.init(name: "ReactiveCocoaSwift.subscription")
    }

    @discardableResult
    override func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        guard Scheduler.current != nil else { return background.schedule(action) }
        action()
        return nil
    }

    @discardableResult
    override func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        (Scheduler.current ?? background).schedule(after: date, action)
    }

    @discardableResult
    override func schedule(afterDelay delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        (Scheduler.current ?? background).schedule(afterDelay: delay, action)
    }

    @discardableResult
    override func schedule(
        after date: Date,
        repeatingEvery interval: TimeInterval,
        leeway: TimeInterval,
        _ action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        (Scheduler.current ?? background).schedule(after: date, repeatingEvery: interval, leeway: leeway, action)
    }
}
