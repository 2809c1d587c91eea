import Disposables
import Signals
import TestSupport
import XCTest

final class CatchTests: LeakCheckedTestCase {
    func testCatch_valuesAndCompletionPassWithoutCallingTheHandler() {
        let calls = Counter()
        let recorder = TestSource([1, 2]).signal.catch { _ in calls.increment(); return .empty }.record()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(calls.value, 0)
    }

    func testCatch_errorSwitchesToTheHandlersSignal() {
        let errors = Recorder<TestError>()
        let recorder = TestSource([1], end: .error(.first)).signal.catch { error in
            errors.record(error)
            return TestSource([2, 3]).signal
        }.record()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(errors.values, [.first])
    }

    func testCatch_errorAtTheStart() {
        let recorder = TestSource<Int>([], end: .error(.first)).signal.catch { _ in TestSource([5]).signal }.record()
        XCTAssertEqual(recorder.events, [.next(5), .completed])
    }

    func testCatch_theHandlersErrorEndsTheResult() {
        let recorder = TestSource([1], end: .error(.first)).signal.catch { _ in Signal<Int, TestError>.error(.second) }.record()
        XCTAssertEqual(recorder.events, [.next(1), .error(.second)])
    }

    func testCatch_mayChangeTheFailureType() {
        let caught: Signal<Int, Never> = TestSource([1], end: .error(.first)).signal.catch { _ in Signal<Int, Never>.return(0) }
        XCTAssertEqual(caught.record().events, [.next(1), .next(0), .completed])
        let described: Signal<Int, SignalError> = TestSource([], end: .error(.second)).signal.catch { error in
            .error(.noMatchingCase("\(error)"))
        }
        XCTAssertEqual(described.record().events, [.error(.noMatchingCase("second"))])
    }

    func testCatch_emptySource() {
        XCTAssertEqual(TestSource<Int>([]).signal.catch { _ in TestSource([9]).signal }.record().events, [.completed])
    }

    func testCatch_disposesTheFailedSubscriptionBeforeTheHandlerRuns() {
        let log = Recorder<String>()
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let source = Signal<Int, TestError> { subscriber in
            let inner = pipe.subscribe(next: { subscriber.sendNext($0) }, error: { subscriber.sendError($0) })
            return Disposable {
                log.record("source disposed")
                inner.dispose()
            }
        }
        source.catch { _ in log.record("handler"); return .empty }.subscribe(completed: { log.record("completed") })
        input.sendError(.first)
        XCTAssertEqual(log.values, ["source disposed", "handler", "completed"])
    }

    func testCatch_asynchronousSwitch() {
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let (fallback, fallbackInput) = Signal<Int, Never>.pipe()
        let recorder = source.catch { _ in fallback }.record()
        sourceInput.sendNext(1)
        sourceInput.sendError(.first)
        sourceInput.sendNext(2)
        fallbackInput.sendNext(3)
        fallbackInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .next(3), .completed])
    }

    func testCatch_disposalDuringTheSource() {
        let source = DrivenSource<TestError>()
        let calls = Counter()
        let recorder = source.signal.catch { _ in calls.increment(); return .empty }.record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(calls.value, 0)
    }

    func testCatch_disposalDuringTheHandlersSignal() {
        let fallback = DrivenSource<TestError>()
        let recorder = TestSource([1], end: .error(.first)).signal.catch { _ in fallback.signal }.record()
        fallback.input.sendNext(2)
        recorder.dispose()
        fallback.input.sendNext(3)
        XCTAssertEqual(recorder.events, [.next(1), .next(2)])
        XCTAssertEqual(fallback.disposals.value, 1)
        XCTAssertTrue(recorder.disposable.isDisposed)
    }

    func testCatch_releasesEverythingAfterCompletion() {
        let (recorder, token) = trackingLifetime { token in
            TestSource([1], end: .error(.first)).signal.catch { _ in _ = token; return TestSource([2]).signal }.record()
        }
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
        XCTAssertFalse(token.isAlive)
    }

    func testCatch_releasesEverythingAfterDisposal() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let (fallback, _) = Signal<Int, TestError>.pipe()
        let (recorder, token) = trackingLifetime { token in
            pipe.catch { _ in _ = token; return fallback.map { _ = token; return $0 } }.record()
        }
        input.sendError(.first)
        recorder.dispose()
        XCTAssertFalse(token.isAlive)
    }

    // MARK: catch(to:)

    func testCatchTo_switchesToTheGivenSignal() {
        let fallback = TestSource([7])
        XCTAssertEqual(TestSource([1], end: .error(.first)).signal.catch(to: fallback.signal).record().events, [.next(1), .next(7), .completed])
        XCTAssertEqual(TestSource([1]).signal.catch(to: fallback.signal).record().events, [.next(1), .completed])
        XCTAssertEqual(fallback.subscriptions.value, 1)
    }

    func testCatchTo_mayChangeTheFailureType() {
        let caught: Signal<Int, Never> = TestSource<Int>([], end: .error(.first)).signal.catch(to: .return(0))
        XCTAssertEqual(caught.record().events, [.next(0), .completed])
    }
}
