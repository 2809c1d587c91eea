import Disposables
import Signals
import TestSupport
import XCTest

final class SkipTests: LeakCheckedTestCase {
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
