import Disposables
import Foundation
@testable import Schedulers
import TestSupport
import XCTest

/// The state machine behind `QueueScheduler`'s dated blocks, without threads or a clock: the
/// tests play the scheduler, passing the time and running what it hands out.
final class DatedQueueTests: LeakCheckedTestCase {
    func testDatedQueue_sameDateRunsInTheOrderScheduled() {
        var queue = DatedQueue()
        let blocks = (0..<5).map { _ in ScheduledAction(work: {}) }
        XCTAssertEqual(queue.insert(blocks[0], at: 10, now: 0), .timer(due: 10, leeway: 0))
        for block in blocks.dropFirst() {
            XCTAssertEqual(queue.insert(block, at: 10, now: 1), .none, "the timer is set for 10 already")
        }
        XCTAssertTrue(drain(&queue, fromTimer: true, now: 10) == blocks)
        XCTAssertTrue(queue.isEmpty)
    }

    func testDatedQueue_datesScheduledInReverseRunInDateOrder() {
        var queue = DatedQueue()
        let blocks = (0..<4).map { _ in ScheduledAction(work: {}) }
        var wakes: [DatedQueue.Wake] = []
        for index in (0..<4).reversed() {
            wakes.append(queue.insert(blocks[index], at: 10 + Double(index), now: 0))
        }
        XCTAssertEqual(wakes, [13, 12, 11, 10].map { .timer(due: $0, leeway: 0) }, "each earlier date moves the timer")
        XCTAssertTrue(drain(&queue, fromTimer: true, now: 11.5) == Array(blocks[0...1]))
        XCTAssertTrue(drain(&queue, fromTimer: true, now: 20) == Array(blocks[2...3]))
    }

    func testDatedQueue_aDatePastRunsFromItsOwnDrainOnly() {
        var queue = DatedQueue()
        let later = ScheduledAction(work: {})
        let past = ScheduledAction(work: {})
        XCTAssertEqual(queue.insert(later, at: 5, now: 0), .timer(due: 5, leeway: 0))
        XCTAssertEqual(queue.insert(past, at: 3, now: 6), .drain(through: 1), "due when scheduled, at 6")
        // The timer's drain runs the block due at 5, and leaves the other to the drain queued for it.
        XCTAssertTrue(drain(&queue, fromTimer: true, now: 7) == [later])
        XCTAssertTrue(drain(&queue, through: 1, now: 7) == [past])
    }

    func testDatedQueue_aDrainRunsWhatIsDueBeforeItsOwnBlock() {
        var queue = DatedQueue()
        let first = ScheduledAction(work: {})
        let second = ScheduledAction(work: {})
        let third = ScheduledAction(work: {})
        _ = queue.insert(first, at: 5, now: 0)
        XCTAssertEqual(queue.insert(second, at: 0, now: 6), .drain(through: 1))
        XCTAssertEqual(queue.insert(third, at: 0, now: 6), .drain(through: 2))
        // The drain for the second also runs the first, due earlier, but not the third.
        XCTAssertTrue(drain(&queue, through: 1, now: 6) == [first, second])
        XCTAssertTrue(drain(&queue, through: 2, now: 6) == [third])
    }

    func testDatedQueue_aDrainLeavesWhatWasScheduledAfterItStarted() {
        var queue = DatedQueue()
        let early = ScheduledAction(work: {})
        let late = ScheduledAction(work: {})
        _ = queue.insert(early, at: 5, now: 0)
        var drainState = queue.startDrain(now: 5, fromTimer: true)
        XCTAssertEqual(queue.insert(late, at: 5.5, now: 5.1), .timer(due: 5.5, leeway: 0), "the timer fired: set it again")
        guard case let .run(action, repeating: false) = queue.next(through: nil, in: &drainState, readClock: { 6 }) else {
            return XCTFail("the block due runs")
        }
        XCTAssertTrue(action === early)
        // Due by the clock now, but scheduled after the drain started: left to the timer set for it.
        guard case .stop(.none) = queue.next(through: nil, in: &drainState, readClock: { 6 }) else {
            return XCTFail("the drain ends")
        }
    }

    func testDatedQueue_aBlockThatFellDueDuringTheDrainRunsInIt() {
        var queue = DatedQueue()
        let blocks = (0..<2).map { _ in ScheduledAction(work: {}) }
        _ = queue.insert(blocks[0], at: 5, now: 0)
        _ = queue.insert(blocks[1], at: 5.2, now: 0)
        XCTAssertTrue(drain(&queue, fromTimer: true, now: 5, clockAfterwards: 5.3) == blocks)
    }

    func testDatedQueue_repeatingBlocksComeBackAndSkipMissedRuns() {
        var queue = DatedQueue()
        let block = ScheduledAction(work: {})
        _ = queue.insert(block, at: 1, repeatingEvery: 1, leeway: 0.5, now: 0)
        var state = queue.startDrain(now: 1, fromTimer: true)
        guard case .run(_, repeating: true) = queue.next(through: nil, in: &state, readClock: { 1 }) else {
            return XCTFail("the block runs")
        }
        guard case .stop(.timer(due: 2, leeway: 0.5)) = queue.next(through: nil, in: &state, readClock: { 1 }) else {
            return XCTFail("the next run is one interval later")
        }
        // The queue was busy until 4.5: the runs at 3 and 4 are skipped.
        state = queue.startDrain(now: 4.5, fromTimer: true)
        guard case .run(_, repeating: true) = queue.next(through: nil, in: &state, readClock: { 4.5 }) else {
            return XCTFail("the block runs")
        }
        guard case .stop(.timer(due: 5, leeway: 0.5)) = queue.next(through: nil, in: &state, readClock: { 4.5 }) else {
            return XCTFail("the next run is the next multiple of the interval")
        }
        block.dispose()
        XCTAssertTrue(drain(&queue, fromTimer: true, now: 10).isEmpty)
        XCTAssertTrue(queue.isEmpty)
    }

    func testDatedQueue_aRepeatingIntervalTooSmallToMoveTheClockComesBackInALaterDrain() {
        // 1e-15 s added to a million seconds of uptime leaves it as it was: the next run must
        // still be later than now, or the drain that runs the block would run it forever.
        var queue = DatedQueue()
        let block = ScheduledAction(work: {})
        let now: TimeInterval = 1_000_000
        _ = queue.insert(block, at: now, repeatingEvery: 1e-15, now: now - 1)
        var state = queue.startDrain(now: now, fromTimer: true)
        guard case .run(_, repeating: true) = queue.next(through: nil, in: &state, readClock: { now }) else {
            return XCTFail("the block runs")
        }
        guard case let .stop(.timer(due, leeway: 0)) = queue.next(through: nil, in: &state, readClock: { now }) else {
            return XCTFail("the drain ends, with a timer for the next run")
        }
        XCTAssertEqual(due, now.nextUp)
        block.dispose()
        queue.blockDisposed()
        XCTAssertTrue(queue.isEmpty)
    }

    func testDatedQueue_disposedBlocksAreSweptOut() {
        var queue = DatedQueue()
        let blocks = (0..<8).map { _ in ScheduledAction(work: {}) }
        for (index, block) in blocks.enumerated() {
            _ = queue.insert(block, at: 100 + Double(index), now: 0)
        }
        for block in blocks.prefix(7) {
            block.dispose()
            queue.blockDisposed()
        }
        XCTAssertFalse(queue.isEmpty)
        blocks[7].dispose()
        queue.blockDisposed()
        XCTAssertTrue(queue.isEmpty, "nothing is left waiting once every block is disposed")
    }

    func testDatedQueue_theTimerIsSetAgainAfterItFired() {
        var queue = DatedQueue()
        _ = queue.insert(ScheduledAction(work: {}), at: 5, now: 0)
        XCTAssertEqual(drain(&queue, fromTimer: true, now: 5).count, 1)
        XCTAssertEqual(queue.insert(ScheduledAction(work: {}), at: 8, now: 6), .timer(due: 8, leeway: 0))
    }

    func testDatedQueue_aDateBecomesADeadlineOnTheMonotonicClock() {
        var queue = DatedQueue()
        XCTAssertEqual(queue.deadline(of: 105, reading: ClockReading(wall: 100, monotonic: 10)), 15)
        XCTAssertEqual(queue.deadline(of: 90, reading: ClockReading(wall: 101, monotonic: 11)), 0, "a date past gives a deadline past")
    }

    func testDatedQueue_equalDatesGiveEqualDeadlinesWhileTheWallClockKeepsStep() {
        var queue = DatedQueue()
        let first = queue.deadline(of: 105, reading: ClockReading(wall: 100, monotonic: 10))
        // Read a little apart, as two readings of two clocks are.
        for drift in [0.000_3, -0.000_7, DatedQueue.stepTolerance * 0.9] {
            XCTAssertEqual(queue.deadline(of: 105, reading: ClockReading(wall: 102 + drift, monotonic: 12)), first, "drift \(drift)")
        }
    }

    func testDatedQueue_aWallClockStepMovesTheDeadlinesOfLaterDatesOnly() {
        var queue = DatedQueue()
        let early = ScheduledAction(work: {})
        let late = ScheduledAction(work: {})
        let dueEarly = queue.deadline(of: 105, reading: ClockReading(wall: 100, monotonic: 10))
        XCTAssertEqual(queue.insert(early, at: dueEarly, now: 10), .timer(due: 15, leeway: 0))
        // The wall clock steps back 5 s: a date 5 s ahead of it is 5 s ahead on the monotonic clock.
        let dueLate = queue.deadline(of: 96, reading: ClockReading(wall: 91, monotonic: 11))
        XCTAssertEqual(dueLate, 16)
        XCTAssertEqual(queue.insert(late, at: dueLate, now: 11), .none, "the timer is set for 15 already")
        XCTAssertTrue(drain(&queue, fromTimer: true, now: 15) == [early], "the block waiting keeps its deadline")
        XCTAssertTrue(drain(&queue, fromTimer: true, now: 16) == [late])
    }

    func testDatedQueue_aBlockThatNeverComesSetsNoTimer() {
        var queue = DatedQueue()
        let never = (0..<3).map { _ in ScheduledAction(work: {}) }
        XCTAssertEqual(queue.insert(never[0], at: .infinity, now: 0), .none)
        XCTAssertEqual(queue.insert(never[1], at: QueueScheduler.longestInterval, now: 0), .none)
        XCTAssertEqual(queue.insert(never[2], at: 1, repeatingEvery: .infinity, now: 0), .timer(due: 1, leeway: 0))
        let soon = ScheduledAction(work: {})
        XCTAssertEqual(queue.insert(soon, at: 2, now: 0), .none, "the timer is set for 1 already")
        // The repeating block runs once: its next run never comes, and sets no timer.
        var state = queue.startDrain(now: 1, fromTimer: true)
        guard case .run(_, repeating: true) = queue.next(through: nil, in: &state, readClock: { 1 }) else {
            return XCTFail("the repeating block runs")
        }
        guard case .stop(.timer(due: 2, leeway: 0)) = queue.next(through: nil, in: &state, readClock: { 1 }) else {
            return XCTFail("the timer is set for the block that comes")
        }
        XCTAssertTrue(drain(&queue, fromTimer: true, now: 2) == [soon])
        XCTAssertTrue(drain(&queue, fromTimer: true, now: 1e9).isEmpty, "the others never come (1e9 s: thirty years of uptime)")
        XCTAssertFalse(queue.isEmpty, "they wait until disposed")
        for block in never {
            block.dispose()
            queue.blockDisposed()
        }
        XCTAssertTrue(queue.isEmpty)
    }

    /// Runs a drain to its end and returns the blocks it handed out, in order.
    private func drain(
        _ queue: inout DatedQueue,
        through ticket: UInt64? = nil,
        fromTimer: Bool = false,
        now: TimeInterval,
        clockAfterwards: TimeInterval? = nil
    ) -> [ScheduledAction] {
        var state = queue.startDrain(now: now, fromTimer: fromTimer)
        var ran: [ScheduledAction] = []
        while case let .run(action, _) = queue.next(through: ticket, in: &state, readClock: { clockAfterwards ?? now }) {
            ran.append(action)
        }
        return ran
    }
}

private func == (lhs: [ScheduledAction], rhs: [ScheduledAction]) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0 === $1 }
}
