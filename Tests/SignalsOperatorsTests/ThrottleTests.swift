import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class ThrottleTests: LeakCheckedTestCase {
    private typealias Events = [Stamped<Int, TestError>]

    // Marble tests: each character is one frame of virtual time (1 s unless `frame` says
    // otherwise), and a match fixes the exact time of every event. The source's frames are
    // scheduled when it is subscribed, so at a shared instant they run before the throttle's timer.
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4]

    func testThrottle_sendsTheLatestValueOnceAnIntervalPassesWithoutANewerOne() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("ab-c------d", values: values, error: TestError.first)
        let recording = scheduler.record(source.throttle(3, on: scheduler))
        scheduler.advance(by: 20)
        XCTAssertNil(recording.mismatch(expected: "------c------d", values: values, error: .first))
    }

    func testThrottle_anInfiniteIntervalHoldsTheLatestValueUntilCompletion() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.throttle(.infinity, on: scheduler).record(on: scheduler)
        source.input.sendNext(1)
        scheduler.advance(by: 1e9)
        source.input.sendNext(2)
        scheduler.advance(by: 1e9)
        XCTAssertEqual(recorder.events, [])
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [at(2e9, .next(2)), at(2e9, .completed)] as Events)
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testThrottle_aValueAtTheEndOfTheIntervalStillReplacesThePendingOne() {
        let scheduler = TestScheduler()
        // `b`'s frame was scheduled at subscription, before the throttle's timer, so it runs first at 1 s.
        let source = scheduler.createColdSignal("ab", values: values, error: TestError.first)
        let recording = scheduler.record(source.throttle(1, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "--b", values: values, error: .first))
    }

    func testThrottle_valuesFailingThePredicatePassAtOnceAndDiscardThePendingOne() {
        let scheduler = TestScheduler()
        let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 5]
        let source = scheduler.createColdSignal("ab----cd", values: values, error: TestError.first, frame: 0.5)
        let recording = scheduler.record(source.throttle(1, on: scheduler, valuesPassing: { $0 % 2 == 1 }))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "-b-------d", values: values, error: .first, frame: 0.5))
    }

    func testThrottle_completionSendsThePendingValueFirst() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("a|", values: values, error: TestError.first, frame: 0.5)
        let recording = scheduler.record(source.throttle(1, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "-(a|)", values: values, error: .first, frame: 0.5))
        XCTAssertEqual(source.subscriptions, [.init(subscribed: 0, disposed: 0.5)])
    }

    func testThrottle_completionWithNothingPending() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("a--|", values: values, error: TestError.first)
        let recording = scheduler.record(source.throttle(1, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "-a-|", values: values, error: .first))
    }

    func testThrottle_errorDiscardsThePendingValue() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("a#", values: values, error: TestError.first, frame: 0.5)
        let recording = scheduler.record(source.throttle(1, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "-#", values: values, error: .first, frame: 0.5))
        XCTAssertEqual(elapsed(scheduler), 0.5, "the pending value's timer was cancelled")
        XCTAssertEqual(source.subscriptions, [.init(subscribed: 0, disposed: 0.5)])
    }

    func testThrottle_aHotSourceSubscribedLateSeesOnlyWhatFollows() {
        let scheduler = TestScheduler()
        let source = scheduler.createHotSignal("a-b-c-----d|", values: values, error: TestError.first)
        scheduler.advance(by: 3)
        let recording = scheduler.record(source.throttle(2, on: scheduler))
        scheduler.run()
        // Counting from 3 s: `c` comes at 1 and leaves at 3; `d` comes at 7, and completion at 8
        // flushes it.
        XCTAssertNil(recording.mismatch(expected: "---c----(d|)", values: values, error: .first))
        XCTAssertEqual(source.subscriptions, [.init(subscribed: 3, disposed: 11)])
    }

    func testThrottle_synchronousSources() {
        let scheduler = TestScheduler()
        XCTAssertEqual(TestSource([1, 2, 3]).signal.throttle(1, on: scheduler).record(on: scheduler).events, [at(0, .next(3)), at(0, .completed)] as Events)
        XCTAssertEqual(TestSource<Int>([]).signal.throttle(1, on: scheduler).record(on: scheduler).events, [at(0, .completed)] as Events)
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.throttle(1, on: scheduler).record(on: scheduler).events, [at(0, .error(.first))] as Events)
        XCTAssertEqual(TestSource([1, 2], end: .error(.second)).signal.throttle(1, on: scheduler).record(on: scheduler).events, [at(0, .error(.second))] as Events)
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testThrottle_disposalCancelsThePendingValueAndDisposesTheSourceOnce() {
        assertDisposalMidStream { source, scheduler in source.throttle(1, on: scheduler) }
    }

    func testThrottle_releasesEverythingAfterCompletionAndDisposal() {
        let scheduler = TestScheduler()
        let (completed, completedToken) = trackingLifetime { token in
            TestSource([1]).signal.throttle(1, on: scheduler, valuesPassing: { _ in _ = token; return true }).record(on: scheduler)
        }
        XCTAssertEqual(completed.events, [at(0, .next(1)), at(0, .completed)] as Events)
        XCTAssertFalse(completedToken.isAlive)

        let source = PipeSource()
        let (disposed, disposedToken) = trackingLifetime { token in
            source.signal.throttle(1, on: scheduler, valuesPassing: { _ in _ = token; return true }).record(on: scheduler)
        }
        source.input.sendNext(1)
        disposed.dispose()
        XCTAssertFalse(disposedToken.isAlive)

        let (tokens, input) = Signal<LifetimeToken, Never>.pipe()
        let (subscription, pendingToken) = trackingLifetime { token in
            let subscription = tokens.throttle(1, on: scheduler).subscribe()
            input.sendNext(token)
            return subscription
        }
        XCTAssertTrue(pendingToken.isAlive, "the pending value is held")
        subscription.dispose()
        XCTAssertFalse(pendingToken.isAlive, "disposal released the pending value")
    }

    func testThrottle_doesNotDriftOverTenThousandPeriods() {
        let scheduler = TestScheduler()
        let periods = 10_000
        let stamps = Recorder<(time: TimeInterval, value: TimeInterval)>()
        Signal.interval(1, on: scheduler).take(periods).throttle(0.25, on: scheduler).subscribe(next: { date in
            stamps.record((elapsed(scheduler), date.timeIntervalSince(TestScheduler.startDate)))
        })
        scheduler.run()
        let recorded = stamps.values
        XCTAssertEqual(recorded.count, periods)
        let late = recorded.enumerated().filter { index, stamp in
            stamp.value != Double(index + 1) || stamp.time != Double(index + 1) + 0.25
        }
        // The last value is flushed by completion, which comes with it, at `periods` seconds.
        XCTAssertEqual(late.count, 1)
        XCTAssertEqual(late.first?.offset, periods - 1)
        XCTAssertEqual(recorded.last?.time, Double(periods))
    }

    func testThrottleWithoutAScheduler_waitsOnTheSchedulerCurrentWhereTheValueWasSent() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let current = Recorder<Bool>()
        let recorder = source.signal.throttle(1).doNextForTest { _ in current.record(Scheduler.current === scheduler) }.record(on: scheduler)
        scheduler.at(0) { source.input.sendNext(1) }
        scheduler.at(0.5) { source.input.sendNext(2) }
        scheduler.at(3) { source.input.sendNext(3) }
        scheduler.at(3.2) { source.input.sendCompleted() }
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(1.5, .next(2)), at(3.2, .next(3)), at(3.2, .completed)] as Events)
        XCTAssertEqual(current.values, [true, true])
    }

    func testThrottleWithoutAScheduler_usesABackgroundSchedulerWhereNoneIsCurrent() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let delivered = DispatchSemaphore(value: 0)
        let onBackground = Recorder<Bool>()
        let subscription = signal.throttle(0, valuesPassing: { $0 > 0 }).subscribe(next: { _ in
            onBackground.record(Scheduler.current != nil && !Thread.isMainThread)
            delivered.signal()
        })
        onAPlainThread { input.sendNext(1) }
        XCTAssertTrue(delivered.waitForSignal())
        XCTAssertEqual(onBackground.values, [true])
        subscription.dispose()
    }

    func testThrottle_keepsOrderBetweenTheSourceAndTheTimer() {
        // Values on one thread, timers on another: what is sent stays in the source's order, and
        // every value that skips the throttle, and the last, gets through.
        let scheduler = QueueScheduler(name: "throttle test")
        for _ in 0..<20 {
            let (signal, input) = Signal<Int, Never>.pipe()
            let received = Recorder<Int>()
            let done = DispatchSemaphore(value: 0)
            signal.throttle(0, on: scheduler, valuesPassing: { $0 % 3 != 0 })
                .subscribe(next: { received.record($0) }, completed: { done.signal() })
            onAPlainThread {
                for value in 0..<300 { input.sendNext(value) }
                input.sendCompleted()
            }
            XCTAssertTrue(done.waitForSignal())
            let values = received.values
            XCTAssertEqual(values, values.sorted())
            XCTAssertEqual(Set(values).count, values.count)
            XCTAssertTrue(Set(stride(from: 0, to: 300, by: 3)).isSubset(of: values))
            XCTAssertEqual(values.last, 299)
        }
    }
}

extension Signal where Value: Sendable {
    /// Runs `body` on each value before passing it on, for tests; `doNext` belongs to another
    /// family of operators.
    func doNextForTest(_ body: @escaping @Sendable (Value) -> Void) -> Signal {
        map { value in
            body(value)
            return value
        }
    }
}
