import Disposables
import Signals
import TestSupport
import XCTest

final class IgnoreNilTests: LeakCheckedTestCase {
    func testIgnoreNil_sendsTheUnwrappedValuesThatAreNotNil() {
        let recorder = TestSource<Int?>([1, nil, 2, nil]).signal.ignoreNil().record()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
    }

    func testIgnoreNil_onlyNils() {
        XCTAssertEqual(TestSource<String?>([nil, nil]).signal.ignoreNil().record().events, [.completed])
    }

    func testIgnoreNil_errors() {
        XCTAssertEqual(TestSource<Int?>([], end: .error(.first)).signal.ignoreNil().record().events, [.error(.first)])
        XCTAssertEqual(TestSource<Int?>([nil, 3], end: .error(.second)).signal.ignoreNil().record().events, [.next(3), .error(.second)])
    }

    func testIgnoreNil_nestedOptionalsUnwrapOneLevel() {
        let recorder = TestSource<Int??>([.some(nil), nil, 4]).signal.ignoreNil().record()
        XCTAssertEqual(recorder.events, [.next(nil), .next(4), .completed])
    }
}
