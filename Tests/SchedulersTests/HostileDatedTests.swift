import Disposables
import Foundation
import Schedulers
import TestSupport
import XCTest

private actor HostileActor {}

/// A hostile review of the dated methods written once (`DatedScheduling`) and the dated blocks
/// shared by `QueueScheduler` and `ActorScheduler` (`DatedBlocks`).
final class HostileDatedTests: XCTestCase {
    private func realSchedulers() -> [(String, Scheduler)] {
        [
            ("QueueScheduler", Scheduler.background(name: "hostile.queue")),
            ("ActorScheduler", ActorScheduler(HostileActor(), name: "hostile.actor")),
            ("main", Scheduler.main),
        ]
    }

    /// Blocks for one date run in the order they were scheduled, and dated blocks already past
    /// run after the blocks queued before them and before those queued after.
    func testDatedBlocks_runInDateThenSchedulingOrder_onEveryScheduler() {
        for (name, scheduler) in realSchedulers() {
            let order = Recorder<Int>()
            let date = Date(timeIntervalSinceNow: 0.05)
            let started = DispatchSemaphore(value: 0)
            let hold = DispatchSemaphore(value: 0)
            // Hold the scheduler so that everything below queues up behind.
            if scheduler !== Scheduler.main {
                scheduler.schedule {
                    started.signal()
                    hold.wait()
                }
                started.wait()
            }
            scheduler.schedule(after: date) { order.record(3) }
            scheduler.schedule(after: date.addingTimeInterval(-10)) { order.record(1) }   // past: due now
            scheduler.schedule { order.record(2) }
            scheduler.schedule(after: date) { order.record(4) }
            scheduler.schedule(afterDelay: -1) { order.record(2_5) }                  // due now, behind 2
            // Never due: disposed at the end, since a scheduler keeps itself while a block waits
            // (left waiting, they kept the scheduler to the process's exit, a leak to LeakSanitizer).
            let never = CompoundDisposable()
            never.add(scheduler.schedule(after: .distantFuture) { order.record(100) })
            never.add(scheduler.schedule(afterDelay: .infinity) { order.record(101) })
            defer { never.dispose() }
            hold.signal()
            XCTAssertTrue(eventually { order.values.count >= 5 }, name)
            // Give nothing more a chance by waiting for a marker scheduled last, after the date.
            let marker = Flag()
            scheduler.schedule(after: date.addingTimeInterval(0.01)) { marker.set() }
            XCTAssertTrue(eventually { marker.isSet }, name)
            XCTAssertEqual(order.values, [1, 2, 2_5, 3, 4], name)
        }
    }

    func testDatedBlock_disposedBeforeItsDate_neverRunsAndIsReleased_onEveryScheduler() {
        for (name, scheduler) in realSchedulers() {
            let ran = Flag()
            var token: LifetimeToken? = LifetimeToken()
            let weak = WeakReference(token!)
            let disposable = { [token] in
                scheduler.schedule(afterDelay: 0.05) { _ = token; ran.set() }
            }()
            token = nil
            XCTAssertTrue(weak.isAlive, name)
            disposable?.dispose()
            XCTAssertFalse(weak.isAlive, "\(name): a cancelled dated block is still held")
            let marker = Flag()
            scheduler.schedule(afterDelay: 0.1) { marker.set() }
            XCTAssertTrue(eventually { marker.isSet }, name)
            XCTAssertFalse(ran.isSet, name)
        }
    }

    func testRepeating_runsUntilDisposedThenReleases_onEveryScheduler() {
        for (name, scheduler) in realSchedulers() {
            let runs = Counter()
            var token: LifetimeToken? = LifetimeToken()
            let weak = WeakReference(token!)
            let disposable = { [token] in
                scheduler.schedule(after: Date(), repeatingEvery: 0.001, leeway: 0) { _ = token; runs.increment() }
            }()
            token = nil
            XCTAssertTrue(eventually { runs.value >= 3 }, name)
            disposable?.dispose()
            let stopped = runs.value
            // A block already started may finish; then nothing more.
            let marker = Flag()
            scheduler.schedule(afterDelay: 0.02) { marker.set() }
            XCTAssertTrue(eventually { marker.isSet }, name)
            XCTAssertLessThanOrEqual(runs.value, stopped + 1, name)
            XCTAssertTrue(eventually { !weak.isAlive }, "\(name): a stopped repetition is still held")
        }
    }

    func testRepeating_disposedFromInsideItsOwnRun_runsOnce_onEveryScheduler() {
        for (name, scheduler) in realSchedulers() {
            let runs = Counter()
            let box = DisposableBox()
            let ready = DispatchSemaphore(value: 0)
            scheduler.schedule {
                box.disposable = scheduler.schedule(after: Date(), repeatingEvery: 0.001, leeway: 0) {
                    runs.increment()
                    box.disposable?.dispose()
                }
                ready.signal()
            }
            if scheduler === Scheduler.main {
                XCTAssertTrue(eventually { runs.value >= 1 }, name)
            } else {
                ready.wait()
                XCTAssertTrue(eventually { runs.value >= 1 }, name)
            }
            let marker = Flag()
            scheduler.schedule(afterDelay: 0.02) { marker.set() }
            XCTAssertTrue(eventually { marker.isSet }, name)
            XCTAssertEqual(runs.value, 1, name)
        }
    }

    /// A scheduler let go of while dated blocks wait still runs them, and then goes.
    func testSchedulerLetGoOfWithDatedBlocksWaiting_runsThemThenGoes() {
        for kind in ["queue", "actor"] {
            let ran = Flag()
            var scheduler: Scheduler? = kind == "queue"
                ? Scheduler.background(name: "hostile.released")
                : ActorScheduler(HostileActor(), name: "hostile.released")
            let weak = WeakReference(scheduler!)
            scheduler!.schedule(afterDelay: 0.02) { ran.set() }
            scheduler = nil
            XCTAssertTrue(eventually { ran.isSet }, kind)
            XCTAssertTrue(eventually { !weak.isAlive }, "\(kind): the scheduler outlived its last dated block")
        }
    }

    func testSchedulerLetGoOfWithOnlyCancelledBlocks_goes() {
        for kind in ["queue", "actor"] {
            var scheduler: Scheduler? = kind == "queue"
                ? Scheduler.background(name: "hostile.released")
                : ActorScheduler(HostileActor(), name: "hostile.released")
            let weak = WeakReference(scheduler!)
            let disposable = scheduler!.schedule(afterDelay: 1000) {}
            scheduler = nil
            XCTAssertTrue(weak.isAlive, kind)
            disposable?.dispose()
            XCTAssertTrue(eventually { !weak.isAlive }, "\(kind): the scheduler outlived its cancelled block")
        }
    }

    func testCurrentIsSetInsideDatedAndRepeatingBlocks() {
        for (name, scheduler) in realSchedulers() {
            let seen = Recorder<Bool>()
            let box = DisposableBox()
            scheduler.schedule(afterDelay: 0.001) { seen.record(Scheduler.current === scheduler) }
            box.disposable = scheduler.schedule(after: Date(), repeatingEvery: 0.001, leeway: 0.0005) {
                seen.record(Scheduler.current === scheduler)
                box.disposable?.dispose()
            }
            XCTAssertTrue(eventually { seen.values.count >= 2 }, name)
            XCTAssertEqual(Set(seen.values), [true], name)
        }
    }

    // MARK: TestScheduler

    func testTestScheduler_afterDelayCountsFromVirtualNowAndKeepsOrder() {
        let scheduler = TestScheduler()
        let order = Recorder<String>()
        scheduler.advance(by: 10)
        scheduler.schedule(afterDelay: 2) { order.record("d2") }
        scheduler.schedule(after: Date(timeIntervalSinceReferenceDate: 12)) { order.record("a12") }
        scheduler.schedule(afterDelay: 1) { order.record("d1") }
        scheduler.schedule(afterDelay: -5) { order.record("now") }
        scheduler.schedule(afterDelay: .infinity) { order.record("never") }
        scheduler.schedule(afterDelay: -.infinity) { order.record("now2") }
        scheduler.advance(by: 1)
        XCTAssertEqual(order.values, ["now", "now2", "d1"])
        scheduler.run()
        XCTAssertEqual(order.values, ["now", "now2", "d1", "d2", "a12"])
        XCTAssertEqual(scheduler.now, Date(timeIntervalSinceReferenceDate: 12))
        XCTAssertFalse(scheduler.isEmpty, "the block at infinity waits")
    }

    func testTestScheduler_afterDelayInsideABlockCountsFromThatBlocksTime() {
        let scheduler = TestScheduler()
        let times = Recorder<TimeInterval>()
        scheduler.schedule(afterDelay: 5) {
            scheduler.schedule(afterDelay: 1) { times.record(scheduler.now.timeIntervalSinceReferenceDate) }
        }
        scheduler.advance(by: 10)
        XCTAssertEqual(times.values, [6])
    }

    func testTestScheduler_repeatingKeepsItsCadenceAndStopsOnDisposal() {
        let scheduler = TestScheduler()
        let times = Recorder<TimeInterval>()
        let disposable = scheduler.schedule(after: Date(timeIntervalSinceReferenceDate: 1), repeatingEvery: 2, leeway: 100) {
            times.record(scheduler.now.timeIntervalSinceReferenceDate)
        }
        scheduler.advance(by: 6)
        XCTAssertEqual(times.values, [1, 3, 5])
        disposable?.dispose()
        scheduler.advance(by: 10)
        XCTAssertEqual(times.values, [1, 3, 5])
        XCTAssertTrue(scheduler.isEmpty)
    }
}
