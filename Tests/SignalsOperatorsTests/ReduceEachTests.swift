import Disposables
import Signals
import TestSupport
import XCTest

final class ReduceEachTests: LeakCheckedTestCase {
    func testReduceEach_spreadsTupleMembers() {
        let zipped = Signal.zip(TestSource(["a", "b"]).signal, TestSource([1, 2]).signal)
        XCTAssertEqual(zipped.reduceEach { letter, number in "\(letter)\(number)" }.record().events, [.next("a1"), .next("b2"), .completed])
    }
}
