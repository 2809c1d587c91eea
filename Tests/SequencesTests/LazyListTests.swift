import Sequences
import XCTest

final class LazyListTests: XCTestCase {
    func testReturnAndEmpty() {
        XCTAssertEqual(LazyList.return(1).array, [1])
        XCTAssertEqual(LazyList<Int>.empty.array, [])
    }
}
