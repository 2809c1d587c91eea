import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class RateLimitTests: LeakCheckedTestCase {
    private typealias Events = [Stamped<Int, TestError>]

    // Marble tests: each character is one frame of virtual time (1 s unless `frame` says
    // otherwise), and a match fixes the exact time of every event.
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6]

    func testRateLimit_sendsTheFirstValueAtOnceAndTheLatestOfEachWindowWhenItEnds() {
        // The doc comment's example: `a` opens a window (0-3 s); `c`, the latest of it, leaves at
        // 3 s and opens the next (3-6 s), which ends empty; `d` comes after it and leaves at once.
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("abc----d-e", values: values, error: TestError.first)
        let recording = scheduler.record(source.rateLimit(3, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "a--c---d--e", values: values, error: .first))
    }

    func testRateLimit_notLatest_dropsEveryValueButTheOneThatOpensAWindow() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("abc----d-e", values: values, error: TestError.first)
        let recording = scheduler.record(source.rateLimit(3, on: scheduler, latest: false))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "a------d", values: values, error: .first))
    }

    func testRateLimit_aSteadyStreamSendsOneValuePerWindow() {
        // A value every half second against a 1.5 s window: the latest of each window leaves as
        // it ends, so the values keep coming, three windows apart, where a debounce would send
        // nothing until the stream paused.
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("abcdef|", values: values, error: TestError.first, frame: 0.5)
        let limited = scheduler.record(source.rateLimit(1.5, on: scheduler))
        let debounced = scheduler.record(source.throttle(1.5, on: scheduler))
        scheduler.run()
        // a at 0; b, c, d wait in 0-1.5 s and d leaves at 1.5; e, f wait in 1.5-3 s, and
        // completion at 3 s sends f first (it comes before the window's timer at that instant).
        XCTAssertNil(limited.mismatch(expected: "a--d--(f|)", values: values, error: .first, frame: 0.5))
        XCTAssertNil(debounced.mismatch(expected: "------(f|)", values: values, error: .first, frame: 0.5))
    }

    func testRateLimit_valuesFartherApartThanTheWindowAllPassAtOnce() {
        for latest in [true, false] {
            let scheduler = TestScheduler()
            let source = scheduler.createColdSignal("a---b---c|", values: values, error: TestError.first)
            let recording = scheduler.record(source.rateLimit(2, on: scheduler, latest: latest))
            scheduler.run()
            XCTAssertNil(recording.mismatch(expected: "a---b---c|", values: values, error: .first), "latest: \(latest)")
        }
    }

    func testRateLimit_completionSendsTheValueWaitingAtOnceThenCompletes() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("ab|", values: values, error: TestError.first)
        let recording = scheduler.record(source.rateLimit(5, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "a-(b|)", values: values, error: .first))
        XCTAssertEqual(elapsed(scheduler), 2, "the window's timer was cancelled by completion")
        XCTAssertEqual(source.subscriptions, [.init(subscribed: 0, disposed: 2)])
    }

    func testRateLimit_notLatest_completionSendsNothingMore() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("ab|", values: values, error: TestError.first)
        let recording = scheduler.record(source.rateLimit(5, on: scheduler, latest: false))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "a-|", values: values, error: .first))
        XCTAssertEqual(elapsed(scheduler), 2)
    }

    func testRateLimit_errorDiscardsTheValueWaitingAndPassesAtOnce() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("ab#", values: values, error: TestError.first)
        let recording = scheduler.record(source.rateLimit(5, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "a-#", values: values, error: .first))
        XCTAssertEqual(elapsed(scheduler), 2, "the window's timer was cancelled by the error")
        XCTAssertEqual(source.subscriptions, [.init(subscribed: 0, disposed: 2)])
    }

    func testRateLimit_disposalCancelsTheWindowAndTheValueWaiting() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.rateLimit(1, on: scheduler).record(on: scheduler)
        source.input.sendNext(1)
        source.input.sendNext(2)
        recorder.dispose()
        XCTAssertTrue(scheduler.isEmpty, "the window's timer was not cancelled")
        source.input.sendNext(3)
        source.input.sendCompleted()
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(0, .next(1))] as Events)
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testRateLimit_zeroIntervalSendsTheFirstAndLastOfASynchronousBurst() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.rateLimit(0, on: scheduler).record(on: scheduler)
        source.input.sendNext(1)
        source.input.sendNext(2)
        source.input.sendNext(3)
        XCTAssertEqual(recorder.events, [at(0, .next(1))] as Events)
        scheduler.advance(by: 0)
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(0, .next(3))] as Events)
        // 3 opened a window of its own; once it has ended, the next value leaves at once.
        scheduler.advance(by: 0)
        source.input.sendNext(4)
        XCTAssertEqual(recorder.events.last, at(0, .next(4)))
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(0, .next(3)), at(0, .next(4)), at(0, .completed)] as Events)
    }

    func testRateLimit_infiniteIntervalSendsTheFirstValueAndHoldsTheLatestUntilCompletion() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.rateLimit(.infinity, on: scheduler).record(on: scheduler)
        source.input.sendNext(1)
        scheduler.advance(by: 1e9)
        source.input.sendNext(2)
        source.input.sendNext(3)
        scheduler.advance(by: 1e9)
        XCTAssertEqual(recorder.events, [at(0, .next(1))] as Events)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(2e9, .next(3)), at(2e9, .completed)] as Events)
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testRateLimit_synchronousSources() {
        let scheduler = TestScheduler()
        XCTAssertEqual(TestSource([1, 2, 3]).signal.rateLimit(1, on: scheduler).record(on: scheduler).events, [at(0, .next(1)), at(0, .next(3)), at(0, .completed)] as Events)
        XCTAssertEqual(TestSource([1, 2, 3]).signal.rateLimit(1, on: scheduler, latest: false).record(on: scheduler).events, [at(0, .next(1)), at(0, .completed)] as Events)
        XCTAssertEqual(TestSource<Int>([]).signal.rateLimit(1, on: scheduler).record(on: scheduler).events, [at(0, .completed)] as Events)
        XCTAssertEqual(TestSource([1, 2], end: .error(.second)).signal.rateLimit(1, on: scheduler).record(on: scheduler).events, [at(0, .next(1)), at(0, .error(.second))] as Events)
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testRateLimit_theFirstValueLeavesOnTheSendingThreadAndTheLatestOnTheScheduler() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let onScheduler = Recorder<Bool>()
        let recorder = source.signal.rateLimit(1, on: scheduler)
            .doNextForTest { _ in onScheduler.record(Scheduler.current === scheduler) }
            .record(on: scheduler)
        source.input.sendNext(1)
        source.input.sendNext(2)
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(1, .next(2))] as Events)
        XCTAssertEqual(onScheduler.values, [false, true])
    }

    func testRateLimit_releasesEverythingAfterCompletionAndDisposal() {
        let scheduler = TestScheduler()
        let (tokens, input) = Signal<LifetimeToken, Never>.pipe()
        let (subscription, waitingToken) = trackingLifetime { token in
            let subscription = tokens.rateLimit(1, on: scheduler).subscribe()
            input.sendNext(LifetimeToken())
            input.sendNext(token)
            return subscription
        }
        XCTAssertTrue(waitingToken.isAlive, "the value waiting is held")
        subscription.dispose()
        XCTAssertFalse(waitingToken.isAlive, "disposal released the value waiting")

        let (completedSubscription, completedToken) = trackingLifetime { token in
            let subscription = tokens.rateLimit(1, on: scheduler).subscribe()
            input.sendNext(LifetimeToken())
            input.sendNext(token)
            return subscription
        }
        input.sendCompleted()
        XCTAssertFalse(completedToken.isAlive, "completion released the value it sent")
        XCTAssertTrue(completedSubscription.isDisposed)
    }

    func testRateLimit_keepsOrderBetweenTheSourceAndTheTimer() {
        // Values on one thread, windows timed on another: what is sent stays in the source's
        // order, without repeats, and the last value gets through.
        let scheduler = QueueScheduler(name: "rateLimit test")
        for _ in 0..<20 {
            let (signal, input) = Signal<Int, Never>.pipe()
            let received = Recorder<Int>()
            let done = DispatchSemaphore(value: 0)
            signal.rateLimit(0, on: scheduler)
                .subscribe(next: { received.record($0) }, completed: { done.signal() })
            onAPlainThread {
                for value in 0..<300 { input.sendNext(value) }
                input.sendCompleted()
            }
            XCTAssertTrue(done.waitForSignal())
            let values = received.values
            XCTAssertEqual(values, values.sorted())
            XCTAssertEqual(Set(values).count, values.count)
            XCTAssertEqual(values.first, 0)
            XCTAssertEqual(values.last, 299)
        }
    }
}
