import Foundation

/// The blocks a ``QueueScheduler`` or an ``ActorScheduler`` holds for a date, in the order they
/// must run: by due time, and blocks due at the same time in the order they were scheduled.
///
/// A state machine with no lock, clock or thread of its own: the scheduler reads the clocks, calls
/// it under its lock and does what it answers. Due times are seconds on the monotonic clock
/// (``SchedulerClock/monotonicTime()``), which never steps, so that a wall clock set back or
/// forward makes no block run early; a date on the wall clock becomes a due time when it is
/// scheduled (``deadline(of:reading:)``), and one date always gives one due time while the wall
/// clock keeps step, so blocks for it tie exactly.
///
/// A block whose due time has already come when it is scheduled is due *then*, in the order of the
/// undated blocks around it: it runs from a drain queued on the dispatch queue for it ("its
/// drain") or a later one, never from an earlier drain, so it cannot overtake a block queued
/// before it. The other blocks run from whichever drain finds them due: the timer's, set for the
/// first of them, or another. A block due at ``longestWait`` or later never comes: it waits, with
/// no timer set for it, until it is disposed.
struct DatedQueue {
    /// What must happen for the next block to run.
    enum Wake: Equatable {
        /// Nothing: a drain or the timer already on its way sees to it, or nothing waits (that
        /// can come).
        case none
        /// Queue a drain on the dispatch queue that may run the blocks scheduled up to the
        /// `through`-th; after unlocking.
        case drain(through: UInt64)
        /// Set the timer for `due` on the monotonic clock, replacing its deadline; under the lock,
        /// so that the timer always holds the deadline set last.
        case timer(due: TimeInterval, leeway: TimeInterval)
    }

    /// What a drain does next.
    enum Step {
        /// Run this block, as a repeating block (kept for its next run) or once.
        case run(ScheduledAction, repeating: Bool)
        /// Stop, and see to the next block.
        case stop(Wake)
    }

    /// How far the wall clock may drift from the monotonic one before it counts as stepped, in
    /// seconds.
    static let stepTolerance: TimeInterval = 0.001

    private var heap = MinHeap<Entry>()
    private var nextOrder: UInt64 = 0
    /// The latest reading of the monotonic clock; kept from going back even if a reading did,
    /// so that blocks due when scheduled keep the order they were scheduled in.
    private var clock = -TimeInterval.infinity
    /// The wall clock's lead over the monotonic clock: a date `d` is due at `d - wallLead` on the
    /// monotonic clock. Measured when the first date is scheduled, and again only once the wall
    /// clock has stepped (drifted more than ``stepTolerance`` from it), so that equal dates give
    /// equal due times.
    private var wallLead: TimeInterval?
    /// The due time the timer is set for, until the timer's drain runs.
    private var timerDue: TimeInterval?
    /// Blocks disposed since the last sweep; an estimate (a block disposed after it ran counts
    /// too) that only decides when to sweep.
    private var disposals = 0

    var isEmpty: Bool { heap.isEmpty }

    /// The due time, on the monotonic clock, of `date` (seconds since the reference date on the
    /// wall clock), scheduled when the clocks read `reading`: the date as far ahead of the
    /// monotonic clock as it is ahead of the wall clock.
    ///
    /// The wall clock's lead is the one measured for an earlier date unless the wall clock has
    /// stepped since, so that equal dates give equal due times; a step moves only the dates
    /// scheduled after it, not the blocks already waiting.
    mutating func deadline(of date: TimeInterval, reading: ClockReading) -> TimeInterval {
        let lead = reading.wall - reading.monotonic
        if let wallLead, abs(lead - wallLead) <= Self.stepTolerance { return date - wallLead }
        wallLead = lead
        return date - lead
    }

    /// Adds `action` for `date` on the monotonic clock, then every `interval` seconds when given,
    /// scheduled when that clock read `now`.
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
        // A date already come is due now, behind what is queued (the schedulers stop the
        // program on NaN before it gets here; it would count as come).
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

    /// The timer for `entry`, unless it is set for an earlier time already or the entry never
    /// comes.
    private mutating func setTimer(for entry: Entry) -> Wake {
        guard entry.due < longestWait else { return .none }
        if let timerDue, timerDue <= entry.due { return .none }
        timerDue = entry.due
        return .timer(due: entry.due, leeway: entry.leeway)
    }

    /// One `interval` after `due`, or, when the queue was too busy to run the block in time, the
    /// first multiple of `interval` after `now`: missed runs are skipped, as a dispatch timer
    /// does, not run back to back. An infinite interval gives infinity: the run never comes.
    ///
    /// Always later than `now`, even for an interval too small to move a time as large as `now`
    /// (a positive interval below about 1e-12 s, `now` being hours of uptime): the next run then
    /// comes at the next representable time. A next run at `now` would be due within the drain
    /// that runs it, which would run it again and again and never hand the queue back.
    private static func nextRun(after due: TimeInterval, every interval: TimeInterval, now: TimeInterval) -> TimeInterval {
        let next = due + interval
        if next > now { return next }
        let skipping = due + (((now - due) / interval).rounded(.down) + 1) * interval
        if skipping > now { return skipping }
        return max(now + interval, now.nextUp)
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

/// When a dated block was asked to run: the time a `schedule` method was given.
enum ScheduledTime {
    /// At a date on the wall clock, in seconds since the reference date.
    case date(TimeInterval)
    /// This many seconds after it is scheduled, on the monotonic clock.
    case delay(TimeInterval)

    /// Reads what the due time needs: both clocks for a date; for a delay only the monotonic one,
    /// the wall clock's reading being left at zero.
    @inline(__always)
    func read(_ clock: any SchedulerClock) -> ClockReading {
        switch self {
        case .date: clock.reading()
        case .delay: ClockReading(wall: 0, monotonic: clock.monotonicTime())
        }
    }

    /// The due time on the monotonic clock, from the clocks as `reading` read them.
    @inline(__always)
    func deadline(_ reading: ClockReading, in queue: inout DatedQueue) -> TimeInterval {
        switch self {
        case let .date(date): queue.deadline(of: date, reading: reading)
        case let .delay(delay): reading.monotonic + delay
        }
    }
}
