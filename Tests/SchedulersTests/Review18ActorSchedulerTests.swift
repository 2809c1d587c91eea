import Disposables
import Foundation
import Schedulers
import Synchronization
import TestSupport
import XCTest

/// An actor whose own methods suspend, so that other jobs (the scheduler's) run in between.
private actor Busy {
    var log: [String] = []

    func append(_ entry: String) { log.append(entry) }

    func work(_ rounds: Int) async {
        for round in 0..<rounds {
            log.append("work \(round)")
            await Task.yield()
        }
    }
}

/// A task-local value, as a user's request id or logger would be.
private enum Context {
    @TaskLocal static var id: String?
}

/// A hostile review of `ActorScheduler`: reentrant actors, let go with blocks pending, disposal
/// from inside blocks.
final class Review18ActorSchedulerTests: LeakCheckedTestCase {
    private func settle(_ scheduler: Scheduler) {
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule { done.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
    }

    private func waitGone(_ reference: WeakReference<ActorScheduler>) -> Bool {
        eventually { !reference.isAlive }
    }

    /// Holds: blocks keep their order while the actor's own method suspends and resumes.
    func testOrder_whileTheActorIsReentrant() async {
        let busy = Busy()
        let scheduler = ActorScheduler(busy)
        async let work: Void = busy.work(200)
        for index in 0..<200 {
            scheduler.schedule { busy.assumeIsolated { $0.append("block \(index)") } }
        }
        await work
        let ran = await eventually { await busy.log.filter({ $0.hasPrefix("block") }).count == 200 }
        XCTAssertTrue(ran, "the blocks did not all run")
        let blocks = await busy.log.filter { $0.hasPrefix("block") }
        XCTAssertEqual(blocks, (0..<200).map { "block \($0)" })
    }

    /// Holds: let go of with a far-off dated block, the scheduler goes once the block is disposed.
    func testLetGo_withAFarOffDatedBlockThenDisposed() {
        var scheduler: ActorScheduler? = ActorScheduler(Busy())
        let weakScheduler = WeakReference(scheduler!)
        let ran = Counter()
        let block = scheduler!.schedule(after: Date(timeIntervalSinceNow: 3600)) { ran.increment() }
        let repeating = scheduler!.schedule(after: Date(timeIntervalSinceNow: 3600), repeatingEvery: 1) { ran.increment() }
        let never = scheduler!.schedule(after: .distantFuture) { ran.increment() }
        scheduler = nil
        XCTAssertTrue(weakScheduler.isAlive, "dated blocks keep the scheduler, as a dispatch timer would")
        block?.dispose()
        repeating?.dispose()
        never?.dispose()
        XCTAssertTrue(waitGone(weakScheduler))
        XCTAssertEqual(ran.value, 0)
    }

    /// Holds: a repeating block that disposes itself from inside stops, and the scheduler goes.
    func testRepeating_disposedFromInsideItself() {
        var scheduler: ActorScheduler? = ActorScheduler(Busy())
        let weakScheduler = WeakReference(scheduler!)
        let runs = Counter()
        let box = DisposableBox()
        let done = DispatchSemaphore(value: 0)
        box.disposable = scheduler!.schedule(after: Date(), repeatingEvery: 0.001) {
            runs.increment()
            if runs.value == 3 {
                box.disposable?.dispose()
                done.signal()
            }
        }
        scheduler = nil
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(waitGone(weakScheduler))
        Thread.sleep(forTimeInterval: 0.01)
        XCTAssertEqual(runs.value, 3)
    }

    /// Holds: a block for a date already past, even one at minus infinity, keeps its place among
    /// undated ones. (A date that is not a number stops the program: TimeInputTests.)
    func testPastDates_keepTheOrderScheduled() {
        let scheduler = ActorScheduler(Busy())
        let log = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule { log.record("A") }
        scheduler.schedule(after: .distantPast) { log.record("B") }
        scheduler.schedule { log.record("C") }
        scheduler.schedule(after: Date(timeIntervalSinceReferenceDate: -.infinity)) { log.record("D") }
        scheduler.schedule { log.record("E"); done.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        settle(scheduler)
        XCTAssertEqual(log.values, ["A", "B", "C", "D", "E"])
    }

    /// Holds: scheduling from inside its own block, from many threads at once, loses nothing.
    func testSchedulingFromInsideItsBlocks_underRace() {
        let scheduler = ActorScheduler(Busy())
        let runs = Counter()
        race(threads: 4) { _ in
            for _ in 0..<200 {
                scheduler.schedule {
                    runs.increment()
                    scheduler.schedule { runs.increment() }
                    scheduler.schedule(after: Date()) { runs.increment() }
                }
            }
        }
        XCTAssertTrue(eventually { runs.value >= 2_400 }, "the blocks did not all run")
        settle(scheduler)
        XCTAssertEqual(runs.value, 2_400)
    }

    /// Holds: a scheduler for the main actor, disposed from the main thread while a block waits.
    func testMainActorScheduler_disposedFromTheMainThreadWhileWaiting() {
        let scheduler = ActorScheduler(MainActor.shared)
        let ran = Counter()
        let block = scheduler.schedule { ran.increment() }
        block?.dispose()
        let after = Counter()
        scheduler.schedule { after.increment() }
        XCTAssertTrue(spinMainRunLoop { after.value == 1 })
        XCTAssertEqual(ran.value, 0)
    }

    /// FAILED before the fix: the drains were `Task { }`s, which copy the task-local values (and
    /// priority) of whoever happened to start them, and each drain started the next from inside
    /// itself; so a block scheduled from a plain thread ran seeing a task-local value bound by an
    /// unrelated task that had scheduled an earlier block.
    func testBlocksDoNotSeeTheTaskLocalsOfWhoeverStartedTheDrain() async {
        let scheduler = ActorScheduler(Busy())
        let seen = Recorder<String>()
        let second = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Context.$id.withValue("request A") {
            scheduler.schedule {
                seen.record("first: \(Context.id ?? "none")")
                // Hold the drain until the second block waits behind it.
                _ = second.wait(timeout: .now() + 10)
            }
        }
        onAPlainThread {
            scheduler.schedule {
                seen.record("second: \(Context.id ?? "none")")
                done.signal()
            }
            second.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(seen.values, ["first: none", "second: none"])
    }

    /// Holds: disposing a block that has not started releases it at once, undated (waiting behind
    /// a busy block) or dated.
    func testDisposal_releasesTheBlockAtOnce() {
        let scheduler = ActorScheduler(Busy())
        let release = DispatchSemaphore(value: 0)
        scheduler.schedule { _ = release.wait(timeout: .now() + 10) }
        let (undated, undatedToken) = trackingLifetime { token in scheduler.schedule { _ = token } }
        let (dated, datedToken) = trackingLifetime { token in
            scheduler.schedule(after: Date(timeIntervalSinceNow: 3600)) { _ = token }
        }
        undated?.dispose()
        dated?.dispose()
        XCTAssertFalse(undatedToken.isAlive)
        XCTAssertFalse(datedToken.isAlive)
        release.signal()
        settle(scheduler)
    }
}
