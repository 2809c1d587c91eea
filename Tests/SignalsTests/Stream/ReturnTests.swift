import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class ReturnTests: LeakCheckedTestCase {
    func testReturn_sendsTheValueThenCompletes() {
        XCTAssertEqual(Signal<Int, TestError>.return(7).record().events, [.next(7), .completed])
    }

    func testEmpty_completesAtOnce() {
        XCTAssertEqual(Signal<Int, TestError>.empty.record().events, [.completed])
    }

    func testError_failsAtOnce() {
        XCTAssertEqual(Signal<Int, TestError>.error(.first).record().events, [.error(.first)])
    }

    func testNever_sendsNothingAndCanBeDisposed() {
        let recorder = Signal<Int, TestError>.never.record()
        XCTAssertEqual(recorder.events, [])
        XCTAssertFalse(recorder.disposable.isDisposed)
        recorder.dispose()
        XCTAssertTrue(recorder.disposable.isDisposed)
    }

    func testDefer_callsTheFactoryPerSubscription() {
        let calls = Counter()
        let signal = Signal<Int, TestError>.defer {
            calls.increment()
            return .return(calls.value)
        }
        XCTAssertEqual(calls.value, 0)
        XCTAssertEqual(signal.record().events, [.next(1), .completed])
        XCTAssertEqual(signal.record().events, [.next(2), .completed])
    }

    func testDefer_withoutACurrentSchedulerRunsTheFactoryOnABackgroundScheduler() {
        let seen = Recorder<Bool>()
        subscribeFromAPlainThread(Signal<Int, Never>.defer {
            seen.record(runsOnABackgroundScheduler)
            return .return(1)
        })
        XCTAssertEqual(seen.values, [true])
    }

    func testDefer_withoutACurrentScheduler_disposalInsideTheFirstValueStopsARepeatingSignal() {
        let source = SelfLimitingSource()
        let values = Counter()
        let subscription = DisposableBox()
        let finished = DispatchSemaphore(value: 0)
        onAPlainThread {
            // The made signal is subscribed later, on the subscription scheduler: it must join the
            // subscriber's disposable before its first value, not when its subscription returns.
            subscription.disposable = Signal.defer { source.signal.repeat() }.subscribeDisposingInFirstValue(counting: values)
            // That scheduler's queue is serial: this runs once the deferred work has returned.
            Scheduler.subscription.schedule { finished.signal() }
        }
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(values.value, 1)
        XCTAssertEqual(source.subscriptions.value, 1)
        XCTAssertTrue(subscription.disposable?.isDisposed ?? false)
    }

    func testReturn_withoutACurrentSchedulerArrivesOnABackgroundScheduler() {
        let seen = Recorder<Bool>()
        subscribeFromAPlainThread(Signal<Int, Never>.return(1), next: { _ in seen.record(runsOnABackgroundScheduler) })
        XCTAssertEqual(seen.values, [true])
    }

    func testReturn_disposedBeforeTheBackgroundSchedulerRunsSendsNothing() {
        let values = Recorder<Int>()
        let gate = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            // Keep the subscription scheduler's background queue busy, then dispose in time.
            Scheduler.subscription.schedule { _ = gate.waitForSignal() }
            let disposable = Signal<Int, Never>.return(1).subscribe(next: { values.record($0) })
            disposable.dispose()
            gate.signal()
            Scheduler.subscription.schedule { finished.signal() }
        }.start()
        XCTAssertTrue(finished.waitForSignal())
        XCTAssertEqual(values.values, [])
    }
}
