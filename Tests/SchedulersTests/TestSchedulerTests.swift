import Disposables
import Foundation
import Schedulers
import TestSupport
import XCTest

final class TestSchedulerTests: LeakCheckedTestCase {
    func testNow_startsAtAFixedDate() {
        XCTAssertEqual(TestScheduler().now, Date(timeIntervalSinceReferenceDate: 0))
        XCTAssertEqual(TestScheduler().now, TestScheduler.startDate)
    }

    func testSchedule_nothingRunsUntilStepped() {
        let scheduler = TestScheduler()
        let log = Recorder<Int>()
        scheduler.schedule { log.record(1) }
        XCTAssertEqual(log.values, [])
        XCTAssertFalse(scheduler.isEmpty)
        XCTAssertTrue(scheduler.step())
        XCTAssertEqual(log.values, [1])
        XCTAssertFalse(scheduler.step())
    }

    func testStep_runsInDueOrderAndFIFOAmongEquals() {
        let scheduler = TestScheduler()
        let log = Recorder<String>()
        scheduler.schedule(afterDelay: 2) { log.record("2a") }
        scheduler.schedule(afterDelay: 1) { log.record("1a") }
        scheduler.schedule(afterDelay: 2) { log.record("2b") }
        scheduler.schedule { log.record("0") }
        scheduler.schedule(afterDelay: 1) { log.record("1b") }
        scheduler.stepAll()
        XCTAssertEqual(log.values, ["0", "1a", "1b", "2a", "2b"])
        XCTAssertEqual(scheduler.now, TestScheduler.startDate.addingTimeInterval(2))
    }

    func testStep_movesTheClockToEachBlocksDueTime() {
        let scheduler = TestScheduler()
        let times = Recorder<TimeInterval>()
        for delay in [3.0, 1.0, 2.0] {
            scheduler.schedule(afterDelay: delay) { times.record(scheduler.now.timeIntervalSinceReferenceDate) }
        }
        scheduler.step()
        XCTAssertEqual(scheduler.now.timeIntervalSinceReferenceDate, 1)
        scheduler.step(2)
        XCTAssertEqual(times.values, [1, 2, 3])
    }

    func testStepCount_stopsWhenEmpty() {
        let scheduler = TestScheduler()
        let runs = Counter()
        for _ in 0..<3 { scheduler.schedule { runs.increment() } }
        scheduler.step(2)
        XCTAssertEqual(runs.value, 2)
        scheduler.step(10)
        XCTAssertEqual(runs.value, 3)
        scheduler.step(0)
    }

    func testAdvance_runsOnlyWhatIsDueAndSetsTheClock() {
        let scheduler = TestScheduler()
        let log = Recorder<Int>()
        scheduler.schedule(afterDelay: 1) { log.record(1) }
        scheduler.schedule(afterDelay: 5) { log.record(5) }
        scheduler.advance(by: 2)
        XCTAssertEqual(log.values, [1])
        XCTAssertEqual(scheduler.now.timeIntervalSinceReferenceDate, 2)
        scheduler.advance(by: 3)
        XCTAssertEqual(log.values, [1, 5])
        XCTAssertEqual(scheduler.now.timeIntervalSinceReferenceDate, 5)
        scheduler.advance(to: TestScheduler.startDate.addingTimeInterval(10))
        XCTAssertEqual(scheduler.now.timeIntervalSinceReferenceDate, 10)
    }

    func testAdvance_runsBlocksScheduledAlongTheWayWhenDue() {
        let scheduler = TestScheduler()
        let log = Recorder<TimeInterval>()
        scheduler.schedule(afterDelay: 1) {
            log.record(scheduler.now.timeIntervalSinceReferenceDate)
            scheduler.schedule(afterDelay: 1) { log.record(scheduler.now.timeIntervalSinceReferenceDate) }
            scheduler.schedule(afterDelay: 5) { log.record(scheduler.now.timeIntervalSinceReferenceDate) }
        }
        scheduler.advance(by: 3)
        XCTAssertEqual(log.values, [1, 2])
        scheduler.run()
        XCTAssertEqual(log.values, [1, 2, 6])
        XCTAssertEqual(scheduler.now.timeIntervalSinceReferenceDate, 6)
    }

    func testSchedule_disposedBlockNeverRunsAndIsReleased() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let (disposable, token) = trackingLifetime { token in
            scheduler.schedule { _ = token; runs.increment() }
        }
        disposable?.dispose()
        XCTAssertFalse(token.isAlive)
        XCTAssertFalse(scheduler.step())
        XCTAssertEqual(runs.value, 0)
    }

    func testCurrent_isTheTestSchedulerInsideItsBlocks() {
        let scheduler = TestScheduler()
        let matched = Counter()
        scheduler.schedule { if Scheduler.current === scheduler { matched.increment() } }
        scheduler.schedule(afterDelay: 1) { if Scheduler.current === scheduler { matched.increment() } }
        scheduler.stepAll()
        XCTAssertEqual(matched.value, 2)
    }

    func testRepeating_runsEveryIntervalUntilDisposed() {
        let scheduler = TestScheduler()
        let times = Recorder<TimeInterval>()
        let disposable = scheduler.schedule(after: scheduler.now.addingTimeInterval(1), repeatingEvery: 2) {
            times.record(scheduler.now.timeIntervalSinceReferenceDate)
        }
        scheduler.advance(by: 6)
        XCTAssertEqual(times.values, [1, 3, 5])
        disposable?.dispose()
        scheduler.advance(by: 10)
        XCTAssertEqual(times.values, [1, 3, 5])
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testRepeating_disposedFromInsideItsOwnBlockStops() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let box = DisposableBox()
        box.disposable = scheduler.schedule(after: scheduler.now, repeatingEvery: 1) {
            runs.increment()
            if runs.value == 3 { box.disposable?.dispose() }
        }
        scheduler.stepAll()
        XCTAssertEqual(runs.value, 3)
    }

    func testScheduleAfter_pastDateRunsAtTheNextStepWithoutMovingTheClockBack() {
        let scheduler = TestScheduler()
        scheduler.advance(by: 10)
        let runs = Counter()
        scheduler.schedule(after: TestScheduler.startDate) { runs.increment() }
        scheduler.step()
        XCTAssertEqual(runs.value, 1)
        XCTAssertEqual(scheduler.now.timeIntervalSinceReferenceDate, 10)
    }

    func testDisposedBlocks_doNotCountAsWaitingNorMoveTheClock() {
        let scheduler = TestScheduler()
        scheduler.schedule(afterDelay: 5) {}?.dispose()
        scheduler.schedule(afterDelay: 1) {}?.dispose()
        XCTAssertTrue(scheduler.isEmpty)
        XCTAssertFalse(scheduler.step())
        XCTAssertEqual(scheduler.now, TestScheduler.startDate)

        let runs = Recorder<TimeInterval>()
        scheduler.schedule(afterDelay: 3) {}?.dispose()
        scheduler.schedule(afterDelay: 7) { runs.record(scheduler.now.timeIntervalSinceReferenceDate) }
        XCTAssertFalse(scheduler.isEmpty)
        XCTAssertTrue(scheduler.step())
        XCTAssertEqual(runs.values, [7])
        XCTAssertTrue(scheduler.isEmpty)
    }
}
