import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class SampleTests: LeakCheckedTestCase {
    func testSample_eachTickResendsTheLatestValueAndTicksBeforeTheFirstValueSendNothing() {
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let (ticks, tickInput) = Signal<Void, TestError>.pipe()
        let recorder = source.sample(ticks).record()
        tickInput.sendNext(())
        sourceInput.sendNext(1)
        sourceInput.sendNext(2)
        tickInput.sendNext(())
        tickInput.sendNext(())
        sourceInput.sendNext(3)
        tickInput.sendNext(())
        XCTAssertEqual(recorder.events, [.next(2), .next(2), .next(3)])
    }

    func testSample_endsWhenEitherSideCompletes() {
        for sourceCompletes in [true, false] {
            let log = Recorder<String>()
            let source = DrivenSource<TestError> { log.record("source disposed") }
            let ticks = DrivenSource<TestError> { log.record("ticks disposed") }
            let recorder = source.signal.sample(ticks.signal).record()
            source.input.sendNext(1)
            ticks.input.sendNext(0)
            if sourceCompletes { source.input.sendCompleted() } else { ticks.input.sendCompleted() }
            source.input.sendNext(2)
            ticks.input.sendNext(0)
            XCTAssertEqual(recorder.events, [.next(1), .completed])
            XCTAssertEqual(Set(log.values), ["source disposed", "ticks disposed"])
        }
    }

    func testSample_failsWhenEitherSideFails() {
        let errorFromSource = TestSource<Int>([], end: .error(.first)).signal.sample(Signal<Int, TestError>.never)
        XCTAssertEqual(errorFromSource.record().events, [.error(.first)])
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let (ticks, tickInput) = Signal<Int, TestError>.pipe()
        let recorder = source.sample(ticks).record()
        sourceInput.sendNext(1)
        tickInput.sendNext(0)
        tickInput.sendError(.second)
        XCTAssertEqual(recorder.events, [.next(1), .error(.second)])
    }

    func testSample_sourceEndingWhileSubscribedStillSubscribesTheSamplerThenDisposesIt() {
        // RAC 2.5 subscribes the sampler whatever the source did meanwhile, so the sampler's
        // subscription side effects run; its subscription is disposed at once and its ticks
        // send nothing.
        for end in [Event<Int, TestError>.completed, .error(.first)] {
            let ticking = TestSource([1, 2])
            let source = TestSource([5], end: end)
            XCTAssertEqual(source.signal.sample(ticking.signal).record().events, [end])
            XCTAssertEqual(ticking.subscriptions.value, 1)
            XCTAssertEqual(ticking.disposals.value, 1)

            let driven = DrivenSource<TestError>()
            let recorder = TestSource([7], end: end).signal.sample(driven.signal).record()
            XCTAssertEqual(driven.disposals.value, 1)
            driven.input.sendNext(0)
            XCTAssertEqual(recorder.events, [end])
        }
    }

    func testSample_disposalMidStreamDisposesBothAndStopsDelivery() {
        let source = DrivenSource<TestError>()
        let ticks = DrivenSource<TestError>()
        let recorder = source.signal.sample(ticks.signal).record()
        source.input.sendNext(1)
        ticks.input.sendNext(0)
        recorder.dispose()
        ticks.input.sendNext(0)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(ticks.disposals.value, 1)
        XCTAssertTrue(recorder.disposable.isDisposed)
    }

    func testSample_releasesTheLatestValueAndClosuresAfterTheEnd() {
        let (source, sourceInput) = Signal<LifetimeToken, Never>.pipe()
        let (ticks, tickInput) = Signal<Void, Never>.pipe()
        let (disposable, token) = trackingLifetime { token -> Disposable in
            sourceInput.sendNext(token)
            return source.sample(ticks).subscribe(next: { _ in _ = token })
        }
        sourceInput.sendNext(LifetimeToken())
        tickInput.sendCompleted()
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertFalse(token.isAlive)
    }

    // Marble tests: the source and the sampler are hot diagrams on one clock, one frame a second;
    // a match fixes the exact time of every event.
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "t": 0]

    func testSample_inMarbles_eachTickResendsTheLatestValue() {
        let scheduler = TestScheduler()
        let source = scheduler.createHotSignal("-ab--c", values: values, error: TestError.first)
        let ticks = scheduler.createHotSignal("t--tt-t", values: values, error: TestError.first)
        let recording = scheduler.record(source.sample(ticks))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "---bb-c", values: values, error: .first))
        recording.dispose()
    }

    func testSample_inMarbles_endsWhenEitherSideEndsAndLetsGoOfBoth() {
        let scheduler = TestScheduler()
        let source = scheduler.createHotSignal("-a--|", values: values, error: TestError.first)
        let ticks = scheduler.createHotSignal("--t--t", values: values, error: TestError.first)
        let recording = scheduler.record(source.sample(ticks))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "--a-|", values: values, error: .first))
        XCTAssertEqual(source.subscriptions, [.init(subscribed: 0, disposed: 4)])
        XCTAssertEqual(ticks.subscriptions, [.init(subscribed: 0, disposed: 4)])

        let failingTicks = scheduler.createHotSignal("--t#", values: values, error: TestError.second)
        let endless = scheduler.createHotSignal("a", values: values, error: TestError.first)
        let failed = scheduler.record(endless.sample(failingTicks))
        scheduler.run()
        XCTAssertNil(failed.mismatch(expected: "--a#", values: values, error: .second))
        XCTAssertEqual(endless.subscriptions, [.init(5, 8)], "on the scheduler's clock, which the first run left at 5")
    }
}
