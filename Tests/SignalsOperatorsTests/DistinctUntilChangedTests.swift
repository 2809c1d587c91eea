import Disposables
import Signals
import TestSupport
import XCTest

final class DistinctUntilChangedTests: LeakCheckedTestCase {
    func testDistinct_dropsRepeats() {
        XCTAssertEqual(TestSource([1, 1, 2, 2, 1, 3, 3]).signal.distinctUntilChanged().record().values, [1, 2, 1, 3])
    }

    func testDistinctBy_usesThePredicate() {
        let values = TestSource([1, 3, 2, 4, 5]).signal.distinctUntilChanged { $0 % 2 == $1 % 2 }.record().values
        XCTAssertEqual(values, [1, 2, 5])
    }

    func testDistinct_emptyAndError() {
        XCTAssertEqual(TestSource<Int>([]).signal.distinctUntilChanged().record().events, [.completed])
        XCTAssertEqual(TestSource([1, 1], end: .error(.first)).signal.distinctUntilChanged().record().events, [.next(1), .error(.first)])
    }
}
