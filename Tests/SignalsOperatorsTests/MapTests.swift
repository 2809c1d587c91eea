import Disposables
import Signals
import TestSupport
import XCTest

final class MapTests: LeakCheckedTestCase {
    func testMap_transformsEachValue() {
        XCTAssertEqual(TestSource([1, 2, 3]).signal.map { $0 * 10 }.record().events, [.next(10), .next(20), .next(30), .completed])
    }

    func testMap_emptyAndOne() {
        XCTAssertEqual(TestSource<Int>([]).signal.map { $0 + 1 }.record().events, [.completed])
        XCTAssertEqual(TestSource([1]).signal.map { $0 + 1 }.record().events, [.next(2), .completed])
    }

    func testMap_errorAtTheStartAndInTheMiddle() {
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.map { $0 }.record().events, [.error(.first)])
        XCTAssertEqual(TestSource([1], end: .error(.second)).signal.map { $0 }.record().events, [.next(1), .error(.second)])
    }

    func testMap_disposalMidStreamDisposesTheSource() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let recorder = pipe.map { $0 * 2 }.record()
        input.sendNext(1)
        recorder.dispose()
        input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(2)])
    }

    func testMapReplace_sendsTheConstant() {
        XCTAssertEqual(TestSource([1, 2]).signal.mapReplace("x").record().events, [.next("x"), .next("x"), .completed])
    }
}
