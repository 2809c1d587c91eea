import Disposables
import Dispatch
import Foundation

/// Where and when work runs: inline, on a serial dispatch queue, on the main queue, or in virtual
/// time.
///
/// Every scheduler but ``immediate`` runs its blocks one at a time and becomes ``current`` while a
/// block runs. The `schedule` methods return a `Disposable` that cancels the work if it has not
/// started yet (and stops a repeating schedule), or `nil` when there is nothing left to cancel.
///
/// ```swift
/// let scheduler = Scheduler.background(priority: .low, name: "com.example.work")
/// scheduler.schedule {
///     // runs on a background thread; Scheduler.current === scheduler here
/// }
/// ```
///
/// To write a scheduler, subclass it, call ``init(name:)``, override ``schedule(_:)``,
/// ``schedule(after:_:)`` and ``schedule(after:repeatingEvery:leeway:_:)``, and run each block
/// through ``performAsCurrentScheduler(_:)``.
///
/// RAC 2.5: `RACScheduler`, `RACScheduler+Subclass.h`.
open class Scheduler: @unchecked Sendable, CustomStringConvertible {
    /// A name for debugging.
    ///
    /// RAC 2.5: `name`.
    public let name: String

    /// Sets up a scheduler called `name`; for subclasses.
    ///
    /// RAC 2.5: `-initWithName:`.
    public init(name: String) {
        self.name = name
    }

    /// The scheduler's idea of the present: the wall clock, or virtual time for ``TestScheduler``.
    ///
    /// ``schedule(afterDelay:_:)`` counts from it.
    open var now: Date {
        Date()
    }

    /// Runs `action` as soon as the scheduler can.
    ///
    /// - Returns: A disposable that cancels `action` if it has not started yet, or `nil` when the
    ///   action already ran (``immediate``).
    ///
    /// RAC 2.5: `-schedule:`.
    @discardableResult
    open func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        preconditionFailure("\(type(of: self)) must override Scheduler.schedule(_:)")
    }

    /// Runs `action` at `date`, or as soon as possible after it.
    ///
    /// A ``QueueScheduler`` (``main`` and ``background(priority:name:)`` are ones) and a
    /// ``TestScheduler`` run blocks in the order of their dates, and blocks for the same date in
    /// the order they were scheduled.
    ///
    /// - Returns: A disposable that cancels `action` if it has not started yet.
    ///
    /// RAC 2.5: `-after:schedule:`.
    @discardableResult
    open func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        preconditionFailure("\(type(of: self)) must override Scheduler.schedule(after:_:)")
    }

    /// Runs `action` at `date`, then every `interval` seconds, until the returned disposable is
    /// disposed.
    ///
    /// - Parameters:
    ///   - date: When the first run is due.
    ///   - interval: Seconds between runs; must be positive.
    ///   - leeway: How late each run may be, so the system can coalesce timers; zero or more.
    ///   - action: The block to run each time.
    /// - Returns: A disposable that stops the schedule.
    ///
    /// RAC 2.5: `-after:repeatingEvery:withLeeway:schedule:`.
    @discardableResult
    open func schedule(
        after date: Date,
        repeatingEvery interval: TimeInterval,
        leeway: TimeInterval = 0,
        _ action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        preconditionFailure("\(type(of: self)) must override Scheduler.schedule(after:repeatingEvery:leeway:_:)")
    }

    /// Runs `action`, then runs it again each time it calls `reschedule`, without growing the stack.
    ///
    /// A `reschedule` called while `action` runs is deferred until `action` returns, then scheduled
    /// afresh; one called later (from another thread, say) is scheduled at once. On a scheduler that
    /// runs blocks inline this is a loop, not recursion: a million synchronous reschedules use a
    /// constant amount of stack. Disposing the returned disposable stops further runs.
    ///
    /// ```swift
    /// var remaining = 3
    /// Scheduler.immediate.scheduleRecursive { reschedule in
    ///     remaining -= 1
    ///     if remaining > 0 { reschedule() }
    /// }
    /// // action ran 3 times
    /// ```
    ///
    /// - Returns: A disposable that stops the recursion, or `nil` when it already finished
    ///   (``immediate``).
    ///
    /// RAC 2.5: `-scheduleRecursiveBlock:`.
    @discardableResult
    open func scheduleRecursive(
        _ action: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
    ) -> Disposable? {
        RecursiveSchedule(scheduler: self, action: action).start()
    }

    /// Runs `block` with this scheduler as ``current``, then restores the previous one.
    ///
    /// RAC 2.5: `-performAsCurrentScheduler:`.
    public final func performAsCurrentScheduler(_ block: () -> Void) {
        let previous = Scheduler.currentSlot.value
        Scheduler.currentSlot.value = self
        defer { Scheduler.currentSlot.value = previous }
        block()
    }

    /// The scheduler's type and name, such as `<QueueScheduler: com.example.parser>`.
    public var description: String {
        "<\(type(of: self)): \(name)>"
    }
}

extension Scheduler {
    /// Runs `action` `delay` seconds after ``now``.
    ///
    /// RAC 2.5: `-afterDelay:schedule:`.
    @discardableResult
    public func schedule(afterDelay delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        schedule(after: now.addingTimeInterval(delay), action)
    }

    /// The scheduler running the current block, if any.
    ///
    /// Set (per thread) while any scheduler but ``immediate`` runs a block; on the main thread
    /// with nothing set it is ``main``; elsewhere `nil`.
    ///
    /// RAC 2.5: `+currentScheduler`.
    @inlinable
    public static var current: Scheduler? {
        if let scheduler = currentSlot.value { return scheduler }
        return currentOnMainThread()
    }

    /// `current` when nothing is set on this thread: `main` on the main thread, else `nil`.
    @usableFromInline
    static func currentOnMainThread() -> Scheduler? {
        guard MainThread.isCurrent else { return nil }
        // The main thread stays the main thread: remember `main` in the slot, so the next read is
        // one thread-local load. `performAsCurrentScheduler` restores it like any other value.
        currentSlot.value = main
        return main
    }

    /// Runs blocks inline, on the calling thread, at once.
    ///
    /// It does not become ``current``, its `schedule(_:)` returns `nil`, its
    /// `schedule(after:_:)` blocks the calling thread until the date, and a repeating schedule is a
    /// precondition failure, as in RAC 2.5.
    ///
    /// RAC 2.5: `+immediateScheduler`.
    public static var immediate: Scheduler { ImmediateScheduler.shared }

    /// Runs blocks on the main dispatch queue.
    ///
    /// RAC 2.5: `+mainThreadScheduler`.
    public static var main: Scheduler { QueueScheduler.mainQueue }

    /// The scheduler subscriptions go through: inline when a scheduler is ``current`` (or on the
    /// main thread), otherwise on a background scheduler.
    ///
    /// RAC 2.5: `+subscriptionScheduler`.
    public static var subscription: Scheduler { SubscriptionScheduler.shared }

    /// A new serial scheduler on a global queue of the given priority.
    ///
    /// RAC 2.5: `+scheduler`, `+schedulerWithPriority:`, `+schedulerWithPriority:name:`.
    public static func background(
        priority: SchedulerPriority = .default,
        name: String = "ReactiveCocoaSwift.background"
    ) -> Scheduler {
        QueueScheduler(name: name, targetQueue: .global(qos: priority.qos))
    }

    /// The scheduler set as current on this thread by `performAsCurrentScheduler(_:)`.
    @usableFromInline
    static let currentSlot = ThreadLocalReference<Scheduler>()
}
