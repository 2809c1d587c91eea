import Disposables
import Signals
import TestSupport
import XCTest

final class TakeLastTests: LeakCheckedTestCase {
    func testTakeLast_sendsTheLastValuesAtCompletion() {
        XCTAssertEqual(TestSource([1, 2, 3]).signal.take(last: 2).record().events, [.next(2), .next(3), .completed])
    }

    func testTakeLast_sendsNothingBeforeCompletion() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let recorder = pipe.take(last: 1).record()
        input.sendNext(1)
        input.sendNext(2)
        XCTAssertEqual(recorder.events, [])
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(2), .completed])
    }

    func testTakeLast_moreThanAvailable() {
        XCTAssertEqual(TestSource([1, 2]).signal.take(last: 5).record().events, [.next(1), .next(2), .completed])
    }

    func testTakeLast_keepsTheLastValuesAcrossManyValues() {
        let values = Array(0..<1_000)
        XCTAssertEqual(TestSource(values).signal.take(last: 3).record().values, [997, 998, 999])
    }

    func testTakeLast_zeroSendsOnlyCompletion() {
        XCTAssertEqual(TestSource([1, 2]).signal.take(last: 0).record().events, [.completed])
        XCTAssertEqual(TestSource([1, 2], end: .error(.first)).signal.take(last: 0).record().events, [.error(.first)])
    }

    func testTakeLast_emptySource() {
        XCTAssertEqual(TestSource<Int>([]).signal.take(last: 2).record().events, [.completed])
    }

    func testTakeLast_forwardsAnErrorWithoutFlushing() {
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.take(last: 2).record().events, [.error(.first)])
        XCTAssertEqual(TestSource([1, 2], end: .error(.second)).signal.take(last: 2).record().events, [.error(.second)])
    }

    func testTakeLast_disposingInsideAFlushedValueStopsTheRest() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Event<Int, TestError>>()
        let box = DisposableBox()
        box.disposable = pipe.take(last: 3).subscribe(next: { value in
            recorder.record(.next(value))
            box.disposable?.dispose()
        }, completed: { recorder.record(.completed) })
        input.sendNext(1)
        input.sendNext(2)
        input.sendNext(3)
        input.sendCompleted()
        XCTAssertEqual(recorder.values, [.next(1)])
        XCTAssertTrue(box.disposable?.isDisposed ?? false)
    }

    func testTakeLast_disposalFromAnotherThreadStopsTheFlush() {
        for _ in 0..<20 {
            let (pipe, input) = Signal<Int, Never>.pipe()
            let log = Recorder<String>()
            let disposable = pipe.take(last: 1_000).subscribe(next: { log.record("\($0)") }, completed: { log.record("completed") })
            for value in 0..<1_000 { input.sendNext(value) }
            race(threads: 2) { index in
                if index == 0 {
                    input.sendCompleted()
                } else {
                    disposable.dispose()
                    log.record("disposed")
                }
            }
            // A callback that had started when dispose() returned may finish; no other starts.
            let afterDisposal = log.values.drop { $0 != "disposed" }.dropFirst()
            XCTAssertLessThanOrEqual(afterDisposal.count, 1)
        }
    }

    func testTakeLast_followedByTakeStopsAfterItsCount() {
        XCTAssertEqual(TestSource([1, 2, 3]).signal.take(last: 3).take(2).record().events, [.next(1), .next(2), .completed])
    }

    func testTakeLast_disposalMidStreamDisposesTheSourceAndStopsDelivery() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.take(last: 2).record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(recorder.disposable.isDisposed)
    }

    func testTakeLast_releasesTheChainAndTheKeptValuesAfterCompletionAndDisposal() {
        weak var weakSignal: Signal<LifetimeToken, TestError>?
        let (completed, completedToken) = trackingLifetime { token -> EventRecorder<Int, TestError> in
            let signal = Signal<LifetimeToken, TestError>.return(token).concat(.return(LifetimeToken())).take(last: 1)
            weakSignal = signal
            return signal.map { _ in 1 }.record()
        }
        XCTAssertEqual(completed.events, [.next(1), .completed])
        XCTAssertNil(weakSignal)
        XCTAssertFalse(completedToken.isAlive)

        let (pipe, input) = Signal<LifetimeToken, TestError>.pipe()
        let recorder = pipe.take(last: 2).record()
        let kept = trackingLifetime { token in input.sendNext(token) }.1
        XCTAssertTrue(kept.isAlive)
        recorder.dispose()
        XCTAssertFalse(kept.isAlive)
    }
}
