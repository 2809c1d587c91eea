import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class WithLatestFromTests: LeakCheckedTestCase {
    func testWithLatestFrom_pairsEachValueWithOthersLatestAndDropsValuesBeforeOthersFirst() {
        let (source, sourceInput) = Signal<String, TestError>.pipe()
        let (other, otherInput) = Signal<Int, TestError>.pipe()
        let rows = Recorder<String>()
        source.withLatestFrom(other).subscribe(next: { rows.record("\($0.0)\($0.1)") })
        sourceInput.sendNext("a")
        otherInput.sendNext(1)
        otherInput.sendNext(2)
        sourceInput.sendNext("b")
        sourceInput.sendNext("c")
        otherInput.sendNext(3)
        sourceInput.sendNext("d")
        XCTAssertEqual(rows.values, ["b2", "c2", "d3"])
    }

    func testWithLatestFrom_combine_sendsWhatTheClosureMakes() {
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let (other, otherInput) = Signal<Int, TestError>.pipe()
        let recorder = source.withLatestFrom(other) { $0 * 10 + $1 }.record()
        sourceInput.sendNext(1)
        otherInput.sendNext(5)
        sourceInput.sendNext(2)
        sourceInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(25), .completed])
    }

    func testWithLatestFrom_othersCompletionKeepsItsLatestValue_theSourcesCompletionEndsIt() {
        let log = Recorder<String>()
        let source = DrivenSource<TestError> { log.record("source disposed") }
        let other = DrivenSource<TestError> { log.record("other disposed") }
        let recorder = source.signal.withLatestFrom(other.signal) { [$0, $1] }.record()
        other.input.sendNext(7)
        other.input.sendCompleted()
        XCTAssertEqual(recorder.events, [])
        source.input.sendNext(1)
        source.input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next([1, 7]), .next([2, 7])])
        source.input.sendCompleted()
        source.input.sendNext(3)
        XCTAssertEqual(recorder.events, [.next([1, 7]), .next([2, 7]), .completed])
        XCTAssertEqual(Set(log.values), ["source disposed", "other disposed"])
    }

    func testWithLatestFrom_otherCompletingWithoutAValue_dropsEveryValueUntilTheSourceCompletes() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.withLatestFrom(TestSource<Int>([]).signal) { [$0, $1] }.record()
        source.input.sendNext(1)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [.completed])
    }

    func testWithLatestFrom_anErrorFromEitherSideDisposesTheOtherThenIsSent() {
        for sourceFails in [true, false] {
            let source = DrivenSource<TestError>()
            let other = DrivenSource<TestError>()
            let recorder = source.signal.withLatestFrom(other.signal) { [$0, $1] }.record()
            other.input.sendNext(1)
            source.input.sendNext(2)
            if sourceFails { source.input.sendError(.first) } else { other.input.sendError(.first) }
            source.input.sendNext(3)
            XCTAssertEqual(recorder.events, [.next([2, 1]), .error(.first)])
            XCTAssertEqual(source.disposals.value, 1)
            XCTAssertEqual(other.disposals.value, 1)
        }
    }

    func testWithLatestFrom_otherIsSubscribedFirst_soASynchronousOthersValuesAreThereForTheFirstValue() {
        let order = Recorder<String>()
        let other = Signal<Int, TestError> { subscriber in
            order.record("other subscribed")
            subscriber.sendNext(1)
            subscriber.sendNext(2)
            subscriber.sendCompleted()
            return nil
        }
        let source = Signal<Int, TestError> { subscriber in
            order.record("source subscribed")
            subscriber.sendNext(10)
            subscriber.sendNext(20)
            subscriber.sendCompleted()
            return nil
        }
        XCTAssertEqual(source.withLatestFrom(other) { [$0, $1] }.record().events, [.next([10, 2]), .next([20, 2]), .completed])
        XCTAssertEqual(order.values, ["other subscribed", "source subscribed"])
    }

    func testWithLatestFrom_otherFailingWhileSubscribed_doesNotSubscribeTheSource() {
        let source = TestSource([1, 2])
        let recorder = source.signal.withLatestFrom(TestSource<Int>([5], end: .error(.second)).signal) { [$0, $1] }.record()
        XCTAssertEqual(recorder.events, [.error(.second)])
        XCTAssertEqual(source.subscriptions.value, 0)
    }

    func testWithLatestFrom_aSynchronousSourceBeforeAnAsynchronousOther_sendsOnlyTheCompletion() {
        let other = DrivenSource<TestError>()
        XCTAssertEqual(TestSource([1, 2]).signal.withLatestFrom(other.signal) { [$0, $1] }.record().events, [.completed])
        XCTAssertEqual(other.disposals.value, 1)
    }

    func testWithLatestFrom_disposalMidStreamDisposesBothAndStopsDelivery() {
        let source = DrivenSource<TestError>()
        let other = DrivenSource<TestError>()
        let recorder = source.signal.withLatestFrom(other.signal) { [$0, $1] }.record()
        other.input.sendNext(1)
        source.input.sendNext(2)
        recorder.dispose()
        other.input.sendNext(3)
        source.input.sendNext(4)
        XCTAssertEqual(recorder.events, [.next([2, 1])])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(other.disposals.value, 1)
        XCTAssertTrue(recorder.disposable.isDisposed)
    }

    func testWithLatestFrom_releasesOthersLatestValueAndTheClosuresAfterTheEnd() {
        let (source, sourceInput) = Signal<Int, Never>.pipe()
        let (other, otherInput) = Signal<LifetimeToken, Never>.pipe()
        let (disposable, token) = trackingLifetime { token -> Disposable in
            let subscription = source.withLatestFrom(other) { _, latest in latest }.subscribe(next: { _ in _ = token })
            otherInput.sendNext(token)
            return subscription
        }
        otherInput.sendNext(LifetimeToken())
        sourceInput.sendNext(1)
        sourceInput.sendCompleted()
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertFalse(token.isAlive)

        let (running, runningInput) = Signal<Int, Never>.pipe()
        let (kept, keptInput) = Signal<LifetimeToken, Never>.pipe()
        let (subscription, latest) = trackingLifetime { token -> Disposable in
            let subscription = running.withLatestFrom(kept).subscribe()
            keptInput.sendNext(token)
            return subscription
        }
        XCTAssertTrue(latest.isAlive, "the latest value is kept while the subscription lasts")
        subscription.dispose()
        XCTAssertFalse(latest.isAlive, "disposal released the latest value")
        withExtendedLifetime(runningInput) {}
    }

    func testWithLatestFrom_lettingGoOfThePipeReleasesTheSubscription() {
        XCTAssertFalse(letGoOfAPipe(through: { $0.withLatestFrom(Signal<Int, Never>.return(1)) { $0 + $1 } }).isAlive)
    }

    func testWithLatestFrom_bothSidesSendingOnDifferentThreads() {
        let rounds = BuildKind.isSanitized ? 2_000 : 20_000
        let (source, sourceInput) = Signal<Int, Never>.pipe()
        let (other, otherInput) = Signal<Int, Never>.pipe()
        let pairs = Recorder<[Int]>()
        source.withLatestFrom(other) { [$0, $1] }.subscribe(next: { pairs.record($0) })
        otherInput.sendNext(0)
        race(threads: 2) { index in
            if index == 0 {
                for value in 1...rounds { otherInput.sendNext(value) }
            } else {
                for value in 1...rounds { sourceInput.sendNext(value) }
            }
        }
        let values = pairs.values
        XCTAssertEqual(values.map { $0[0] }, Array(1...rounds), "every value of the source, once, in order")
        let latest = values.map { $0[1] }
        XCTAssertEqual(latest, latest.sorted(), "other's latest value never goes back")
        XCTAssertTrue(latest.allSatisfy { (0...rounds).contains($0) })
    }

    // Marble tests: the source and other are hot diagrams on one clock, one frame a second.
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "x": 10, "y": 20]

    func testWithLatestFrom_inMarbles() {
        let scheduler = TestScheduler()
        let source = scheduler.createHotSignal("a-b--c-|", values: values, error: TestError.first)
        let other = scheduler.createHotSignal("-x--y|", values: values, error: TestError.first)
        let recording = scheduler.record(source.withLatestFrom(other) { $0 + $1 })
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "--l--w-|", values: ["l": 12, "w": 23], error: .first))
        XCTAssertEqual(source.subscriptions, [.init(subscribed: 0, disposed: 7)])
        XCTAssertEqual(other.subscriptions, [.init(subscribed: 0, disposed: 5)])
    }
}
