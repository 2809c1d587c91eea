import Disposables
import Signals
import TestSupport
import XCTest

final class SideEffectTests: LeakCheckedTestCase {
    func testDoNext_runsBeforeEachValueIsSentOn() {
        let log = Recorder<String>()
        TestSource([1, 2]).signal.doNext { log.record("do \($0)") }
            .subscribe(next: { log.record("next \($0)") }, completed: { log.record("completed") })
        XCTAssertEqual(log.values, ["do 1", "next 1", "do 2", "next 2", "completed"])
    }

    func testDoNext_passesErrorsOn() {
        let log = Recorder<String>()
        let recorder = TestSource([1], end: .error(.first)).signal.doNext { log.record("do \($0)") }.record()
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
        XCTAssertEqual(log.values, ["do 1"])
    }

    func testDoError_runsBeforeTheErrorIsSentOn() {
        let log = Recorder<String>()
        TestSource([1], end: .error(.second)).signal.doError { log.record("do \($0)") }
            .subscribe(next: { log.record("next \($0)") }, error: { log.record("error \($0)") })
        XCTAssertEqual(log.values, ["next 1", "do second", "error second"])
    }

    func testDoError_notOnCompletion() {
        let log = Recorder<String>()
        let recorder = TestSource([1]).signal.doError { log.record("do \($0)") }.record()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
        XCTAssertEqual(log.values, [])
    }

    func testDoCompleted_runsBeforeCompletionIsSentOn() {
        let log = Recorder<String>()
        TestSource([1]).signal.doCompleted { log.record("do completed") }
            .subscribe(next: { log.record("next \($0)") }, completed: { log.record("completed") })
        XCTAssertEqual(log.values, ["next 1", "do completed", "completed"])
    }

    func testDoCompleted_notOnError() {
        let log = Recorder<String>()
        let recorder = TestSource([1], end: .error(.first)).signal.doCompleted { log.record("do completed") }.record()
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
        XCTAssertEqual(log.values, [])
    }

    func testInitially_runsOnEverySubscriptionBeforeTheSourceIsSubscribed() {
        let log = Recorder<String>()
        let source = Signal<Int, TestError> { subscriber in
            log.record("subscribed")
            subscriber.sendNext(1)
            subscriber.sendCompleted()
            return nil
        }
        let signal = source.initially { log.record("initially") }
        XCTAssertEqual(log.values, [])
        XCTAssertEqual(signal.record().events, [.next(1), .completed])
        XCTAssertEqual(signal.record().events, [.next(1), .completed])
        XCTAssertEqual(log.values, ["initially", "subscribed", "initially", "subscribed"])
    }

    func testInitially_runsOnTheSubscribingThread() {
        let ranOnThisThread = Recorder<Bool>()
        onAPlainThread {
            let subscribing = pthread_self()
            Signal<Int, Never>.never.initially { ranOnThisThread.record(pthread_equal(pthread_self(), subscribing) != 0) }.subscribe().dispose()
        }
        XCTAssertEqual(ranOnThisThread.values, [true])
    }

    func testFinally_runsBeforeCompletionIsSentOn() {
        let log = Recorder<String>()
        TestSource([1]).signal.finally { log.record("finally") }
            .subscribe(next: { log.record("next \($0)") }, completed: { log.record("completed") })
        XCTAssertEqual(log.values, ["next 1", "finally", "completed"])
    }

    func testFinally_runsBeforeTheErrorIsSentOn() {
        let log = Recorder<String>()
        TestSource([1], end: .error(.first)).signal.finally { log.record("finally") }
            .subscribe(next: { log.record("next \($0)") }, error: { log.record("error \($0)") })
        XCTAssertEqual(log.values, ["next 1", "finally", "error first"])
    }

    func testFinally_notOnDisposal() {
        let runs = Counter()
        let source = DrivenSource<TestError>()
        let recorder = source.signal.finally { runs.increment() }.record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendCompleted()
        XCTAssertEqual(runs.value, 0)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testFinally_runsOncePerSubscription() {
        let runs = Counter()
        let signal = TestSource([1]).signal.finally { runs.increment() }
        signal.subscribe()
        signal.subscribe()
        XCTAssertEqual(runs.value, 2)
    }

    func testSideEffects_releaseTheirActionsAfterTheEnd() {
        let operators: [(String, (Signal<Int, TestError>, LifetimeToken) -> Signal<Int, TestError>)] = [
            ("doNext", { signal, token in signal.doNext { _ in _ = token } }),
            ("doError", { signal, token in signal.doError { _ in _ = token } }),
            ("doCompleted", { signal, token in signal.doCompleted { _ = token } }),
            ("initially", { signal, token in signal.initially { _ = token } }),
            ("finally", { signal, token in signal.finally { _ = token } }),
        ]
        for (name, apply) in operators {
            weak var weakSignal: Signal<Int, TestError>?
            let (completed, completedToken) = trackingLifetime { token -> EventRecorder<Int, TestError> in
                let signal = apply(TestSource([1]).signal, token)
                weakSignal = signal
                return signal.record()
            }
            XCTAssertEqual(completed.events, [.next(1), .completed], name)
            XCTAssertNil(weakSignal, name)
            XCTAssertFalse(completedToken.isAlive, name)

            let (failed, failedToken) = trackingLifetime { token in apply(TestSource([1], end: .error(.first)).signal, token).record() }
            XCTAssertEqual(failed.events, [.next(1), .error(.first)], name)
            XCTAssertFalse(failedToken.isAlive, name)
        }
    }
}
