import Disposables
import Foundation

/// A scheduler in virtual time, for tests: nothing runs until you step or advance it.
///
/// Blocks run in the order of their due time, and in the order they were scheduled when due at the
/// same time, with the test scheduler as ``Scheduler/current``. The clock starts at a fixed date
/// (`Date(timeIntervalSinceReferenceDate: 0)`) and moves only when a block runs or you advance it,
/// so time-based code runs in microseconds and always the same way.
///
/// ```swift
/// let scheduler = TestScheduler()
/// var fired: [TimeInterval] = []
/// scheduler.schedule(afterDelay: 2) { fired.append(2) }
/// scheduler.schedule(afterDelay: 1) { fired.append(1) }
/// scheduler.advance(by: 1)   // fired == [1]
/// scheduler.run()            // fired == [1, 2]
/// ```
///
/// Blocks run on the thread that steps or advances the scheduler, outside its lock, so a block may
/// schedule more work.
///
/// The times it is given follow the rule of every scheduler (see ``Scheduler``): a date, delay,
/// interval or leeway that is NaN stops the program with a message naming the method and the
/// value; a date already past, or a delay of zero or less, is due at the present virtual time,
/// after the blocks already due there; a date at infinity never comes, not even for ``run()``:
/// its block waits until disposed. Any finite date comes once the clock is advanced to it.
///
/// RAC 2.5: `RACTestScheduler`.
public final class TestScheduler: Scheduler, DatedScheduling, @unchecked Sendable {
    /// The date the virtual clock of a new test scheduler starts at.
    public static let startDate = Date(timeIntervalSinceReferenceDate: 0)

    /// How many blocks `stepAll()` or `advance(to:)` runs before it decides a repeating schedule
    /// will never let it finish.
    private let runawayLimit: Int

    private let state: Lock<State>

    /// The date the virtual clock read when this scheduler was made: time zero of ``clock``.
    ///
    /// RxTest has none (its clock starts at 0); new.
    public let clockStart: Date

    /// A test scheduler whose clock reads `startDate`.
    public convenience init(startDate: Date = TestScheduler.startDate) {
        self.init(startDate: startDate, runawayLimit: 10_000_000)
    }

    /// A test scheduler whose `stepAll()` and `advance(to:)` stop the program after
    /// `runawayLimit` blocks, so that the package's tests reach that check in milliseconds.
    package init(startDate: Date = TestScheduler.startDate, runawayLimit: Int) {
        state = Lock(State(now: startDate))
        clockStart = startDate
        self.runawayLimit = runawayLimit
        super.init(name: "ReactiveCocoaSwift.test")
    }

    /// The virtual time: the due date of the last block run, or the last date advanced to.
    public override var now: Date {
        state.withLock { $0.now }
    }

    /// The virtual time as seconds on this scheduler's clock: how far ``now`` is past
    /// ``clockStart``. `0` for a new scheduler, `200` once advanced by 200 seconds.
    ///
    /// This is the clock that `start(created:subscribed:disposed:_:)` (module `Signals`) and the
    /// subscriptions of its test signals are timed by, as RxTest's virtual times are.
    ///
    /// RxTest: `TestScheduler.clock` (in ticks; here seconds).
    public var clock: TimeInterval {
        now.timeIntervalSince(clockStart)
    }

    /// Whether no block is waiting; disposed blocks do not count, blocks for a date that never
    /// comes do.
    public var isEmpty: Bool {
        state.withLock { state in
            state.dropDisposed()
            return state.queue.isEmpty
        }
    }

    /// Queues `action` to run at the present virtual time, after what is already due by then.
    @discardableResult
    public override func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable? {
        enqueue(at: nil, repeatingEvery: nil, action)
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
        // Virtual time is exact: the leeway is not needed. A delay counts from the clock now.
        let date = switch time {
        case let .date(date): Date(timeIntervalSinceReferenceDate: date)
        case let .delay(delay): now.addingTimeInterval(delay)
        }
        return enqueue(at: date, repeatingEvery: interval, action)
    }

    /// Runs the next block due, moving the clock to its due time if that is later. Disposed blocks
    /// are skipped and do not move the clock; blocks for a date at infinity never run.
    ///
    /// - Returns: `false` when nothing was waiting that can run.
    ///
    /// RAC 2.5: `-step`.
    @discardableResult
    public func step() -> Bool {
        runNext(dueBy: nil)
    }

    /// Runs the next `count` blocks, or fewer when the queue empties first.
    ///
    /// RAC 2.5: `-step:`.
    public func step(_ count: Int) {
        checkInput(count >= 0, "TestScheduler.step(_:) needs a count of zero or more, got \(count)")
        for _ in 0..<count where !step() { return }
    }

    /// Runs blocks until none is waiting, including those scheduled along the way; blocks for a
    /// date at infinity are left waiting.
    ///
    /// A repeating schedule that is never disposed never lets it finish: after ten million blocks
    /// it stops the program; use ``advance(by:)`` or ``step(_:)`` instead.
    ///
    /// RAC 2.5: `-stepAll`.
    public func stepAll() {
        var ran = 0
        while runNext(dueBy: nil) {
            ran += 1
            checkInput(ran < runawayLimit, "TestScheduler.stepAll(): ran \(ran) blocks and more keep coming; a repeating schedule is never disposed — use advance(by:) or step(_:)")
        }
    }

    /// Runs every block, as ``stepAll()`` does, leaving the clock at the last block's due time.
    ///
    /// ReactiveSwift: `TestScheduler.run()`.
    public func run() {
        stepAll()
    }

    /// Moves the clock forward by `interval`, running every block due by then in order.
    ///
    /// `interval` must be finite and zero or more, and keep the clock finite: the clock cannot go
    /// back, nor reach infinity (NaN is neither); anything else stops the program.
    ///
    /// ReactiveSwift: `TestScheduler.advance(by:)`.
    public func advance(by interval: TimeInterval = 0) {
        let clock = now.timeIntervalSinceReferenceDate
        checkInput(
            interval >= 0 && (clock + interval).isFinite,
            interval >= 0 && interval.isFinite
                ? "TestScheduler.advance(by:) needs an interval that keeps the clock finite, got \(interval) with the clock at \(clock)"
                : "TestScheduler.advance(by:) needs a finite interval of zero or more, got \(interval)"
        )
        advance(to: Date(timeIntervalSinceReferenceDate: clock + interval))
    }

    /// Moves the clock to `date`, running every block due by then in order; the clock reads `date`
    /// afterwards, or stays where it was if `date` is past.
    ///
    /// `date` must be finite: a NaN or infinite date stops the program.
    ///
    /// ReactiveSwift: `TestScheduler.advance(to:)`.
    public func advance(to date: Date) {
        checkInput(date.timeIntervalSinceReferenceDate.isFinite, "TestScheduler.advance(to:) needs a finite date, got Date(timeIntervalSinceReferenceDate: \(date.timeIntervalSinceReferenceDate))")
        var ran = 0
        while runNext(dueBy: date) {
            ran += 1
            checkInput(ran < runawayLimit, "TestScheduler.advance(to:): ran \(ran) blocks due by \(date) and more keep coming")
        }
        state.withLock { $0.now = max($0.now, date) }
    }

    /// Queues `action` for `date`, or for now when it is `nil` or past.
    private func enqueue(at date: Date?, repeatingEvery interval: TimeInterval?, _ action: @escaping @Sendable () -> Void) -> Disposable {
        let scheduled = ScheduledAction(work: action)
        state.withLock { state in
            // A date past is due now, behind the blocks already due: first in, first out.
            state.queue.insert(Entry(due: max(date ?? state.now, state.now), order: state.nextOrder, action: scheduled, interval: interval))
            state.nextOrder += 1
        }
        return scheduled
    }

    /// Runs the earliest block due by `deadline` (any, when `nil`); `false` when there was none.
    private func runNext(dueBy deadline: Date?) -> Bool {
        while true {
            let next = state.withLock { state -> Entry? in
                // A disposed block neither runs nor moves the clock.
                state.dropDisposed()
                // A date at infinity never comes; the blocks behind it are due no earlier.
                guard let first = state.queue.first, first.due < .distantInfinity,
                      deadline.map({ first.due <= $0 }) ?? true else { return nil }
                let entry = state.queue.removeFirst()
                state.now = max(state.now, entry.due)
                if let interval = entry.interval, !entry.action.isDisposed {
                    state.queue.insert(Entry(due: entry.due.addingTimeInterval(interval), order: state.nextOrder, action: entry.action, interval: interval))
                    state.nextOrder += 1
                }
                return entry
            }
            guard let next else { return false }
            if next.action.isDisposed { continue }
            if next.interval == nil {
                next.action.run(on: self)
            } else {
                next.action.runRepeating(on: self)
            }
            return true
        }
    }
}

extension TestScheduler {
    private struct State {
        var now: Date
        var queue = MinHeap<Entry>()
        var nextOrder: UInt64 = 0

        /// Drops disposed blocks from the front of the queue, so that the first is one to run.
        mutating func dropDisposed() {
            while let first = queue.first, first.action.isDisposed {
                _ = queue.removeFirst()
            }
        }
    }

    private struct Entry: Comparable {
        var due: Date
        /// Breaks ties between equal due dates: first scheduled, first run.
        var order: UInt64
        var action: ScheduledAction
        var interval: TimeInterval?

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.due, lhs.order) < (rhs.due, rhs.order)
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.due == rhs.due && lhs.order == rhs.order
        }
    }
}

private extension Date {
    /// The date at infinity, which never comes.
    static let distantInfinity = Date(timeIntervalSinceReferenceDate: .infinity)
}
