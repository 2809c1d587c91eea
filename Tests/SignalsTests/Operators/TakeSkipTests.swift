import Disposables
import Signals
import TestSupport
import XCTest

final class TakeTests: XCTestCase {
    func testTake_sendsTheFirstValuesThenCompletes() {
        XCTAssertEqual(TestSource([1, 2, 3]).signal.take(2).record().events, [.next(1), .next(2), .completed])
    }

    func testTake_zeroIsEmptyAndNeverSubscribes() {
        let source = TestSource([1])
        XCTAssertEqual(source.signal.take(0).record().events, [.completed])
        XCTAssertEqual(source.subscriptions.value, 0)
    }

    func testTake_moreThanAvailable() {
        XCTAssertEqual(TestSource([1]).signal.take(5).record().events, [.next(1), .completed])
    }

    func testTake_disposesTheSourceRightAfterTheLastValueBeforeCompleting() {
        let log = Recorder<String>()
        let source = DrivenSource<TestError> { log.record("source disposed") }
        source.signal.take(1).subscribe(next: { log.record("\($0)") }, completed: { log.record("completed") })
        source.input.sendNext(1)
        source.input.sendNext(2)
        XCTAssertEqual(log.values, ["1", "source disposed", "completed"])
    }

    func testTake_errorBeforeTheCount() {
        XCTAssertEqual(TestSource([1], end: .error(.first)).signal.take(3).record().events, [.next(1), .error(.first)])
    }

    func testTakeWhile_stopsAtTheFirstFailingValue() {
        let source = TestSource([1, 2, 5, 1])
        XCTAssertEqual(source.signal.take(while: { $0 < 3 }).record().events, [.next(1), .next(2), .completed])
    }

    func testTakeUntilTrue_stopsWithoutSendingTheMatchingValue() {
        XCTAssertEqual(TestSource([1, 2, 5, 1]).signal.take(untilTrue: { $0 == 5 }).record().events, [.next(1), .next(2), .completed])
        XCTAssertEqual(TestSource([5]).signal.take(untilTrue: { $0 == 5 }).record().events, [.completed])
    }

    func testTakeWhile_disposesTheSourceWhenItStops() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.take(while: { $0 < 2 }).record()
        source.input.sendNext(1)
        source.input.sendNext(2)
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }
}

final class SkipTests: XCTestCase {
    func testSkip_dropsTheFirstValues() {
        XCTAssertEqual(TestSource([1, 2, 3]).signal.skip(2).record().events, [.next(3), .completed])
        XCTAssertEqual(TestSource([1, 2, 3]).signal.skip(0).record().values, [1, 2, 3])
        XCTAssertEqual(TestSource([1]).signal.skip(5).record().events, [.completed])
    }

    func testSkip_errorPassesThrough() {
        XCTAssertEqual(TestSource([1], end: .error(.first)).signal.skip(1).record().events, [.error(.first)])
    }

    func testSkipWhile_sendsFromTheFirstFailingValueOn() {
        XCTAssertEqual(TestSource([1, 2, 5, 1]).signal.skip(while: { $0 < 3 }).record().events, [.next(5), .next(1), .completed])
    }

    func testSkipUntilTrue_sendsTheMatchingValueAndAfter() {
        XCTAssertEqual(TestSource([1, 2, 5, 1]).signal.skip(untilTrue: { $0 == 2 }).record().events, [.next(2), .next(5), .next(1), .completed])
        XCTAssertEqual(TestSource([1]).signal.skip(untilTrue: { $0 == 2 }).record().events, [.completed])
    }
}

final class ScanTests: XCTestCase {
    func testScan_sendsRunningCombinations() {
        XCTAssertEqual(TestSource([1, 2, 3]).signal.scan(0, +).record().events, [.next(1), .next(3), .next(6), .completed])
    }

    func testScanWithIndex_passesTheIndex() {
        let values = TestSource([10, 20]).signal.scan("") { running, value, index in running + "\(index):\(value) " }.record().values
        XCTAssertEqual(values, ["0:10 ", "0:10 1:20 "])
    }

    func testScan_startsAfreshPerSubscription() {
        let signal = TestSource([1, 2]).signal.scan(0, +)
        XCTAssertEqual(signal.record().values, [1, 3])
        XCTAssertEqual(signal.record().values, [1, 3])
    }

    func testScan_emptyAndError() {
        XCTAssertEqual(TestSource<Int>([]).signal.scan(0, +).record().events, [.completed])
        XCTAssertEqual(TestSource([1], end: .error(.first)).signal.scan(0, +).record().events, [.next(1), .error(.first)])
    }

    func testCombinePrevious_pairsEachValueWithTheOneBefore() {
        let values = TestSource([1, 3, 6]).signal.combinePrevious(0) { previous, current in current - previous }.record().values
        XCTAssertEqual(values, [1, 2, 3])
    }
}
