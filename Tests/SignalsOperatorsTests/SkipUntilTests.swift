import Disposables
import Signals
import TestSupport
import XCTest

final class SkipUntilTests: LeakCheckedTestCase {
    func testSkipUntil_dropsValuesUntilTheTriggerSendsAValue() {
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let (trigger, triggerInput) = Signal<String, Never>.pipe()
        let recorder = source.skip(until: trigger).record()
        sourceInput.sendNext(1)
        sourceInput.sendNext(2)
        triggerInput.sendNext("go")
        sourceInput.sendNext(3)
        triggerInput.sendNext("again")
        sourceInput.sendNext(4)
        sourceInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(3), .next(4), .completed])
    }

    func testSkipUntil_triggerCompletionAlsoOpensTheGate() {
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let (trigger, triggerInput) = Signal<Void, TestError>.pipe()
        let recorder = source.skip(until: trigger).record()
        sourceInput.sendNext(1)
        triggerInput.sendCompleted()
        sourceInput.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(2)])
    }

    func testSkipUntil_triggerErrorIsIgnoredAndValuesStayDropped() {
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let (trigger, triggerInput) = Signal<Int, TestError>.pipe()
        let recorder = source.skip(until: trigger).record()
        triggerInput.sendError(.first)
        sourceInput.sendNext(1)
        sourceInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.completed])
    }

    func testSkipUntil_aTriggerThatFiresAtOnceLetsEverythingThrough() {
        let source = TestSource([1, 2])
        XCTAssertEqual(source.signal.skip(until: Signal<Int, Never>.return(0)).record().events, [.next(1), .next(2), .completed])
        XCTAssertEqual(source.signal.skip(until: Signal<Int, Never>.empty).record().events, [.next(1), .next(2), .completed])
    }

    func testSkipUntil_triggerIsSubscribedFirst() {
        let log = Recorder<String>()
        let trigger = Signal<Int, Never> { _ in log.record("trigger"); return nil }
        let source = Signal<Int, TestError> { _ in log.record("source"); return nil }
        _ = source.skip(until: trigger).record()
        XCTAssertEqual(log.values, ["trigger", "source"])
    }

    func testSkipUntil_aTriggerThatNeverFiresDropsEverything() {
        XCTAssertEqual(TestSource([1, 2]).signal.skip(until: Signal<Int, Never>.never).record().events, [.completed])
    }

    func testSkipUntil_errorsPassThroughBeforeAndAfterTheTrigger() {
        XCTAssertEqual(TestSource([1], end: .error(.first)).signal.skip(until: Signal<Int, Never>.never).record().events, [.error(.first)])
        XCTAssertEqual(TestSource([1], end: .error(.second)).signal.skip(until: Signal<Int, Never>.empty).record().events, [.next(1), .error(.second)])
    }

    func testSkipUntil_emptySourceCompletes() {
        XCTAssertEqual(TestSource<Int>([]).signal.skip(until: Signal<Int, Never>.never).record().events, [.completed])
    }

    func testSkipUntil_triggerIsDisposedOnceItFires() {
        let source = DrivenSource<TestError>()
        let trigger = DrivenSource<Never>()
        let recorder = source.signal.skip(until: trigger.signal).record()
        trigger.input.sendNext(0)
        XCTAssertEqual(trigger.disposals.value, 1)
        source.input.sendNext(1)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 0)
    }

    func testSkipUntil_sourceCompletionDisposesTheTrigger() {
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let trigger = DrivenSource<Never>()
        let recorder = source.skip(until: trigger.signal).record()
        sourceInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.completed])
        XCTAssertEqual(trigger.disposals.value, 1)
    }

    func testSkipUntil_disposalMidStreamDisposesBoth() {
        let source = DrivenSource<TestError>()
        let trigger = DrivenSource<Never>()
        let recorder = source.signal.skip(until: trigger.signal).record()
        recorder.dispose()
        trigger.input.sendNext(0)
        source.input.sendNext(1)
        XCTAssertEqual(recorder.events, [])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(trigger.disposals.value, 1)
        XCTAssertTrue(recorder.disposable.isDisposed)
    }

    func testSkipUntil_releasesEverythingAfterCompletion() {
        let (recorder, token) = trackingLifetime { token in
            TestSource([1]).signal.map { _ = token; return $0 }
                .skip(until: Signal<Int, Never>.never.map { _ = token; return $0 }).record()
        }
        XCTAssertEqual(recorder.events, [.completed])
        XCTAssertFalse(token.isAlive)
    }

    func testSkipUntil_releasesEverythingAfterDisposal() {
        let (source, _) = Signal<Int, TestError>.pipe()
        let (trigger, _) = Signal<Int, Never>.pipe()
        let (recorder, token) = trackingLifetime { token in
            source.map { _ = token; return $0 }.skip(until: trigger.map { _ = token; return $0 }).record()
        }
        recorder.dispose()
        XCTAssertFalse(token.isAlive)
    }
}
