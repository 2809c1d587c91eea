import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class ReturnTests: XCTestCase {
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
            Scheduler.subscription.schedule { gate.wait() }
            let disposable = Signal<Int, Never>.return(1).subscribe(next: { values.record($0) })
            disposable.dispose()
            gate.signal()
            Scheduler.subscription.schedule { finished.signal() }
        }.start()
        finished.wait()
        XCTAssertEqual(values.values, [])
    }
}
