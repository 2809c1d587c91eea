import Disposables
import Signals
import TestSupport
import XCTest

final class MapTests: XCTestCase {
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

final class FilterTests: XCTestCase {
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

final class ReduceEachTests: XCTestCase {
    func testReduceEach_spreadsTupleMembers() {
        let zipped = Signal.zip(TestSource(["a", "b"]).signal, TestSource([1, 2]).signal)
        XCTAssertEqual(zipped.reduceEach { letter, number in "\(letter)\(number)" }.record().events, [.next("a1"), .next("b2"), .completed])
    }
}

final class StartWithTests: XCTestCase {
    func testStartWith_sendsTheValueFirst() {
        XCTAssertEqual(TestSource([1, 2]).signal.startWith(0).record().events, [.next(0), .next(1), .next(2), .completed])
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.startWith(0).record().events, [.next(0), .error(.first)])
    }
}

final class DistinctUntilChangedTests: XCTestCase {
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
