import Disposables
import Foundation
import Schedulers
import TestSupport
import XCTest

/// A serial queue scheduler runs blocks in the order of their dates, and blocks for the same date
/// in the order they were scheduled, whatever the machine's load.
final class QueueSchedulerOrderTests: LeakCheckedTestCase {
    func testQueueScheduler_blocksForOneDateRunInTheOrderScheduled() {
        assertBlocksForOneDateRunInTheOrderScheduled(QueueScheduler(name: "one-date"), rounds: 200)
    }

    func testBackground_blocksForOneDateRunInTheOrderScheduled() {
        assertBlocksForOneDateRunInTheOrderScheduled(Scheduler.background(priority: .high), rounds: 50)
    }

    func testMain_blocksForOneDateRunInTheOrderScheduled() {
        let date = Date().addingTimeInterval(0.001)
        let order = Recorder<Int>()
        let ran = expectation(description: "main blocks")
        ran.expectedFulfillmentCount = 10
        for index in 0..<10 {
            Scheduler.main.schedule(after: date) {
                order.record(index)
                ran.fulfill()
            }
        }
        wait(for: [ran], timeout: 10)
        XCTAssertEqual(order.values, Array(0..<10))
    }

    func testQueueScheduler_blocksRunInTheOrderOfTheirDatesWhenScheduledInReverse() {
        let scheduler = QueueScheduler(name: "reverse")
        var checked = 0
        for round in 0..<20 {
            let first = Date().addingTimeInterval(0.05)
            let order = Recorder<Int>()
            let done = DispatchGroup()
            for index in (0..<10).reversed() {
                done.enter()
                // 10 µs apart, so that several fall due at one firing of the timer.
                scheduler.schedule(after: first.addingTimeInterval(Double(index) * 0.00001)) {
                    order.record(index)
                    done.leave()
                }
            }
            // A date that came while the blocks were scheduled counts as the moment it was
            // scheduled: such a round says nothing about the order of dates.
            let inTime = Date() < first
            XCTAssertTrue(done.waitForAll(), "round \(round): the blocks did not all run")
            guard inTime else { continue }
            checked += 1
            XCTAssertEqual(order.values, Array(0..<10), "round \(round)")
        }
        XCTAssertGreaterThan(checked, 0, "every date came while its round was scheduled: nothing was checked")
    }

    func testQueueScheduler_undatedBlocksAndDatesPastKeepTheOrderScheduled() {
        let scheduler = QueueScheduler(name: "mixed")
        for round in 0..<100 {
            let order = Recorder<String>()
            let done = DispatchGroup()
            let gate = DispatchSemaphore(value: 0)
            scheduler.schedule { _ = gate.waitForSignal() }
            let now = Date()
            for (index, date) in [nil, now, nil, now.addingTimeInterval(-1), .distantPast, nil, now].enumerated() {
                done.enter()
                let block: @Sendable () -> Void = {
                    order.record("\(index)")
                    done.leave()
                }
                if let date { scheduler.schedule(after: date, block) } else { scheduler.schedule(block) }
            }
            gate.signal()
            XCTAssertTrue(done.waitForAll(), "round \(round): the blocks did not all run")
            XCTAssertEqual(order.values, (0..<7).map { "\($0)" }, "round \(round)")
        }
    }

    func testQueueScheduler_aDateThatCameWhileTheQueueWasBusyRunsBeforeLaterBlocks() {
        let scheduler = QueueScheduler(name: "busy")
        let order = Recorder<String>()
        let done = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)
        scheduler.schedule { _ = gate.waitForSignal() }
        let record: (String) -> @Sendable () -> Void = { name in
            done.enter()
            return {
                order.record(name)
                done.leave()
            }
        }
        scheduler.schedule(afterDelay: 0.002, record("dated"))
        Thread.sleep(forTimeInterval: 0.005)
        // Due when scheduled, which is after the first block's date.
        scheduler.schedule(after: Date(), record("now"))
        scheduler.schedule(record("undated"))
        gate.signal()
        XCTAssertTrue(done.waitForAll(), "the blocks did not all run")
        XCTAssertEqual(order.values, ["dated", "now", "undated"])
    }

    func testQueueScheduler_repeatingBlocksTakeTheirTurnAmongBlocksForTheSameDate() {
        let scheduler = QueueScheduler(name: "repeating-order")
        for round in 0..<50 {
            let date = Date().addingTimeInterval(0.0002)
            let order = Recorder<String>()
            let done = DispatchGroup()
            done.enter()
            done.enter()
            done.enter()
            scheduler.schedule(after: date) {
                order.record("once before")
                done.leave()
            }
            let repeating = DisposableBox()
            repeating.disposable = scheduler.schedule(after: date, repeatingEvery: 60) {
                order.record("repeating")
                done.leave()
            }
            scheduler.schedule(after: date) {
                order.record("once after")
                done.leave()
            }
            XCTAssertTrue(done.waitForAll(), "round \(round): the blocks did not all run")
            repeating.disposable?.dispose()
            XCTAssertEqual(order.values, ["once before", "repeating", "once after"], "round \(round)")
        }
    }

    func testQueueScheduler_datedBlocksFromManyThreadsRunInDateOrder() {
        // The dates must all be still to come when their blocks are scheduled, or the order says
        // nothing: a loaded machine may take longer than the first lead to schedule them, so a
        // round that ran late is tried again with a longer one.
        for lead in [0.5, 2, 10] {
            if assertDatedBlocksFromManyThreadsRunInDateOrder(lead: lead) { return }
        }
        XCTFail("the dates came while the blocks were scheduled, even 10 s ahead: the order says nothing")
    }

    /// One round of ``testQueueScheduler_datedBlocksFromManyThreadsRunInDateOrder()``, its dates
    /// `lead` seconds ahead; `false` when they came before every block was scheduled.
    private func assertDatedBlocksFromManyThreadsRunInDateOrder(lead: TimeInterval) -> Bool {
        let scheduler = QueueScheduler(name: "many-threads")
        let start = Date().addingTimeInterval(lead)
        let ran = Recorder<(date: Int, thread: Int, index: Int)>()
        let done = DispatchGroup()
        race(threads: 4) { thread in
            for index in 0..<100 {
                let date = index % 5
                done.enter()
                let disposable = scheduler.schedule(after: start.addingTimeInterval(Double(date) * 0.0001)) {
                    ran.record((date, thread, index))
                    done.leave()
                }
                if index % 10 == 9, let disposable {
                    disposable.dispose()
                    done.leave()
                }
            }
        }
        let inTime = Date() < start
        XCTAssertTrue(done.waitForAll(timeout: lead + defaultWaitSeconds), "the blocks did not all run")
        guard inTime else { return false }
        let values = ran.values
        XCTAssertEqual(values.count, 360)
        XCTAssertEqual(values.map(\.date), values.map(\.date).sorted(), "blocks ran out of date order")
        for thread in 0..<4 {
            for date in 0..<5 {
                let indices = values.filter { $0.thread == thread && $0.date == date }.map(\.index)
                XCTAssertEqual(indices, indices.sorted(), "thread \(thread), date \(date)")
            }
        }
        return true
    }

    func testQueueScheduler_disposingADatedBlockCancelsItAndLetsTheSchedulerGo() {
        let runs = Counter()
        var scheduler: QueueScheduler? = QueueScheduler(name: "dispose-dated")
        let watched = WeakReference(scheduler!)
        let (disposable, token) = trackingLifetime { token in
            scheduler!.schedule(after: .distantFuture) { _ = token; runs.increment() }
        }
        let soon = scheduler!.schedule(afterDelay: 0.001) { runs.increment() }
        scheduler = nil
        XCTAssertTrue(watched.isAlive, "blocks still wait")
        soon?.dispose()
        disposable?.dispose()
        XCTAssertFalse(token.isAlive, "disposal released the block")
        XCTAssertFalse(watched.isAlive, "nothing waits: the scheduler is let go of")
        XCTAssertEqual(runs.value, 0)
    }

    func testQueueScheduler_aSchedulerLetGoOfStillRunsItsDatedBlocks() {
        let ran = DispatchSemaphore(value: 0)
        var scheduler: QueueScheduler? = QueueScheduler(name: "let-go")
        let watched = WeakReference(scheduler!)
        scheduler!.schedule(afterDelay: 0.002) { ran.signal() }
        scheduler = nil
        XCTAssertTrue(ran.waitForSignal(), "the dated block did not run")
        XCTAssertTrue(eventually { !watched.isAlive }, "the scheduler was not let go of")
    }

    /// `rounds` rounds of 3 to 10 blocks for one date, alternately just ahead and already past.
    private func assertBlocksForOneDateRunInTheOrderScheduled(_ scheduler: Scheduler, rounds: Int, file: StaticString = #filePath, line: UInt = #line) {
        for round in 0..<rounds {
            let count = 3 + round % 8
            let date = Date().addingTimeInterval(round.isMultiple(of: 2) ? 0.0002 : -0.0002)
            let order = Recorder<Int>()
            let done = DispatchGroup()
            for index in 0..<count {
                done.enter()
                scheduler.schedule(after: date) {
                    order.record(index)
                    done.leave()
                }
            }
            XCTAssertTrue(done.waitForAll(), "round \(round): the blocks did not all run", file: file, line: line)
            XCTAssertEqual(order.values, Array(0..<count), "round \(round)", file: file, line: line)
        }
    }
}
