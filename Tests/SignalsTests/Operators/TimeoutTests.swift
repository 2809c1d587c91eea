import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class TimeoutTests: XCTestCase {
    private typealias Events = [Stamped<Int, TestError>]

    func testTimeout_valuesDoNotPushTheDeadlineBack() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        scheduler.at(1) { source.input.sendNext(1) }
        scheduler.at(2) { source.input.sendNext(2) }
        scheduler.at(2.9) { source.input.sendNext(3) }
        scheduler.at(3.5) { source.input.sendNext(4) }
        let recorder = source.signal.timeout(3, on: scheduler, raising: .second).record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(1, .next(1)), at(2, .next(2)), at(2.9, .next(3)), at(3, .error(.second))] as Events)
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
        let signal = PipeSource().signal.timeout(1, on: scheduler, raising: .first)
        scheduler.advance(by: 5)
        let recorder = signal.record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(6, .error(.first))] as Events)
    }

    func testTimeout_completionOrAnErrorBeforeTheDeadlineCancelsIt() {
        let scheduler = TestScheduler()
        let completing = PipeSource()
        let failing = PipeSource()
        scheduler.at(0.5) { completing.input.sendNext(1) }
        scheduler.at(1) { completing.input.sendCompleted() }
        scheduler.at(1.5) { failing.input.sendError(.first) }
        let completed = completing.signal.timeout(2, on: scheduler, raising: .second).record(on: scheduler)
        let failed = failing.signal.timeout(2, on: scheduler, raising: .second).record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(completed.events, [at(0.5, .next(1)), at(1, .completed)] as Events)
        XCTAssertEqual(failed.events, [at(1.5, .error(.first))] as Events)
        XCTAssertEqual(elapsed(scheduler), 1.5, "both deadlines were cancelled")
        XCTAssertEqual(completing.disposals.value, 1)
        XCTAssertEqual(failing.disposals.value, 1)
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
