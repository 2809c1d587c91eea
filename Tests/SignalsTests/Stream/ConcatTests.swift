import Disposables
import Signals
import TestSupport
import XCTest

final class ConcatTests: LeakCheckedTestCase {
    func testConcat_sendsTheSecondAfterTheFirstCompletes() {
        let first = TestSource([1, 2])
        let second = TestSource([3])
        XCTAssertEqual(first.signal.concat(second.signal).record().events, [.next(1), .next(2), .next(3), .completed])
    }

    func testConcat_subscribesToTheSecondOnlyOnCompletion() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let second = TestSource([9])
        let recorder = pipe.concat(second.signal).record()
        input.sendNext(1)
        XCTAssertEqual(second.subscriptions.value, 0)
        input.sendCompleted()
        XCTAssertEqual(second.subscriptions.value, 1)
        XCTAssertEqual(recorder.events, [.next(1), .next(9), .completed])
    }

    func testConcat_errorInTheFirstSkipsTheSecond() {
        let second = TestSource([3])
        let recorder = TestSource([1], end: .error(.first)).signal.concat(second.signal).record()
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
        XCTAssertEqual(second.subscriptions.value, 0)
    }

    func testConcat_errorInTheSecond() {
        let recorder = TestSource([1]).signal.concat(TestSource([2], end: .error(.second)).signal).record()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .error(.second)])
    }

    func testConcat_disposalMidStreamDisposesTheCurrentSignal() {
        let first = DrivenSource<TestError>()
        let input = first.input
        let second = TestSource([5])
        let recorder = first.signal.concat(second.signal).record()
        input.sendNext(1)
        recorder.dispose()
        input.sendNext(2)
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(first.disposals.value, 1)
        XCTAssertEqual(second.subscriptions.value, 0)
    }

    func testStaticConcat_emptyListCompletesAtOnce() {
        XCTAssertEqual(Signal<Int, TestError>.concat([]).record().events, [.completed])
    }

    func testStaticConcat_oneSignal() {
        XCTAssertEqual(Signal.concat([TestSource([1, 2]).signal]).record().events, [.next(1), .next(2), .completed])
    }

    func testStaticConcat_manySignalsInOrder() {
        let signals = (0..<5).map { TestSource([$0, $0 * 10]).signal }
        XCTAssertEqual(Signal.concat(signals).record().values, [0, 0, 1, 10, 2, 20, 3, 30, 4, 40])
    }

    func testConcat_nestedChainsKeepTheirOrder() {
        let a = Signal<Int, TestError>.return(1)
        let b = Signal<Int, TestError>.return(2)
        let c = Signal<Int, TestError>.return(3)
        let d = Signal<Int, TestError>.return(4)
        XCTAssertEqual(a.concat(b).concat(c.concat(d)).record().values, [1, 2, 3, 4])
        XCTAssertEqual(Signal.concat([a.concat(b), c]).concat(d).record().values, [1, 2, 3, 4])
    }
}
