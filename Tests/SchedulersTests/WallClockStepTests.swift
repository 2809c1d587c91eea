import Disposables
import Foundation
import Schedulers
import TestSupport
import XCTest

private actor Idle {}

/// The real schedulers measure delays on the monotonic clock: a wall clock that steps (an NTP
/// correction, a user changing the time) makes no block run early, nor holds one up. The tests
/// step the wall clock of a `SteppingClock`, which the schedulers read instead of the system's,
/// and time the waits on the monotonic clock.
final class WallClockStepTests: LeakCheckedTestCase {
    func testQueueScheduler_aDelayWaitsItsTimeWhenTheWallClockStepsBack() {
        let clock = SteppingClock()
        assertWaits(0.2, on: QueueScheduler(name: "stepped back", clock: clock), afterStepping: clock, by: -5) { scheduler, block in
            scheduler.schedule(afterDelay: 0.2, block)
        }
    }

    func testQueueScheduler_aDateWaitsAsLongAsTheWallClockHadToGoWhenItSteppedBackBefore() {
        let clock = SteppingClock()
        assertWaits(0.2, on: QueueScheduler(name: "date stepped back", clock: clock), afterStepping: clock, by: -5, forADate: true) { scheduler, block in
            scheduler.schedule(after: scheduler.now.addingTimeInterval(0.2), block)
        }
    }

    func testActorScheduler_aDelayWaitsItsTimeWhenTheWallClockStepsBack() {
        let clock = SteppingClock()
        assertWaits(0.1, on: ActorScheduler(Idle(), clock: clock), afterStepping: clock, by: -0.2) { scheduler, block in
            scheduler.schedule(afterDelay: 0.1, block)
        }
    }

    func testActorScheduler_aDateWaitsAsLongAsTheWallClockHadToGoWhenItSteppedBackBefore() {
        let clock = SteppingClock()
        assertWaits(0.1, on: ActorScheduler(Idle(), clock: clock), afterStepping: clock, by: -0.2, forADate: true) { scheduler, block in
            scheduler.schedule(after: scheduler.now.addingTimeInterval(0.1), block)
        }
    }

    func testQueueScheduler_aBlockWaitingKeepsItsTimeWhenTheWallClockStepsForward() {
        let clock = SteppingClock()
        assertKeepsItsTime(on: QueueScheduler(name: "stepped forward", clock: clock), stepping: clock)
    }

    func testActorScheduler_aBlockWaitingKeepsItsTimeWhenTheWallClockStepsForward() {
        let clock = SteppingClock()
        assertKeepsItsTime(on: ActorScheduler(Idle(), clock: clock), stepping: clock)
    }

    func testQueueScheduler_aBlockWaitingIsNotHeldUpWhenTheWallClockStepsBack() {
        let clock = SteppingClock()
        let scheduler = QueueScheduler(name: "not held up", clock: clock)
        let start = monotonicSeconds()
        let ranAt = Recorder<TimeInterval>()
        let ran = DispatchSemaphore(value: 0)
        scheduler.schedule(afterDelay: 0.1) {
            ranAt.record(monotonicSeconds())
            ran.signal()
        }
        clock.step(by: -5)
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success)
        let waited = ranAt.values[0] - start
        XCTAssertGreaterThanOrEqual(waited, 0.1)
        XCTAssertLessThan(waited, 4, "held up by the step of 5 s")
    }

    func testQueueScheduler_blocksForOneDateKeepTheOrderScheduledAfterTheWallClockSteps() {
        let clock = SteppingClock()
        let scheduler = QueueScheduler(name: "ties", clock: clock)
        for step in [-5.0, 3, -0.01] {
            clock.step(by: step)
            let date = scheduler.now.addingTimeInterval(0.01)
            let order = Recorder<Int>()
            let done = DispatchGroup()
            for index in 0..<10 {
                done.enter()
                scheduler.schedule(after: date) {
                    order.record(index)
                    done.leave()
                }
            }
            XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
            XCTAssertEqual(order.values, Array(0..<10), "after a step of \(step) s")
        }
    }

    func testQueueScheduler_repeatingRunsKeepTheirIntervalWhenTheWallClockStepsBack() {
        let clock = SteppingClock()
        let scheduler = QueueScheduler(name: "repeating", clock: clock)
        let runs = Recorder<TimeInterval>()
        let start = monotonicSeconds()
        let repeating = scheduler.schedule(after: scheduler.now, repeatingEvery: 0.05) {
            runs.record(monotonicSeconds())
        }
        XCTAssertTrue(eventually { runs.values.count >= 2 })
        clock.step(by: -5)
        let stepped = monotonicSeconds()
        XCTAssertTrue(eventually { runs.values.count >= 6 })
        repeating?.dispose()
        let times = runs.values
        // The runs are due one interval apart from the first date; each may be late, none early.
        XCTAssertGreaterThanOrEqual(times[5] - start, 5 * 0.05 - Self.dateAllowance, "runs came early")
        XCTAssertLessThan(times[5] - stepped, 4, "the runs stalled for the step of 5 s")
    }

    /// How much earlier than its date, measured from the test's reading of the monotonic clock, a
    /// block may run: a date becomes a deadline from a reading of both clocks, which are read a
    /// few microseconds apart. A delay is counted from the monotonic clock alone, exactly.
    private static let dateAllowance: TimeInterval = 0.001

    /// A block waits `delay` seconds on the monotonic clock when it is scheduled with `schedule`
    /// after the wall clock stepped by `step`; the scheduler has read the clocks before the step.
    private func assertWaits<S: Scheduler>(
        _ delay: TimeInterval,
        on scheduler: S,
        afterStepping clock: SteppingClock,
        by step: TimeInterval,
        forADate: Bool = false,
        file: StaticString = #filePath,
        line: UInt = #line,
        _ schedule: (S, @escaping @Sendable () -> Void) -> Disposable?
    ) {
        let first = DispatchSemaphore(value: 0)
        scheduler.schedule(afterDelay: 0) { first.signal() }
        XCTAssertEqual(first.wait(timeout: .now() + 10), .success, file: file, line: line)
        clock.step(by: step)
        let start = monotonicSeconds()
        let ranAt = Recorder<TimeInterval>()
        let ran = DispatchSemaphore(value: 0)
        _ = schedule(scheduler) {
            ranAt.record(monotonicSeconds())
            ran.signal()
        }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success, file: file, line: line)
        let allowance = forADate ? Self.dateAllowance : 0
        XCTAssertGreaterThanOrEqual(ranAt.values.first.map { $0 - start } ?? 0, delay - allowance, "ran early", file: file, line: line)
    }

    /// A block scheduled 0.3 s ahead, then a wall clock stepped forward by 10 s, then a block due
    /// now: the second runs first, and the first waits its 0.3 s.
    private func assertKeepsItsTime(on scheduler: Scheduler, stepping clock: SteppingClock, file: StaticString = #filePath, line: UInt = #line) {
        let log = Recorder<String>()
        let done = DispatchGroup()
        let start = monotonicSeconds()
        let ranAt = Recorder<TimeInterval>()
        done.enter()
        scheduler.schedule(afterDelay: 0.3) {
            ranAt.record(monotonicSeconds())
            log.record("waiting")
            done.leave()
        }
        clock.step(by: 10)
        done.enter()
        scheduler.schedule(after: scheduler.now) {
            log.record("due now")
            done.leave()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, file: file, line: line)
        XCTAssertEqual(log.values, ["due now", "waiting"], file: file, line: line)
        XCTAssertGreaterThanOrEqual(ranAt.values.first.map { $0 - start } ?? 0, 0.3, "ran early", file: file, line: line)
    }
}
