import Disposables
import Foundation
import Signals
import TestSupport
import XCTest

final class TakeUntilTests: LeakCheckedTestCase {
    func testTakeUntil_sendsValuesUntilTheTriggerSendsThenDisposesAndCompletes() {
        let log = Recorder<String>()
        let source = DrivenSource<TestError> { log.record("source disposed") }
        let (trigger, triggerInput) = Signal<String, Never>.pipe()
        source.signal.take(until: trigger).subscribe(next: { log.record("\($0)") }, completed: { log.record("completed") })
        source.input.sendNext(1)
        source.input.sendNext(2)
        triggerInput.sendNext("stop")
        source.input.sendNext(3)
        XCTAssertEqual(log.values, ["1", "2", "source disposed", "completed"])
    }

    func testTakeUntil_triggerCompletionAlsoEndsIt() {
        let source = DrivenSource<TestError>()
        let (trigger, triggerInput) = Signal<Void, TestError>.pipe()
        let recorder = source.signal.take(until: trigger).record()
        source.input.sendNext(1)
        triggerInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testTakeUntil_triggerErrorIsIgnored() {
        let source = DrivenSource<TestError>()
        let (trigger, triggerInput) = Signal<Void, TestError>.pipe()
        let recorder = source.signal.take(until: trigger).record()
        triggerInput.sendError(.first)
        source.input.sendNext(1)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }

    func testTakeUntil_aTriggerThatFiresAtOnceMeansTheSourceIsNeverSubscribed() {
        let source = TestSource([1, 2])
        XCTAssertEqual(source.signal.take(until: Signal<Int, Never>.return(0)).record().events, [.completed])
        XCTAssertEqual(source.subscriptions.value, 0)
        XCTAssertEqual(source.signal.take(until: Signal<Int, Never>.empty).record().events, [.completed])
        XCTAssertEqual(source.subscriptions.value, 0)
    }

    func testTakeUntil_sourceEventsPassThrough() {
        XCTAssertEqual(TestSource([1, 2]).signal.take(until: Signal<Int, Never>.never).record().events, [.next(1), .next(2), .completed])
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.take(until: Signal<Int, Never>.never).record().events, [.error(.first)])
        XCTAssertEqual(TestSource([1], end: .error(.second)).signal.take(until: Signal<Int, Never>.never).record().events, [.next(1), .error(.second)])
        XCTAssertEqual(TestSource<Int>([]).signal.take(until: Signal<Int, Never>.never).record().events, [.completed])
    }

    func testTakeUntil_disposalMidStreamDisposesBoth() {
        let source = DrivenSource<TestError>()
        let trigger = DrivenSource<Never>()
        let recorder = source.signal.take(until: trigger.signal).record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        trigger.input.sendNext(0)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(trigger.disposals.value, 1)
    }

    func testTakeUntil_releasesTheChainWhenTheTriggerFires() {
        let (source, _) = Signal<Int, Never>.pipe()
        let (trigger, triggerInput) = Signal<Void, Never>.pipe()
        let (disposable, token) = trackingLifetime { token in
            source.take(until: trigger).subscribe(next: { _ in _ = token })
        }
        triggerInput.sendNext(())
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertFalse(token.isAlive)
    }

    func testTakeUntil_aTriggerFiredWhileAnotherThreadDelivers_returnsAtOnceAndTheDelivererCompletes() {
        withWatchdog("take(until:): trigger fired while a callback waits for the firing thread") {
            let (trigger, triggerInput) = Signal<Void, Never>.pipe()
            let received = eventsWhenEndedFromACallbackWaitingForIt(
                { $0.take(until: trigger) },
                end: { triggerInput.sendNext(()) },
                "the trigger waited for the callback"
            )
            XCTAssertEqual(received.events, [.next(1), .completed])
        }
    }
}
