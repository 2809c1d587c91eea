import Disposables
import Foundation
import Schedulers
import Synchronization
import TestSupport
import XCTest

/// An actor whose state the scheduler's blocks touch through `assumeIsolated`.
private actor Store {
    var items: [Int] = []

    func append(_ item: Int) {
        items.append(item)
    }
}

/// A serial executor on a dispatch queue of its own.
private final class QueueExecutor: SerialExecutor {
    let queue = DispatchQueue(label: "ActorSchedulerTests.executor")
    let jobs = Counter()

    func enqueue(_ job: consuming ExecutorJob) {
        jobs.increment()
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

final class ActorSchedulerTests: LeakCheckedTestCase {
    /// Waits, off the main thread's run loop, until `scheduler` has run everything scheduled so far.
    private func settle(_ scheduler: Scheduler) {
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule { done.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
    }

    func testSchedule_runsIsolatedToTheActorAsTheCurrentScheduler() {
        let store = Store()
        let scheduler = ActorScheduler(store, name: "store")
        let seen = Recorder<Bool>()
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule {
            store.assertIsolated()
            store.assumeIsolated { $0.append(1) }
            seen.record(Scheduler.current === scheduler)
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(seen.values, [true])
        let items = Recorder<[Int]>()
        settle(scheduler)
        scheduler.schedule { items.record(store.assumeIsolated { $0.items }) }
        settle(scheduler)
        XCTAssertEqual(items.values, [[1]])
        XCTAssertEqual(scheduler.description, "<ActorScheduler: store>")
    }

    func testSchedule_keepsTheOrderOfEachThreadUnderConcurrentScheduling() {
        let scheduler = ActorScheduler(Store(), name: "fifo")
        let log = Recorder<Int>()
        let running = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)
        race(threads: 8) { thread in
            for index in 0..<200 {
                scheduler.schedule {
                    if running.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlapped.store(true, ordering: .relaxed) }
                    log.record(thread * 1_000 + index)
                    running.subtract(1, ordering: .acquiringAndReleasing)
                }
            }
        }
        settle(scheduler)
        let values = log.values
        XCTAssertEqual(values.count, 1_600)
        XCTAssertFalse(overlapped.load(ordering: .relaxed), "blocks ran one at a time")
        for thread in 0..<8 {
            let own = values.filter { $0 / 1_000 == thread }
            XCTAssertEqual(own, (0..<200).map { thread * 1_000 + $0 }, "thread \(thread)'s blocks in order")
        }
    }

    func testSchedule_fromOneThreadRunsInExactOrder() {
        let scheduler = ActorScheduler(Store(), name: "fifo")
        let log = Recorder<Int>()
        for index in 0..<1_000 { scheduler.schedule { log.record(index) } }
        settle(scheduler)
        XCTAssertEqual(log.values, Array(0..<1_000))
    }

    func testSchedule_blocksScheduledFromABlockRunAfterTheWaitingOnes() {
        let scheduler = ActorScheduler(Store(), name: "nested")
        let log = Recorder<String>()
        let blocked = DispatchSemaphore(value: 0)
        scheduler.schedule {
            _ = blocked.waitForSignal()
            scheduler.schedule { log.record("inner") }
            log.record("first")
        }
        scheduler.schedule { log.record("second") }
        blocked.signal()
        settle(scheduler)
        settle(scheduler)
        XCTAssertEqual(log.values, ["first", "second", "inner"])
    }

    func testSchedule_disposalCancelsAndReleasesABlockNotYetRun() {
        let scheduler = ActorScheduler(Store(), name: "cancel")
        let log = Recorder<String>()
        let blocked = DispatchSemaphore(value: 0)
        scheduler.schedule { _ = blocked.waitForSignal() }
        let (cancelled, token) = trackingLifetime { token in
            scheduler.schedule { _ = token; log.record("cancelled") }
        }
        scheduler.schedule { log.record("kept") }
        cancelled?.dispose()
        XCTAssertFalse(token.isAlive, "released at disposal, not when its turn comes")
        blocked.signal()
        settle(scheduler)
        XCTAssertEqual(log.values, ["kept"])
    }

    func testScheduleAfter_runsInTheOrderOfTheDates() {
        // The undated blocks must be scheduled before the first date comes, or that date counts
        // as come before them: a loaded machine may take longer than the first lead to schedule
        // them, so a round that ran late is tried again with a longer one.
        for lead in [0.2, 1, 5] {
            if assertScheduleAfterRunsInTheOrderOfTheDates(lead: lead) { return }
        }
        XCTFail("the first date came while the blocks were scheduled, even 5 s ahead: the order says nothing")
    }

    /// One round of ``testScheduleAfter_runsInTheOrderOfTheDates()``, its first date `lead`
    /// seconds ahead; `false` when it came before every block was scheduled.
    private func assertScheduleAfterRunsInTheOrderOfTheDates(lead: TimeInterval) -> Bool {
        let scheduler = ActorScheduler(Store(), name: "dated")
        let log = Recorder<String>()
        let now = Date()
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule(after: now.addingTimeInterval(lead + 0.05)) { log.record("late"); done.signal() }
        scheduler.schedule(after: now.addingTimeInterval(lead)) { log.record("early") }
        scheduler.schedule(after: now.addingTimeInterval(lead)) { log.record("early, second") }
        // A date already past counts as now: in order with the undated blocks around it.
        scheduler.schedule { log.record("undated") }
        scheduler.schedule(after: now.addingTimeInterval(-1)) { log.record("past") }
        scheduler.schedule { log.record("undated, after") }
        let inTime = Date() < now.addingTimeInterval(lead)
        XCTAssertTrue(done.waitForSignal(timeout: lead + defaultWaitSeconds), "the last dated block did not run")
        guard inTime else { return false }
        XCTAssertEqual(log.values, ["undated", "past", "undated, after", "early", "early, second", "late"])
        return true
    }

    func testScheduleAfter_runsIsolatedToTheActorAsTheCurrentScheduler() {
        let store = Store()
        let scheduler = ActorScheduler(store, name: "dated")
        let seen = Recorder<Bool>()
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule(afterDelay: 0.001) {
            store.assertIsolated()
            seen.record(Scheduler.current === scheduler)
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(seen.values, [true])
    }

    func testScheduleAfter_disposalCancels() {
        let scheduler = ActorScheduler(Store(), name: "dated")
        let log = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        let (cancelled, token) = trackingLifetime { token in
            scheduler.schedule(afterDelay: 0.01) { _ = token; log.record("cancelled") }
        }
        scheduler.schedule(afterDelay: 0.02) { log.record("kept"); done.signal() }
        cancelled?.dispose()
        XCTAssertFalse(token.isAlive)
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(log.values, ["kept"])
    }

    func testScheduleRepeating_runsUntilDisposed() {
        let store = Store()
        let scheduler = ActorScheduler(store, name: "repeating")
        let runs = Counter()
        let third = DispatchSemaphore(value: 0)
        let repeating = scheduler.schedule(after: Date(), repeatingEvery: 0.001) {
            store.assertIsolated()
            runs.increment()
            if runs.value == 3 { third.signal() }
        }
        XCTAssertEqual(third.wait(timeout: .now() + 10), .success)
        repeating?.dispose()
        // A run that started before the disposal may finish; none starts after the next block.
        settle(scheduler)
        let count = runs.value
        settle(scheduler)
        Thread.sleep(forTimeInterval: 0.01)
        settle(scheduler)
        XCTAssertEqual(runs.value, count)
    }

    func testExecutorInit_runsOnTheExecutor() {
        let executor = QueueExecutor()
        let scheduler = ActorScheduler(executor: executor, name: "executor")
        let seen = Recorder<Bool>()
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule {
            scheduler.actor.assertIsolated()
            seen.record(Scheduler.current === scheduler)
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(seen.values, [true])
        XCTAssertGreaterThan(executor.jobs.value, 0)
    }

    func testMainActor_runsOnTheMainThread() {
        let scheduler = ActorScheduler(MainActor.shared, name: "main actor")
        let seen = Recorder<Bool>()
        scheduler.schedule {
            MainActor.preconditionIsolated()
            seen.record(Thread.isMainThread && Scheduler.current === scheduler)
        }
        XCTAssertTrue(spinMainRunLoop { seen.values.count == 1 })
        XCTAssertEqual(seen.values, [true])
    }

    func testLetGo_stillRunsWhatItWasGivenThenGoes() {
        let log = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        var scheduler: ActorScheduler? = ActorScheduler(Store(), name: "let go")
        let weakScheduler = WeakReference(scheduler!)
        scheduler?.schedule { log.record("undated") }
        scheduler?.schedule(afterDelay: 0.005) { log.record("dated"); done.signal() }
        scheduler = nil
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(log.values, ["undated", "dated"])
        // The drain that ran "dated" lets go of it just after.
        XCTAssertTrue(eventually { !weakScheduler.isAlive }, "the scheduler was not let go of")
    }

    func testSchedule_doesNotShutOutTheActorsOwnWork() async {
        let store = Store()
        let scheduler = ActorScheduler(store, name: "fair")
        let stop = Atomic<Bool>(false)
        let runs = Counter()
        // A block that keeps rescheduling itself, forever until stopped.
        let loop = scheduler.scheduleRecursive { reschedule in
            runs.increment()
            if !stop.load(ordering: .relaxed) { reschedule() }
        }
        // The actor's own method still gets its turn.
        await store.append(7)
        stop.store(true, ordering: .relaxed)
        loop?.dispose()
        let items = await store.items
        XCTAssertEqual(items, [7])
    }
}
