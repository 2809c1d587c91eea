import Disposables
import Signals
import TestSupport
import XCTest

final class StartWithTests: LeakCheckedTestCase {
    func testStartWith_sendsTheValueFirst() {
        XCTAssertEqual(TestSource([1, 2]).signal.startWith(0).record().events, [.next(0), .next(1), .next(2), .completed])
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.startWith(0).record().events, [.next(0), .error(.first)])
    }
}
