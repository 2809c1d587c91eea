import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class FlatMapLatestTests: LeakCheckedTestCase {
    func testFlatMapLatest_sendsOnlyTheLatestInnersValuesAndDisposesThePreviousInner() {
        let (queries, queryInput) = Signal<String, TestError>.pipe()
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let first = TestSource([0], end: nil)
        let inners: [String: Signal<Int, TestError>] = ["first": first.signal, "a": a]
        let recorder = queries.flatMapLatest { inners[$0]! }.record()
        queryInput.sendNext("first")
        XCTAssertEqual(first.disposals.value, 0)
        queryInput.sendNext("a")
        XCTAssertEqual(first.disposals.value, 1)
        aInput.sendNext(1)
        queryInput.sendNext("first")
        aInput.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(0), .next(1), .next(0)])
        XCTAssertEqual(first.subscriptions.value, 2, "each value subscribes to what the transform made of it")
    }

    func testFlatMapLatest_completesWhenTheSourceAndTheCurrentInnerHaveCompleted() {
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let (inner, innerInput) = Signal<Int, TestError>.pipe()
        let recorder = source.flatMapLatest { _ in inner }.record()
        sourceInput.sendNext(1)
        sourceInput.sendCompleted()
        innerInput.sendNext(5)
        XCTAssertEqual(recorder.events, [.next(5)])
        innerInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(5), .completed])

        let finishedInners = TestSource([1, 2]).signal.flatMapLatest { Signal<Int, TestError>.return($0 * 10) }
        XCTAssertEqual(finishedInners.record().events, [.next(10), .next(20), .completed])
        XCTAssertEqual(TestSource<Int>([]).signal.flatMapLatest { _ in Signal<Int, TestError>.never }.record().events, [.completed])
    }

    func testFlatMapLatest_anErrorFromTheSourceOrTheCurrentInnerEndsAtOnce() {
        let running = TestSource([1], end: nil)
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let recorder = source.flatMapLatest { _ in running.signal }.record()
        sourceInput.sendNext(0)
        sourceInput.sendError(.first)
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
        XCTAssertEqual(running.disposals.value, 1)

        let (other, otherInput) = Signal<Int, TestError>.pipe()
        let failing = other.flatMapLatest { _ in TestSource([7], end: .error(.second)).signal }.record()
        otherInput.sendNext(0)
        otherInput.sendNext(1)
        XCTAssertEqual(failing.events, [.next(7), .error(.second)])
    }

    func testFlatMapLatest_disposalDisposesTheSourceAndTheCurrentInner() {
        let source = DrivenSource<TestError>()
        let inner = TestSource([1], end: nil)
        let recorder = source.signal.flatMapLatest { _ in inner.signal }.record()
        source.input.sendNext(0)
        recorder.dispose()
        source.input.sendNext(1)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(inner.disposals.value, 1)
        XCTAssertEqual(inner.subscriptions.value, 1)
    }

    func testFlatMapLatest_releasesTheTransformAfterTheEnd() {
        let (source, sourceInput) = Signal<Int, Never>.pipe()
        let (disposable, token) = trackingLifetime { token -> Disposable in
            source.flatMapLatest { value in _ = token; return Signal<Int, Never>.return(value) }.subscribe()
        }
        sourceInput.sendNext(1)
        sourceInput.sendCompleted()
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertFalse(token.isAlive)
        XCTAssertFalse(letGoOfAPipe(through: { $0.flatMapLatest { Signal<Int, Never>.return($0) } }).isAlive)
    }

    func testFlatMapLatest_isMapThenSwitchToLatest_inMarbles() {
        let scheduler = TestScheduler()
        let values: [Character: Int] = ["a": 1, "b": 2, "c": 3]
        let source = scheduler.createHotSignal("a--b-|", values: values, error: TestError.first)
        let inners = [1: scheduler.createColdSignal("-a-b-c|", values: values, error: TestError.first),
                      2: scheduler.createColdSignal("--c|", values: values, error: TestError.first)]
        let recording = scheduler.record(source.flatMapLatest { inners[$0]! })
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "-a---c|", values: values, error: .first))
    }
}
