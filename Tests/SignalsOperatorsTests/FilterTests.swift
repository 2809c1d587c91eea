import Disposables
import Signals
import TestSupport
import XCTest

final class FilterTests: LeakCheckedTestCase {
    func testFilter_keepsMatchingValues() {
        XCTAssertEqual(TestSource([1, 2, 3, 4]).signal.filter { $0.isMultiple(of: 2) }.record().events, [.next(2), .next(4), .completed])
    }

    func testFilter_noneMatch() {
        XCTAssertEqual(TestSource([1, 3]).signal.filter { $0.isMultiple(of: 2) }.record().events, [.completed])
    }

    func testFilter_errorPassesThrough() {
        XCTAssertEqual(TestSource([1, 2], end: .error(.first)).signal.filter { $0 > 1 }.record().events, [.next(2), .error(.first)])
    }

    func testFilter_disposalMidStream() {
        let source = TestSource([1, 2], end: nil)
        let recorder = source.signal.filter { _ in true }.record()
        recorder.dispose()
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(recorder.events, [.next(1), .next(2)])
    }

    func testIgnore_dropsEqualValues() {
        XCTAssertEqual(TestSource([1, 2, 1, 3]).signal.ignore(1).record().events, [.next(2), .next(3), .completed])
    }
}
