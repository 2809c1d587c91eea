import Disposables
import Signals
import TestSupport
import XCTest

final class CompactMapTests: LeakCheckedTestCase {
    func testCompactMap_sendsTheValuesTheTransformGives() {
        let recorder = TestSource(["1", "x", "3"]).signal.compactMap { Int($0) }.record()
        XCTAssertEqual(recorder.events, [.next(1), .next(3), .completed])
    }

    func testCompactMap_noValueGiven() {
        XCTAssertEqual(TestSource([1, 2]).signal.compactMap { _ -> Int? in nil }.record().events, [.completed])
    }

    func testCompactMap_errors() {
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.compactMap { $0 }.record().events, [.error(.first)])
        let recorder = TestSource([1, 2], end: .error(.second)).signal.compactMap { $0 == 1 ? nil : $0 * 10 }.record()
        XCTAssertEqual(recorder.events, [.next(20), .error(.second)])
    }

    func testCompactMap_anOptionalResultUnwrapsOneLevel() {
        let recorder = TestSource([1, 2, 3]).signal.compactMap { value -> Int?? in value == 1 ? .some(nil) : value == 2 ? nil : value }.record()
        XCTAssertEqual(recorder.events, [.next(nil), .next(3), .completed])
    }

    func testCompactMap_disposedFromInsideTheTransformDeliversNothingMore() {
        let (pipe, input) = Signal<Int, Never>.pipe()
        let seen = Counter()
        let delivered = Counter()
        let box = DisposableBox()
        box.disposable = pipe.compactMap { value -> Int? in
            seen.increment()
            box.disposable?.dispose()
            return value
        }.subscribe(next: { _ in delivered.increment() })
        input.sendNext(1)
        input.sendNext(2)
        XCTAssertEqual(seen.value, 1, "the transform ran after dispose() returned")
        XCTAssertEqual(delivered.value, 0, "a value was delivered after dispose() returned")
    }
}
