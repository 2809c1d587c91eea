import Foundation

/// The blocks a ``QueueScheduler`` holds for a date, in the order they must run: by date, and
/// blocks for the same date in the order they were scheduled.
///
/// A state machine with no lock, clock or thread of its own: the scheduler reads the clock, calls
/// it under its lock and does what it answers. Dates are seconds since the reference date, the
/// way `Date` keeps them, so one date always gives one due time and equal dates tie exactly.
///
/// A block whose date has already come when it is scheduled is due *then*, in the order of the
/// undated blocks around it: it runs from a drain queued on the dispatch queue for it ("its
/// drain") or a later one, never from an earlier drain, so it cannot overtake a block queued
/// before it. The other blocks run from whichever drain finds them due: the timer's, set for the
/// first of them, or another.
struct DatedQueue {
    /// What must happen for the next block to run.
    enum Wake: Equatable {
        /// Nothing: a drain or the timer already on its way sees to it, or nothing waits.
        case none
        /// Queue a drain on the dispatch queue that may run the blocks scheduled up to the
        /// `through`-th; after unlocking.
        case drain(through: UInt64)
        /// Set the timer for `due`, replacing its deadline; under the lock, so that the timer
        /// always holds the deadline set last.
        case timer(due: TimeInterval, leeway: TimeInterval)
    }

    /// What a drain does next.
    enum Step {
        /// Run this block, as a repeating block (kept for its next run) or once.
        case run(ScheduledAction, repeating: Bool)
        /// Stop, and see to the next block.
        case stop(Wake)
    }

    private var heap = MinHeap<Entry>()
    private var nextOrder: UInt64 = 0
    /// The latest reading of the clock. It never goes back, so blocks due when scheduled keep
    /// the order they were scheduled in even if the wall clock does.
    private var clock = -TimeInterval.infinity
    /// The due time the timer is set for, until the timer's drain runs.
    private var timerDue: TimeInterval?
    /// Blocks disposed since the last sweep; an estimate (a block disposed after it ran counts
    /// too) that only decides when to sweep.
    private var disposals = 0

    var isEmpty: Bool { heap.isEmpty }

    /// Adds `action` for `date`, then every `interval` seconds when given, scheduled when the
    /// clock read `now`.
    mutating func insert(
        _ action: ScheduledAction,
        at date: TimeInterval,
        repeatingEvery interval: TimeInterval? = nil,
        leeway: TimeInterval = 0,
        now: TimeInterval
    ) -> Wake {
        clock = max(clock, now)
        let order = nextOrder
        nextOrder += 1
        // A date already come (or not a number) is due now, behind what is queued.
        guard date > clock else {
            heap.insert(Entry(due: clock, order: order, waitsForItsDrain: true, action: action, interval: interval, leeway: leeway))
            return .drain(through: order)
        }
        let entry = Entry(due: date, order: order, waitsForItsDrain: false, action: action, interval: interval, leeway: leeway)
        heap.insert(entry)
        return setTimer(for: entry)
    }

    /// Starts a drain when the clock reads `now`.
    ///
    /// - Parameter fromTimer: Whether the timer fired for this drain, so that it is set no more.
    mutating func startDrain(now: TimeInterval, fromTimer: Bool) -> Drain {
        if fromTimer { timerDue = nil }
        clock = max(clock, now)
        return Drain(now: clock, horizon: nextOrder)
    }

    /// The next block `drain` runs, removed from the queue (a repeating block goes back in for
    /// its next run), or what must wake the next drain.
    ///
    /// A block that falls due while the drain runs still runs in it if it was scheduled before
    /// the drain started (`readClock` then tells the time again); the others, repeating blocks'
    /// next runs among them, are left to a later drain, so that a drain always ends.
    ///
    /// - Parameter ticket: The order of the block the drain was queued for; `nil` for the timer's.
    mutating func next(through ticket: UInt64?, in drain: inout Drain, readClock: () -> TimeInterval) -> Step {
        while let first = heap.first {
            if first.action.isDisposed {
                _ = heap.removeFirst()
                continue
            }
            if first.waitsForItsDrain {
                // Its own drain, queued behind the blocks scheduled before it, is on its way.
                guard let ticket, first.order <= ticket else { return .stop(.none) }
            } else if first.due > drain.now {
                guard first.order < drain.horizon else { return .stop(setTimer(for: first)) }
                clock = max(clock, readClock())
                drain.now = clock
                guard first.due <= drain.now else { return .stop(setTimer(for: first)) }
            }
            var entry = heap.removeFirst()
            guard let interval = entry.interval else { return .run(entry.action, repeating: false) }
            entry.due = Self.nextRun(after: entry.due, every: interval, now: drain.now)
            entry.order = nextOrder
            nextOrder += 1
            entry.waitsForItsDrain = false
            heap.insert(entry)
            return .run(entry.action, repeating: true)
        }
        return .stop(.none)
    }

    /// Counts a disposed block and, once about half the queue may be disposed blocks, drops
    /// them all, so that cancelled far-off blocks do not pile up: O(1) amortized.
    mutating func blockDisposed() {
        disposals += 1
        guard disposals * 2 >= heap.count else { return }
        heap.removeAll { $0.action.isDisposed }
        disposals = 0
    }

    /// The timer for `entry`, unless it is set for an earlier time already.
    private mutating func setTimer(for entry: Entry) -> Wake {
        if let timerDue, timerDue <= entry.due { return .none }
        timerDue = entry.due
        return .timer(due: entry.due, leeway: entry.leeway)
    }

    /// One `interval` after `due`, or, when the queue was too busy to run the block in time, the
    /// first multiple of `interval` after `now`: missed runs are skipped, as a dispatch timer
    /// does, not run back to back.
    private static func nextRun(after due: TimeInterval, every interval: TimeInterval, now: TimeInterval) -> TimeInterval {
        let next = due + interval
        if next > now { return next }
        let skipping = due + (((now - due) / interval).rounded(.down) + 1) * interval
        return skipping > now ? skipping : now + interval
    }
}

extension DatedQueue {
    /// Where a drain stands.
    struct Drain {
        /// The time it counts as now.
        fileprivate(set) var now: TimeInterval
        /// The order of the first block scheduled after it started.
        fileprivate let horizon: UInt64
    }

    /// One block waiting for its date.
    private struct Entry: Comparable {
        /// When it is due.
        var due: TimeInterval
        /// The order it was scheduled in: of two blocks due at once, the first scheduled runs first.
        var order: UInt64
        /// Whether it was due when scheduled, and so runs only from its own drain or a later one.
        var waitsForItsDrain: Bool
        var action: ScheduledAction
        /// The interval of a repeating block.
        var interval: TimeInterval?
        var leeway: TimeInterval

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.due, lhs.order) < (rhs.due, rhs.order)
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.due == rhs.due && lhs.order == rhs.order
        }
    }
}
