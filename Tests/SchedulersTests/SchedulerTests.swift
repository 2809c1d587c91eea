import Disposables
import Foundation
import Schedulers
import TestSupport
import XCTest

final class SchedulerTests: LeakCheckedTestCase {
    func testImmediate_runsInlineAndReturnsNil() {
        let log = Recorder<String>()
        let disposable = Scheduler.immediate.schedule { log.record("block") }
        log.record("after")
        XCTAssertNil(disposable)
        XCTAssertEqual(log.values, ["block", "after"])
    }

    func testImmediate_doesNotBecomeCurrent() {
        let background = Scheduler.background()
        let seen = Recorder<Bool>()
        let done = DispatchSemaphore(value: 0)
        background.schedule {
            Scheduler.immediate.schedule {
                seen.record(Scheduler.current === background)
            }
            done.signal()
        }
        XCTAssertTrue(done.waitForSignal())
        XCTAssertEqual(seen.values, [true])
    }

    func testImmediate_scheduleAfterBlocksUntilTheDate() {
        let start = Date()
        let ran = Recorder<Date>()
        let disposable = Scheduler.immediate.schedule(after: start.addingTimeInterval(0.05)) {
            ran.record(Date())
        }
        XCTAssertNil(disposable)
        XCTAssertEqual(ran.values.count, 1)
        XCTAssertGreaterThanOrEqual(ran.values[0].timeIntervalSince(start), 0.049, "ran before the date")
    }

    func testCurrent_isMainOnTheMainThreadAndNilOnOthers() {
        XCTAssertTrue(Thread.isMainThread)
        XCTAssertTrue(Scheduler.current === Scheduler.main)
        let seen = Recorder<Bool>()
        let done = DispatchSemaphore(value: 0)
        Thread {
            seen.record(Scheduler.current == nil)
            done.signal()
        }.start()
        XCTAssertTrue(done.waitForSignal())
        XCTAssertEqual(seen.values, [true])
    }

    func testPerformAsCurrentScheduler_nestsAndRestores() {
        let outer = TestScheduler()
        let inner = TestScheduler()
        let seen = Recorder<String>()
        outer.performAsCurrentScheduler {
            seen.record(Scheduler.current === outer ? "outer" : "?")
            inner.performAsCurrentScheduler {
                seen.record(Scheduler.current === inner ? "inner" : "?")
            }
            seen.record(Scheduler.current === outer ? "outer" : "?")
        }
        XCTAssertTrue(Scheduler.current === Scheduler.main)
        XCTAssertEqual(seen.values, ["outer", "inner", "outer"])
    }

    func testMain_runsOnTheMainThreadAsCurrent() {
        let ran = expectation(description: "main block")
        let seen = Recorder<Bool>()
        Thread {
            Scheduler.main.schedule {
                seen.record(Thread.isMainThread && Scheduler.current === Scheduler.main)
                ran.fulfill()
            }
        }.start()
        wait(for: [ran], timeout: 10)
        XCTAssertEqual(seen.values, [true])
    }

    func testBackground_isSerialAndCurrentInItsBlocks() {
        for priority in SchedulerPriority.allCases {
            let scheduler = Scheduler.background(priority: priority, name: "test.\(priority)")
            XCTAssertEqual(scheduler.name, "test.\(priority)")
            assertSerialAndCurrent(scheduler)
        }
    }

    func testQueueScheduler_isSerialAndCurrentInItsBlocks() {
        assertSerialAndCurrent(QueueScheduler(name: "own"))
        assertSerialAndCurrent(QueueScheduler(name: "targeted", targetQueue: .global()))
        // A concurrent target queue does not make the scheduler concurrent.
        assertSerialAndCurrent(QueueScheduler(name: "concurrent target", targetQueue: DispatchQueue(label: "c", attributes: .concurrent)))
    }

    func testQueueScheduler_disposedBeforeItRunsNeverRunsAndIsReleased() {
        let scheduler = QueueScheduler(name: "cancel")
        let gate = DispatchSemaphore(value: 0)
        scheduler.schedule { _ = gate.waitForSignal() }
        let runs = Counter()
        let (disposable, token) = trackingLifetime { token in
            scheduler.schedule { _ = token; runs.increment() }
        }
        disposable?.dispose()
        XCTAssertFalse(token.isAlive)
        gate.signal()
        let drained = DispatchSemaphore(value: 0)
        scheduler.schedule { drained.signal() }
        XCTAssertTrue(drained.waitForSignal())
        XCTAssertEqual(runs.value, 0)
    }

    func testQueueScheduler_scheduleAfterRunsAfterTheDate() {
        let scheduler = QueueScheduler(name: "after")
        let start = Date()
        let ran = DispatchSemaphore(value: 0)
        let seen = Recorder<Bool>()
        scheduler.schedule(afterDelay: 0.02) {
            seen.record(Date().timeIntervalSince(start) >= 0.019 && Scheduler.current === scheduler)
            ran.signal()
        }
        XCTAssertTrue(ran.waitForSignal())
        XCTAssertEqual(seen.values, [true])
    }

    func testQueueScheduler_scheduleAfterDisposedNeverRuns() {
        let scheduler = QueueScheduler(name: "after-cancel")
        let runs = Counter()
        scheduler.schedule(afterDelay: 0.01) { runs.increment() }?.dispose()
        let later = DispatchSemaphore(value: 0)
        scheduler.schedule(afterDelay: 0.05) { later.signal() }
        XCTAssertTrue(later.waitForSignal())
        XCTAssertEqual(runs.value, 0)
    }

    func testQueueScheduler_intervalsTooLongForDispatchRunOnceInsteadOfTrapping() {
        let scheduler = QueueScheduler(name: "long-interval")
        let runs = Counter()
        let ran = DispatchSemaphore(value: 0)
        let repeating = scheduler.schedule(after: Date(), repeatingEvery: 1e11) {
            runs.increment()
            ran.signal()
        }
        XCTAssertTrue(ran.waitForSignal())
        let far = scheduler.schedule(after: .distantFuture, repeatingEvery: .greatestFiniteMagnitude) { runs.increment() }
        let farOnce = scheduler.schedule(after: .distantFuture) { runs.increment() }
        let later = DispatchSemaphore(value: 0)
        scheduler.schedule(afterDelay: 0.02) { later.signal() }
        XCTAssertTrue(later.waitForSignal())
        XCTAssertEqual(runs.value, 1)
        for disposable in [repeating, far, farOnce] { disposable?.dispose() }
    }

    func testQueueScheduler_repeatingStopsWhenDisposed() {
        let scheduler = QueueScheduler(name: "repeating")
        let runs = Counter()
        let box = DisposableBox()
        let stopped = DispatchSemaphore(value: 0)
        let seenCurrent = Recorder<Bool>()
        scheduler.queue.sync {
            box.disposable = scheduler.schedule(after: Date(), repeatingEvery: 0.001) {
                seenCurrent.record(Scheduler.current === scheduler)
                runs.increment()
                if runs.value == 3 {
                    box.disposable?.dispose()
                    stopped.signal()
                }
            }
        }
        XCTAssertTrue(stopped.waitForSignal())
        let later = DispatchSemaphore(value: 0)
        scheduler.schedule(afterDelay: 0.03) { later.signal() }
        XCTAssertTrue(later.waitForSignal())
        XCTAssertEqual(runs.value, 3)
        XCTAssertEqual(seenCurrent.values, [true, true, true])
    }

    func testSubscription_runsInlineWhenASchedulerIsCurrent() {
        let outer = TestScheduler()
        let log = Recorder<String>()
        outer.schedule {
            let disposable = Scheduler.subscription.schedule {
                log.record(Scheduler.current === outer ? "inline as outer" : "?")
            }
            log.record(disposable == nil ? "returned nil" : "?")
        }
        outer.step()
        XCTAssertEqual(log.values, ["inline as outer", "returned nil"])
    }

    func testSubscription_runsOnTheMainThreadInline() {
        let log = Recorder<String>()
        Scheduler.subscription.schedule { log.record("inline") }
        log.record("after")
        XCTAssertEqual(log.values, ["inline", "after"])
    }

    func testSubscription_usesABackgroundSchedulerWhenNoneIsCurrent() {
        let seen = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        Thread {
            Thread.current.name = "caller"
            Scheduler.subscription.schedule {
                let current = Scheduler.current
                seen.record(Thread.current.name != "caller" && current != nil && current !== Scheduler.subscription ? "background" : "?")
                done.signal()
            }
        }.start()
        XCTAssertTrue(done.waitForSignal())
        XCTAssertEqual(seen.values, ["background"])
    }

    func testScheduleAfterDelay_countsFromTheSchedulersNow() {
        let scheduler = TestScheduler()
        scheduler.advance(by: 100)
        let runs = Counter()
        scheduler.schedule(afterDelay: 5) { runs.increment() }
        scheduler.advance(by: 4.9)
        XCTAssertEqual(runs.value, 0)
        scheduler.advance(by: 0.1)
        XCTAssertEqual(runs.value, 1)
    }

    func testDescription_namesTheScheduler() {
        XCTAssertEqual(QueueScheduler(name: "x").description, "<QueueScheduler: x>")
    }

    /// 1,000 blocks scheduled from 4 threads at once run one at a time, each with the scheduler
    /// current, and those from one thread in order.
    private func assertSerialAndCurrent(_ scheduler: Scheduler, file: StaticString = #filePath, line: UInt = #line) {
        let inside = Counter()
        let overlaps = Counter()
        let notCurrent = Counter()
        let order = Recorder<(Int, Int)>()
        let group = DispatchGroup()
        race(threads: 4) { thread in
            for index in 0..<250 {
                group.enter()
                scheduler.schedule {
                    inside.increment()
                    if inside.value != 1 { overlaps.increment() }
                    if Scheduler.current !== scheduler { notCurrent.increment() }
                    order.record((thread, index))
                    inside.decrement()
                    group.leave()
                }
            }
        }
        XCTAssertTrue(group.waitForAll(), "the blocks did not all run", file: file, line: line)
        XCTAssertEqual(overlaps.value, 0, "blocks overlapped", file: file, line: line)
        XCTAssertEqual(notCurrent.value, 0, "scheduler not current", file: file, line: line)
        for thread in 0..<4 {
            XCTAssertEqual(order.values.filter { $0.0 == thread }.map(\.1), Array(0..<250), file: file, line: line)
        }
    }
}
