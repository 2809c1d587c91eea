import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class DelayTests: LeakCheckedTestCase {
    private typealias Events = [Stamped<Int, TestError>]

    // Marble tests: each character is one frame of virtual time (1 s unless `frame` says
    // otherwise), and a match fixes the exact time of every event.
    private let values: [Character: Int] = ["a": 1, "b": 2]

    func testDelay_delaysValuesAndCompletion() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("a-b|", values: values, error: TestError.first, frame: 0.5)
        let recording = scheduler.record(source.delay(2, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "----a-b|", values: values, error: .first, frame: 0.5))
    }

    func testDelay_sendsAnErrorAtOnceAndDropsTheValuesWaiting() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("a#", values: values, error: TestError.first, frame: 0.5)
        let recording = scheduler.record(source.delay(2, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "-#", values: values, error: .first, frame: 0.5))
        XCTAssertEqual(elapsed(scheduler), 0.5, "the waiting value was cancelled")
        XCTAssertEqual(source.subscriptions, [.init(subscribed: 0, disposed: 0.5)])
    }

    func testDelay_anInfiniteIntervalNeverSendsValuesOrCompletionButSendsAnErrorAtOnce() {
        let scheduler = TestScheduler()
        let completing = PipeSource()
        let failing = PipeSource()
        let completed = completing.signal.delay(.infinity, on: scheduler).record(on: scheduler)
        let failed = failing.signal.delay(.infinity, on: scheduler).record(on: scheduler)
        completing.input.sendNext(1)
        completing.input.sendCompleted()
        failing.input.sendNext(1)
        scheduler.advance(by: 1)
        failing.input.sendError(.first)
        scheduler.run()
        scheduler.advance(by: 1e9)
        XCTAssertEqual(completed.events, [])
        XCTAssertEqual(failed.events, [at(1, .error(.first))] as Events)
        XCTAssertFalse(scheduler.isEmpty, "the value and completion wait until the subscription is disposed")
        completed.dispose()
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testDelay_anInfiniteIntervalOnARealSchedulerNeverSendsAndSendsAnErrorAtOnce() {
        for scheduler in [QueueScheduler(name: "delay forever"), Scheduler.immediate] {
            let (signal, input) = Signal<Int, TestError>.pipe()
            let events = Recorder<String>()
            let (subscription, token) = trackingLifetime { token in
                signal.delay(.infinity, on: scheduler).subscribe(
                    next: { _ = token; events.record("\($0)") },
                    error: { events.record("\($0)") },
                    completed: { events.record("completed") }
                )
            }
            input.sendNext(1)
            input.sendNext(2)
            XCTAssertEqual(events.values, [], "\(scheduler)")
            input.sendError(.first)
            XCTAssertEqual(events.values, ["first"], "the error comes at once, on the sending thread: \(scheduler)")
            XCTAssertTrue(subscription.isDisposed)
            XCTAssertFalse(token.isAlive, "the values waiting were let go of: \(scheduler)")
        }
    }

    func testDelay_synchronousSources() {
        let scheduler = TestScheduler()
        let values = TestSource([1, 2]).signal.delay(1, on: scheduler).record(on: scheduler)
        let empty = TestSource<Int>([]).signal.delay(1, on: scheduler).record(on: scheduler)
        let failed = TestSource<Int>([], end: .error(.first)).signal.delay(1, on: scheduler).record(on: scheduler)
        let failedLater = TestSource([1], end: .error(.second)).signal.delay(1, on: scheduler).record(on: scheduler)
        XCTAssertEqual(values.events, [])
        scheduler.run()
        XCTAssertEqual(values.events, [at(1, .next(1)), at(1, .next(2)), at(1, .completed)] as Events)
        XCTAssertEqual(empty.events, [at(1, .completed)] as Events)
        XCTAssertEqual(failed.events, [at(0, .error(.first))] as Events)
        XCTAssertEqual(failedLater.events, [at(0, .error(.second))] as Events)
    }

    func testDelay_deliversOnTheScheduler() {
        let scheduler = TestScheduler()
        let current = Recorder<Bool>()
        TestSource([1]).signal.delay(0, on: scheduler).subscribe(
            next: { _ in current.record(Scheduler.current === scheduler) },
            completed: { current.record(Scheduler.current === scheduler) }
        )
        XCTAssertEqual(current.values, [])
        scheduler.run()
        XCTAssertEqual(current.values, [true, true])
    }

    func testDelay_disposalCancelsWhatWaitsAndDisposesTheSourceOnce() {
        assertDisposalMidStream { source, scheduler in source.delay(1, on: scheduler) }
    }

    func testDelay_releasesWhatWaitsOnDisposalAndWhatWasSent() {
        let scheduler = TestScheduler()
        let (tokens, input) = Signal<LifetimeToken, Never>.pipe()
        let (subscription, waiting) = trackingLifetime { token in
            let subscription = tokens.delay(1, on: scheduler).subscribe()
            input.sendNext(token)
            return subscription
        }
        XCTAssertTrue(waiting.isAlive, "the waiting value is held")
        subscription.dispose()
        XCTAssertFalse(waiting.isAlive, "disposal released the waiting value")

        let (sent, sentToken) = trackingLifetime { token in
            let subscription = tokens.delay(1, on: scheduler).subscribe(next: { _ in _ = token })
            input.sendNext(LifetimeToken())
            return subscription
        }
        scheduler.run()
        input.sendCompleted()
        scheduler.run()
        XCTAssertTrue(sent.isDisposed)
        XCTAssertFalse(sentToken.isAlive)
    }

    func testDelayWithoutAScheduler_waitsOnTheSchedulerCurrentWhereTheEventWasSent() {
        let scheduler = TestScheduler()
        // The test signal sends from the scheduler's blocks, where the scheduler is current.
        let source = scheduler.createColdSignal("a|", values: values, error: TestError.first)
        let recording = scheduler.record(source.delay(2))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "--a|", values: values, error: .first))
    }

    func testDelayWithoutAScheduler_usesABackgroundSchedulerWhereNoneIsCurrent() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let done = DispatchSemaphore(value: 0)
        let onBackground = Recorder<Bool>()
        let values = Recorder<Int>()
        signal.delay(0).subscribe(next: { value in
            values.record(value)
            onBackground.record(Scheduler.current != nil && !Thread.isMainThread)
        }, completed: { done.signal() })
        onAPlainThread {
            for value in 0..<100 { input.sendNext(value) }
            input.sendCompleted()
        }
        XCTAssertTrue(done.waitForSignal())
        XCTAssertEqual(values.values, Array(0..<100), "one background scheduler per subscription keeps the order")
        XCTAssertEqual(Set(onBackground.values), [true])
    }
}

extension DelayTests {
    func testDelay_onAQueueSchedulerKeepsTheOrderAndDropsNothing() {
        for round in 0..<20 {
            let (signal, input) = Signal<Int, Never>.pipe()
            let events = Recorder<Event<Int, Never>>()
            let done = DispatchSemaphore(value: 0)
            let subscription = signal.delay(0.001, on: QueueScheduler(name: "delay-order")).subscribe(
                next: { events.record(.next($0)) },
                completed: { events.record(.completed); done.signal() }
            )
            for value in 0..<1_000 { input.sendNext(value) }
            input.sendCompleted()
            XCTAssertTrue(done.waitForSignal())
            XCTAssertEqual(events.values, (0..<1_000).map { .next($0) } + [.completed], "round \(round)")
            subscription.dispose()
        }
    }

    func testDelayWithoutAScheduler_eventsWaitingOnTwoQueuesArriveInOrder() {
        let queues = [QueueScheduler(name: "delay-a"), QueueScheduler(name: "delay-b")]
        for round in 0..<10 {
            let (signal, input) = Signal<Int, Never>.pipe()
            let events = Recorder<Event<Int, Never>>()
            let done = DispatchSemaphore(value: 0)
            let subscription = signal.delay(0.0005).subscribe(
                next: { events.record(.next($0)) },
                completed: { events.record(.completed); done.signal() }
            )
            // Each value waits on the queue current where it was sent: the two alternate.
            for value in 0..<500 {
                queues[value % 2].performAsCurrentScheduler { input.sendNext(value) }
            }
            queues[0].performAsCurrentScheduler { input.sendCompleted() }
            XCTAssertTrue(done.waitForSignal())
            XCTAssertEqual(events.values, (0..<500).map { .next($0) } + [.completed], "round \(round)")
            subscription.dispose()
        }
    }

    func testDelayWithoutAScheduler_anEventDueFirstOnAnotherSchedulerBringsTheEarlierOnesAlong() {
        let first = TestScheduler()
        let second = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.delay(1).record(on: second)
        first.performAsCurrentScheduler { source.input.sendNext(1) }
        second.performAsCurrentScheduler {
            source.input.sendNext(2)
            source.input.sendCompleted()
        }
        // Only the second scheduler's time comes: its blocks deliver 1 before 2, and nothing is lost.
        second.run()
        XCTAssertEqual(recorder.events, [at(1, .next(1)), at(1, .next(2)), at(1, .completed)] as Events)
        first.run()
        XCTAssertEqual(recorder.events.count, 3, "the first scheduler's block finds its value delivered")
    }
}
