import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// `TestScheduler.start(created:subscribed:disposed:_:)`, the events given at absolute times
/// (`createHotSignal(_:)`, `createColdSignal(_:)`), and `TestSignal.subscriptions` on the
/// scheduler's clock.
final class StartTests: LeakCheckedTestCase {
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3]

    // MARK: - start

    func testStart_recordsAtAbsoluteTimesWithRxTestsDefaults() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("-a-b|", values: values, error: TestError.first)
        let recording = scheduler.start { source.map { $0 * 10 } }
        XCTAssertEqual(recording.events, [.next(201, 10), .next(203, 20), .completed(204)])
        XCTAssertEqual(recording.events.map(\.description), ["next(10) at 201.0 s", "next(20) at 203.0 s", "completed at 204.0 s"])
        XCTAssertEqual(source.subscriptions, [.init(200, 204)])
        XCTAssertEqual(recording.startDate, scheduler.clockStart)
        XCTAssertTrue(recording.isDisposed)
        XCTAssertEqual(scheduler.clock, 1000, "the clock stops at `disposed`")
    }

    func testStart_timesAreOnTheClockWhereverItStood() {
        let scheduler = TestScheduler()
        scheduler.advance(by: 50)
        XCTAssertEqual(scheduler.clock, 50)
        let recording = scheduler.start { scheduler.createColdSignal("a|", values: self.values, error: TestError.first) }
        XCTAssertEqual(recording.events, [.next(200, 1), .completed(201)])
    }

    func testStart_makesAtCreatedWithTheSchedulerCurrent() {
        let scheduler = TestScheduler()
        var madeAt: [TimeInterval] = []
        var current: [Scheduler?] = []
        let recording = scheduler.start(created: 10, subscribed: 20, disposed: 30) { () -> Signal<Int, Never> in
            madeAt.append(scheduler.clock)
            current.append(Scheduler.current)
            return .return(1)
        }
        XCTAssertEqual(madeAt, [10], "made once, at `created`")
        XCTAssertTrue(current.first.flatMap { $0 } === scheduler)
        XCTAssertEqual(recording.events, [.next(20, 1), .completed(20)])
        XCTAssertEqual(scheduler.clock, 30)
    }

    func testStart_workMadeBeforeTheSubscriptionRunsAtItsTime() {
        // A hot signal made at 100 plays from then: a at 100 and b at 150 are gone by the
        // subscription at 200; c, due at 200 itself, comes after the subscription, which was
        // queued first, as RxTest's is.
        let scheduler = TestScheduler()
        let made = Recorder<TestSignal<Int, TestError>>()
        let recording = scheduler.start {
            let hot = scheduler.createHotSignal("abc|", values: self.values, error: TestError.first, frame: 50)
            made.record(hot)
            return hot
        }
        XCTAssertEqual(recording.events, [.next(200, 3), .completed(250)])
        XCTAssertEqual(made.values.first?.subscriptions, [.init(200, 250)])
    }

    func testStart_aSignalThatEndsEarlyIsNotDisposedAgainAtDisposed() {
        let scheduler = TestScheduler()
        let disposals = Recorder<TimeInterval>()
        let recording = scheduler.start { () -> Signal<Int, Never> in
            Signal { subscriber in
                let timer = scheduler.schedule(afterDelay: 100) { subscriber.sendCompleted() }
                return Disposable {
                    disposals.record(scheduler.clock)
                    timer?.dispose()
                }
            }
        }
        XCTAssertEqual(recording.events, [.completed(300)])
        XCTAssertEqual(disposals.values, [300], "the completion disposed it; the disposal at 1000 found nothing to do")
    }

    func testStart_disposesAtDisposedAndRecordsNothingAfter() {
        let scheduler = TestScheduler()
        let disposals = Recorder<TimeInterval>()
        let (signal, input) = Signal<Int, Never>.pipe()
        scheduler.schedule(after: scheduler.clockStart.addingTimeInterval(500)) { input.sendNext(5) }
        scheduler.schedule(after: scheduler.clockStart.addingTimeInterval(1500)) { input.sendNext(15) }
        let recording = scheduler.start {
            Signal<Int, Never> { subscriber in
                let inner = signal.subscribe(subscriber)
                return Disposable {
                    disposals.record(scheduler.clock)
                    inner.dispose()
                }
            }
        }
        XCTAssertEqual(recording.events, [.next(500, 5)])
        XCTAssertEqual(disposals.values, [1000])
        XCTAssertFalse(scheduler.isEmpty, "the block due at 1500 is still queued")
        scheduler.run()
        XCTAssertEqual(recording.events, [.next(500, 5)], "nothing is recorded after `disposed`")
    }

    func testStart_equalTimesRunInOrder() {
        let scheduler = TestScheduler()
        let recording = scheduler.start(created: 500, subscribed: 500, disposed: 500) { Signal<Int, Never>.return(7) }
        XCTAssertEqual(recording.events, [.next(500, 7), .completed(500)])
        let started = scheduler.start(created: 600, subscribed: 600, disposed: 600) {
            scheduler.createColdSignal("a|", values: self.values)
        }
        XCTAssertEqual(started.events, [], "disposed at 600 before the frame due at 600, which it queued after")
    }

    func testStart_mismatchPrintsBothDiagramsAndAbsoluteTimes() {
        let scheduler = TestScheduler()
        let recording = scheduler.start(created: 0, subscribed: 0, disposed: 10) {
            scheduler.createColdSignal("-a--b|", values: self.values, error: TestError.first)
        }
        let mismatch = recording.mismatch(expected: "-a-b|", values: values, error: .first)
        XCTAssertEqual(mismatch?.description, """
            expected: -a-b|
              actual: -a--b|
            expected events: next(1) at 1.0 s, next(2) at 3.0 s, completed at 4.0 s
              actual events: next(1) at 1.0 s, next(2) at 4.0 s, completed at 5.0 s
            """)
        XCTAssertNil(recording.mismatch(expected: "-a--b|", values: values, error: .first))

        // A diagram of a recording from `start` counts from time 0 of the clock.
        let later = scheduler.start(created: 10, subscribed: 12, disposed: 20) {
            scheduler.createColdSignal("a|", values: self.values, error: TestError.first)
        }
        XCTAssertNil(later.mismatch(expected: "------------a|", values: values, error: .first))
    }

    func testStart_lettingGoOfEverythingOnceEnded() {
        let scheduler = TestScheduler()
        weak var weakRecording: SignalRecording<LifetimeToken, Never>?
        let (_, token) = trackingLifetime { token in
            let recording = scheduler.start {
                scheduler.createColdSignal("a|", values: ["a": token])
            }
            weakRecording = recording
            XCTAssertEqual(recording.values.count, 1)
        }
        XCTAssertTrue(scheduler.isEmpty)
        XCTAssertNil(weakRecording)
        XCTAssertFalse(token.isAlive)
    }

    // MARK: - Events at absolute times

    func testCreateHotSignal_sendsAtAbsoluteTimes() {
        let scheduler = TestScheduler()
        let typed: TestSignal<String, Never> = scheduler.createHotSignal([.next(150, "r"), .next(210, "re"), .next(240, "rea"), .completed(300), .next(310, "late")])
        let recording = scheduler.start { typed.map { $0.uppercased() } }
        XCTAssertEqual(recording.events, [.next(210, "RE"), .next(240, "REA"), .completed(300)])
        XCTAssertEqual(typed.subscriptions, [.init(200, 300)])
        XCTAssertEqual(typed.subscriptions.map(\.description), ["(200.0 s, 300.0 s)"])
    }

    func testCreateHotSignal_eventsThePastSentAtOnce() {
        let scheduler = TestScheduler()
        scheduler.advance(by: 100)
        let ended: TestSignal<Int, TestError> = scheduler.createHotSignal([.next(50, 1), .error(60, .second), .next(150, 2)])
        XCTAssertEqual(scheduler.record(ended).events, [.error(0, .second)], "it failed before anyone subscribed")
    }

    func testCreateColdSignal_sendsAfterEachSubscription() {
        let scheduler = TestScheduler()
        let reply: TestSignal<Int, Never> = scheduler.createColdSignal([.next(0, 1), .next(2, 2), .completed(3)])
        let first = scheduler.start { reply }
        let second = scheduler.start(created: 1000, subscribed: 1500, disposed: 1502) { reply }
        XCTAssertEqual(first.events, [.next(200, 1), .next(202, 2), .completed(203)])
        XCTAssertEqual(second.events, [.next(1500, 1)], "the disposal at 1502, queued by start before the subscription, comes before the value due then")
        XCTAssertEqual(reply.subscriptions, [.init(200, 203), .init(1500, 1502)])
    }

    // MARK: - Subscriptions

    func testSubscriptions_printAndCompareAsRxTestsDo() {
        let scheduler = TestScheduler()
        let hot: TestSignal<Int, Never> = scheduler.createHotSignal([.next(300, 1)])
        let recording = scheduler.record(hot)
        XCTAssertEqual(hot.subscriptions, [.init(0)])
        XCTAssertEqual(hot.subscriptions.map(\.description), ["(0.0 s, still going)"])
        XCTAssertEqual(TestSignal<Int, Never>.Subscription(200, 1000), .init(subscribed: 200, disposed: 1000))
        XCTAssertEqual(TestSignal<Int, Never>.Subscription(200, 1000).description, "(200.0 s, 1000.0 s)")
        XCTAssertNotEqual(TestSignal<Int, Never>.Subscription(200, 1000), .init(200))
        scheduler.advance(by: 250)
        recording.dispose()
        XCTAssertEqual(hot.subscriptions, [.init(0, 250)])
    }

    func testSubscriptions_areOnTheClockNotSinceTheSignalWasMade() {
        let scheduler = TestScheduler()
        scheduler.advance(by: 40)
        let source = scheduler.createColdSignal("-a|", values: values, error: TestError.first)
        scheduler.advance(by: 2)
        let recording = scheduler.record(source)
        scheduler.run()
        XCTAssertEqual(recording.events, [.next(1, 1), .completed(2)], "record(_:) times count from its call")
        XCTAssertEqual(source.subscriptions, [.init(42, 44)], "subscriptions count on the clock")
    }

    // MARK: - Stubs stay out of the way

    func testStartOfOurs_isNotTheRunStub() {
        // `start { … }` and `start(disposed:) { … }` are ours; RxTest's `start()` (run the clock)
        // is an unavailable stub renamed to `run()`.
        let scheduler = TestScheduler()
        XCTAssertEqual(scheduler.start(disposed: 300) { Signal<Int, Never>.return(1) }.values, [1])
        XCTAssertEqual(scheduler.clock, 300)
    }
}
