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
/// Every scheduler and time operator takes the times it is given by one rule:
///
/// - A date, delay, interval or leeway that is NaN stops the program, with a message naming the
///   method and the value; it survives optimized builds.
/// - A date or delay that never comes never runs its block, which waits until it is disposed,
///   with no timer set: infinity, and on the real schedulers anything more than
///   ``QueueScheduler/longestInterval`` (about 292 years) off, `Date.distantFuture` among them.
///   (A ``TestScheduler``'s virtual clock reaches any finite date.)
/// - A date already past, or a delay of zero or less, is due now: the block runs after the blocks
///   already due, first in, first out.
///
/// The real schedulers measure delays on a monotonic clock, which never steps: a date is turned
/// into a monotonic deadline when it is scheduled, as Dispatch's `asyncAfter(deadline:)` does, so
/// a wall clock set back (an NTP correction, a user changing the time) never makes a block, a
/// `throttle`'s window or a `delay` end early. ``now`` is the wall clock.
///
/// To write a scheduler, subclass it, call ``init(name:)``, override ``schedule(_:)``,
/// ``schedule(after:_:)`` and ``schedule(after:repeatingEvery:leeway:_:)`` (and
/// ``schedule(afterDelay:_:)`` to measure delays on a clock of your own), follow the rule above,
/// and run each block through ``performAsCurrentScheduler(_:)``.
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
    /// Dates to schedule at are read against it; the real schedulers measure delays on a
    /// monotonic clock instead (see ``schedule(afterDelay:_:)``).
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
        badInput("\(type(of: self)) must override Scheduler.schedule(_:)")
    }

    /// Runs `action` at `date`, or as soon as possible after it.
    ///
    /// A ``QueueScheduler`` (``Scheduler/main`` and ``Scheduler/background(priority:name:)`` are
    /// ones), an ``ActorScheduler`` and a ``TestScheduler`` run blocks in the order of their
    /// dates, and blocks for the same date in the order they were scheduled, whatever the
    /// machine's load. The real schedulers turn `date` into a deadline on a monotonic clock as
    /// `action` is scheduled: `action` waits as long as the wall clock had to go to `date`,
    /// however the wall clock steps meanwhile. A ``TestScheduler`` runs `action` when its virtual
    /// clock reaches `date`.
    ///
    /// A date already past when `action` is scheduled counts as that moment: `action` runs after
    /// the blocks scheduled before it that are due by then, and before every block scheduled
    /// after it, those of ``Scheduler/schedule(_:)`` included. A date that never comes (see
    /// ``Scheduler``: on the real schedulers, more than ``QueueScheduler/longestInterval`` off,
    /// `.distantFuture` among them; on any, a date at infinity) never runs `action`, which waits,
    /// with no timer set, until disposed. A date whose time is NaN stops the program.
    ///
    /// - Returns: A disposable that cancels `action` and releases it at once, if it has not
    ///   started yet.
    ///
    /// RAC 2.5: `-after:schedule:`. `RACQueueScheduler` leaves the order of equal dates to
    /// `dispatch_after` and waits on the wall clock; here the scheduler keeps one queue of dated
    /// blocks and one timer, on the monotonic clock, for the first of them.
    @discardableResult
    open func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        badInput("\(type(of: self)) must override Scheduler.schedule(after:_:)")
    }

    /// Runs `action` `delay` seconds from now, or as soon as possible after that.
    ///
    /// The real schedulers (``QueueScheduler``, ``ActorScheduler``, ``Scheduler/immediate``)
    /// measure `delay` on a monotonic clock, so a wall clock that steps meanwhile neither hastens
    /// nor holds up `action`; a ``TestScheduler`` counts it in virtual time. A delay of zero or
    /// less is due now, as a date past is in ``Scheduler/schedule(after:_:)``; an infinite one (on
    /// the real schedulers, one longer than ``QueueScheduler/longestInterval``) never comes:
    /// `action` waits, with no timer set, until disposed. A NaN delay stops the program.
    ///
    /// A scheduler of your own that does not override it gets this: NaN stops the program, and
    /// `action` is scheduled with ``Scheduler/schedule(after:_:)`` at ``Scheduler/now`` plus
    /// `delay`.
    ///
    /// - Returns: A disposable that cancels `action` and releases it at once, if it has not
    ///   started yet.
    ///
    /// RAC 2.5: `-afterDelay:schedule:`, which counts from the wall clock.
    @discardableResult
    open func schedule(afterDelay delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Disposable? {
        checkDelay(delay, of: "\(type(of: self)).schedule(afterDelay:_:)")
        return schedule(after: now.addingTimeInterval(delay), action)
    }

    /// Runs `action` at `date`, then every `interval` seconds, until the returned disposable is
    /// disposed.
    ///
    /// The first run is due at `date` as in ``Scheduler/schedule(after:_:)``. Each later run takes
    /// its place among the dated blocks the same way, one interval after the last (on the
    /// monotonic clock of the real schedulers, in virtual time on a ``TestScheduler``); on the
    /// real schedulers, runs missed while the scheduler was busy are skipped, as a dispatch timer
    /// skips them. An infinite interval (on the real schedulers, one longer than
    /// ``QueueScheduler/longestInterval``) runs `action` once.
    ///
    /// - Parameters:
    ///   - date: When the first run is due; its time must not be NaN.
    ///   - interval: Seconds between runs; must be positive (NaN is not).
    ///   - leeway: How late each run may be, so the system can coalesce timers; zero or more (NaN
    ///     is not). A ``TestScheduler``, whose virtual time is exact, checks it and ignores it.
    ///   - action: The block to run each time.
    /// - Returns: A disposable that stops the schedule.
    ///
    /// RAC 2.5: `-after:repeatingEvery:withLeeway:schedule:`, a dispatch timer in
    /// `RACQueueScheduler`.
    @discardableResult
    open func schedule(
        after date: Date,
        repeatingEvery interval: TimeInterval,
        leeway: TimeInterval = 0,
        _ action: @escaping @Sendable () -> Void
    ) -> Disposable? {
        badInput("\(type(of: self)) must override Scheduler.schedule(after:repeatingEvery:leeway:_:)")
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
        let previous = ThreadState.currentScheduler
        ThreadState.currentScheduler = Unmanaged.passUnretained(self).toOpaque()
        defer { ThreadState.currentScheduler = previous }
        block()
    }

    /// The scheduler's type and name, such as `<QueueScheduler: com.example.parser>`.
    public var description: String {
        "<\(type(of: self)): \(name)>"
    }
}

extension Scheduler {
    /// The scheduler running the current block, if any.
    ///
    /// Set (per thread) while any scheduler but ``immediate`` runs a block; on the main thread
    /// with nothing set it is ``main``; elsewhere `nil`.
    ///
    /// RAC 2.5: `+currentScheduler`.
    @inlinable
    public static var current: Scheduler? {
        if let scheduler = ThreadState.currentScheduler {
            return Unmanaged<Scheduler>.fromOpaque(scheduler).takeUnretainedValue()
        }
        return currentOnMainThread()
    }

    /// `current` when nothing is set on this thread: `main` on the main thread, else `nil`.
    @usableFromInline
    static func currentOnMainThread() -> Scheduler? {
        guard MainThread.isCurrent else { return nil }
        // The main thread stays the main thread: remember `main` in the slot, so the next read is
        // one thread-local load. `performAsCurrentScheduler` restores it like any other value.
        let main = main
        ThreadState.currentScheduler = Unmanaged.passUnretained(main).toOpaque()
        return main
    }

    /// Runs blocks inline, on the calling thread, at once.
    ///
    /// It does not become ``current``, its `schedule(_:)` returns `nil`, its
    /// `schedule(after:_:)` and `schedule(afterDelay:_:)` block the calling thread until the date
    /// or for the delay (measured on a monotonic clock), and a repeating schedule stops the
    /// program, as in RAC 2.5. A date or delay that never comes (more than
    /// ``QueueScheduler/longestInterval`` off) does not block: its block waits, never run, until
    /// the disposable returned is disposed.
    ///
    /// RAC 2.5: `+immediateScheduler`.
    public static var immediate: Scheduler { ImmediateScheduler.shared }

    /// Runs blocks on the main dispatch queue.
    ///
    /// Its blocks run only while something drains the main queue: an app's main run loop does. A
    /// command-line tool or a server must run the main run loop itself (`RunLoop.main.run(…)`, or
    /// an `asynchronous` blocking form of `Signal`, which runs it while it waits) or call
    /// `dispatchMain()`; otherwise its blocks never run, and so neither does anything that waits on
    /// this scheduler: `deliver(on: .main)`, `deliverOnMainThread()`, the main-actor forms, a
    /// `Command`, and `delay` and `throttle` given no scheduler where their events come on the main
    /// thread. On Linux, under `dispatchMain()` (and an `async` `main` or top-level `await`, which
    /// use it), main-queue blocks run on a thread that is not the main thread: they still run one
    /// at a time, as the main actor needs, but `Thread.isMainThread` is `false` in them.
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
}
