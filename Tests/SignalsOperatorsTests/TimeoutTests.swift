import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class TimeoutTests: LeakCheckedTestCase {
    private typealias Events = [Stamped<Int, TestError>]

    // Marble tests: each character is one frame of virtual time (1 s unless `frame` says
    // otherwise), and a match fixes the exact time of every event.
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4]

    func testTimeout_valuesDoNotPushTheDeadlineBack() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("-a-b-c-d", values: values, error: TestError.first, frame: 0.5)
        let recording = scheduler.record(source.timeout(3, on: scheduler, raising: .second))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "-a-b-c#", values: values, error: .second, frame: 0.5))
        XCTAssertEqual(source.subscriptions, [.init(subscribed: 0, disposed: 3)])
    }

    func testTimeout_anInfiniteIntervalNeverTimesOut() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.timeout(.infinity, on: scheduler, raising: .second).record(on: scheduler)
        scheduler.run()
        scheduler.advance(by: 1e9)
        source.input.sendNext(1)
        XCTAssertEqual(recorder.events, [at(1e9, .next(1))] as Events)
        XCTAssertEqual(source.disposals.value, 0)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [at(1e9, .next(1)), at(1e9, .completed)] as Events)
        XCTAssertTrue(scheduler.isEmpty, "completion cancelled the deadline that never comes")
    }

    func testTimeout_disposesTheSourceBeforeSendingTheError() {
        let scheduler = TestScheduler()
        let log = Recorder<String>()
        let source = PipeSource { log.record("source disposed") }
        source.signal.timeout(1, on: scheduler, raising: .first).subscribe(error: { _ in log.record("error") })
        scheduler.run()
        XCTAssertEqual(log.values, ["source disposed", "error"])
    }

    func testTimeout_theDeadlineCountsFromSubscription() {
        let scheduler = TestScheduler()
        let source: TestSignal<Int, TestError> = scheduler.createColdSignal("", error: .second)
        let signal = source.timeout(1, on: scheduler, raising: .first)
        scheduler.advance(by: 5)
        let recording = scheduler.record(signal)
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "-#", error: .first))
        XCTAssertEqual(recording.startDate, TestScheduler.startDate.addingTimeInterval(5))
        XCTAssertEqual(source.subscriptions, [.init(subscribed: 5, disposed: 6)])
    }

    func testTimeout_completionOrAnErrorBeforeTheDeadlineCancelsIt() {
        let scheduler = TestScheduler()
        let completing = scheduler.createColdSignal("-a|", values: values, error: TestError.first, frame: 0.5)
        let failing = scheduler.createColdSignal("---#", values: values, error: TestError.first, frame: 0.5)
        let completed = scheduler.record(completing.timeout(2, on: scheduler, raising: .second))
        let failed = scheduler.record(failing.timeout(2, on: scheduler, raising: .second))
        scheduler.run()
        XCTAssertNil(completed.mismatch(expected: "-a|", values: values, error: .second, frame: 0.5))
        XCTAssertNil(failed.mismatch(expected: "---#", values: values, error: .first, frame: 0.5))
        XCTAssertEqual(elapsed(scheduler), 1.5, "both deadlines were cancelled")
        XCTAssertEqual(completing.subscriptions, [.init(subscribed: 0, disposed: 1)])
        XCTAssertEqual(failing.subscriptions, [.init(subscribed: 0, disposed: 1.5)])
    }

    func testTimeout_synchronousSources() {
        let scheduler = TestScheduler()
        XCTAssertEqual(TestSource([1, 2]).signal.timeout(1, on: scheduler, raising: .second).record(on: scheduler).events, [at(0, .next(1)), at(0, .next(2)), at(0, .completed)] as Events)
        XCTAssertEqual(TestSource<Int>([]).signal.timeout(1, on: scheduler, raising: .second).record(on: scheduler).events, [at(0, .completed)] as Events)
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.timeout(1, on: scheduler, raising: .second).record(on: scheduler).events, [at(0, .error(.first))] as Events)
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testTimeout_failsWithTimedOutForSignalErrorAndAnyError() {
        let scheduler = TestScheduler()
        let (typed, _) = Signal<Int, SignalError>.pipe()
        let (untyped, _) = Signal<Int, any Error>.pipe()
        let typedErrors = Recorder<SignalError>()
        let untypedErrors = Recorder<SignalError?>()
        typed.timeout(1, on: scheduler).subscribe(error: { typedErrors.record($0) })
        untyped.timeout(1, on: scheduler).subscribe(error: { untypedErrors.record($0 as? SignalError) })
        scheduler.run()
        XCTAssertEqual(typedErrors.values, [.timedOut])
        XCTAssertEqual(untypedErrors.values, [.timedOut])
    }

    func testTimeout_disposalCancelsTheDeadlineAndReleasesEverything() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let (recorder, token) = trackingLifetime { token in
            source.signal.timeout(1, on: scheduler, raising: .first).map { value -> Int in _ = token; return value }.record(on: scheduler)
        }
        source.input.sendNext(1)
        recorder.dispose()
        XCTAssertTrue(scheduler.isEmpty)
        XCTAssertFalse(token.isAlive)
        source.input.sendNext(2)
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(0, .next(1))] as Events)
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testTimeout_releasesEverythingAfterTimingOut() {
        let scheduler = TestScheduler()
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let (subscription, token) = trackingLifetime { token in
            pipe.timeout(1, on: scheduler, raising: .first).subscribe(error: { _ in _ = token })
        }
        scheduler.run()
        XCTAssertTrue(subscription.isDisposed)
        XCTAssertFalse(token.isAlive)
        _ = input
    }
}
