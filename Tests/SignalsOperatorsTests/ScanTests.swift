import Disposables
import Signals
import TestSupport
import XCTest

final class ScanTests: LeakCheckedTestCase {
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
