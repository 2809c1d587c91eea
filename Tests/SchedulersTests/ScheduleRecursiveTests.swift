import Disposables
import Foundation
import Schedulers
import TestSupport
import XCTest

final class ScheduleRecursiveTests: LeakCheckedTestCase {
    func testImmediate_aMillionSynchronousReschedulesComplete() {
        let runs = Counter()
        let disposable = Scheduler.immediate.scheduleRecursive { reschedule in
            runs.increment()
            if runs.value < 1_000_000 { reschedule() }
        }
        XCTAssertNil(disposable)
        XCTAssertEqual(runs.value, 1_000_000)
    }

    func testImmediate_severalSynchronousReschedulesRunOncePerRequest() {
        let runs = Counter()
        Scheduler.immediate.scheduleRecursive { reschedule in
            runs.increment()
            if runs.value == 1 {
                reschedule()
                reschedule()
            }
        }
        XCTAssertEqual(runs.value, 3)
    }

    func testSynchronousReschedule_isDeferredUntilTheBlockReturns() {
        let scheduler = TestScheduler()
        let log = Recorder<String>()
        let turn = Counter()
        scheduler.scheduleRecursive { reschedule in
            turn.increment()
            log.record("start \(turn.value)")
            if turn.value < 3 { reschedule() }
            log.record("end \(turn.value)")
        }
        XCTAssertEqual(log.values, [])
        scheduler.step()
        XCTAssertEqual(log.values, ["start 1", "end 1"])
        scheduler.stepAll()
        XCTAssertEqual(log.values, ["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"])
    }

    func testAsynchronousReschedule_isScheduledAtOnce() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let saved = RescheduleBox()
        scheduler.scheduleRecursive { reschedule in
            runs.increment()
            saved.reschedule = reschedule
        }
        scheduler.stepAll()
        XCTAssertEqual(runs.value, 1)
        XCTAssertTrue(scheduler.isEmpty)
        saved.reschedule?()
        XCTAssertFalse(scheduler.isEmpty)
        scheduler.stepAll()
        XCTAssertEqual(runs.value, 2)
        // The block holds the box that holds its own reschedule: empty it, or they keep each other alive.
        saved.reschedule = nil
    }

    func testDispose_stopsFurtherRuns() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let disposable = scheduler.scheduleRecursive { reschedule in
            runs.increment()
            reschedule()
        }
        scheduler.step(3)
        disposable?.dispose()
        scheduler.stepAll()
        XCTAssertEqual(runs.value, 3)
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testDispose_fromInsideTheBlockStops() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let box = DisposableBox()
        box.disposable = scheduler.scheduleRecursive { reschedule in
            runs.increment()
            reschedule()
            if runs.value == 5 { box.disposable?.dispose() }
        }
        scheduler.stepAll()
        XCTAssertEqual(runs.value, 5)
    }

    func testDispose_releasesTheAction() {
        let scheduler = TestScheduler()
        let (disposable, token) = trackingLifetime { token in
            scheduler.scheduleRecursive { reschedule in
                _ = token
                reschedule()
            }
        }
        scheduler.step(2)
        XCTAssertTrue(token.isAlive)
        disposable?.dispose()
        XCTAssertFalse(token.isAlive)
    }

    func testInlineScheduler_manySynchronousReschedulesDoNotGrowTheStack() {
        // The subscription scheduler runs blocks inline while a scheduler is current.
        let outer = TestScheduler()
        let runs = Counter()
        outer.schedule {
            Scheduler.subscription.scheduleRecursive { reschedule in
                runs.increment()
                if runs.value < 200_000 { reschedule() }
            }
        }
        outer.stepAll()
        XCTAssertEqual(runs.value, 200_000)
    }

    func testQueueScheduler_reschedulesUntilDone() {
        let scheduler = QueueScheduler(name: "recursive")
        let runs = Counter()
        let done = DispatchSemaphore(value: 0)
        scheduler.scheduleRecursive { reschedule in
            XCTAssertTrue(Scheduler.current === scheduler)
            runs.increment()
            if runs.value < 1_000 { reschedule() } else { done.signal() }
        }
        XCTAssertTrue(done.waitForSignal(), "the recursion did not reach 1,000 runs")
        XCTAssertEqual(runs.value, 1_000)
    }
}

final class RescheduleBox: @unchecked Sendable {
    var reschedule: (@Sendable () -> Void)?
}
