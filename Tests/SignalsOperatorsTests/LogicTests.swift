import Signals
import TestSupport
import Tuples
import XCTest

final class LogicTests: LeakCheckedTestCase {
    func testNot_negatesEachValue() {
        XCTAssertEqual(TestSource([true, false, true]).signal.not().record().events, [.next(false), .next(true), .next(false), .completed])
    }

    func testNot_passesErrorsOn() {
        XCTAssertEqual(TestSource([true], end: .error(.first)).signal.not().record().events, [.next(false), .error(.first)])
    }

    func testAnd_onArrays() {
        let recorder = TestSource([[true, true], [true, false], [false], [true]]).signal.and().record()
        XCTAssertEqual(recorder.events, [.next(true), .next(false), .next(false), .next(true), .completed])
    }

    func testOr_onArrays() {
        let recorder = TestSource([[false, true], [false, false], [true], [false]]).signal.or().record()
        XCTAssertEqual(recorder.events, [.next(true), .next(false), .next(true), .next(false), .completed])
    }

    func testAnd_onTuples() {
        let tuples = [Tuple(true, true, true), Tuple(true, false), Tuple(false), Tuple(true)]
        let recorder = TestSource(tuples.map(SendableTuple.init)).signal.map(\.tuple).and().record()
        XCTAssertEqual(recorder.events, [.next(true), .next(false), .next(false), .next(true), .completed])
    }

    func testOr_onTuples() {
        let tuples = [Tuple(false, false, true), Tuple(false, false), Tuple(true), Tuple(false)]
        let recorder = TestSource(tuples.map(SendableTuple.init)).signal.map(\.tuple).or().record()
        XCTAssertEqual(recorder.events, [.next(true), .next(false), .next(true), .next(false), .completed])
    }

    func testAndOr_passErrorsAndCompletionOn() {
        XCTAssertEqual(TestSource<[Bool]>([], end: .error(.first)).signal.and().record().events, [.error(.first)])
        XCTAssertEqual(TestSource([[true]], end: .error(.second)).signal.or().record().events, [.next(true), .error(.second)])
        XCTAssertEqual(TestSource<[Bool]>([]).signal.or().record().events, [.completed])
        let (tuples, input) = Signal<Tuple, TestError>.pipe()
        let recorder = tuples.and().record()
        input.sendNext(Tuple(true))
        input.sendError(.first)
        XCTAssertEqual(recorder.events, [.next(true), .error(.first)])
    }

    func testAnd_disposalMidStreamDisposesTheSourceAndStopsDelivery() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.map { [$0 > 0] }.and().not().record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(false)])
        XCTAssertEqual(source.disposals.value, 1)
    }
}

/// A tuple of `Bool`s, which the test sources may hold.
private struct SendableTuple: @unchecked Sendable {
    let tuple: Tuple
}
