import Disposables
import Signals
import TestSupport
import XCTest

final class TakeTests: LeakCheckedTestCase {
    func testTake_sendsTheFirstValuesThenCompletes() {
        XCTAssertEqual(TestSource([1, 2, 3]).signal.take(2).record().events, [.next(1), .next(2), .completed])
    }

    func testTake_zeroIsEmptyAndNeverSubscribes() {
        let source = TestSource([1])
        XCTAssertEqual(source.signal.take(0).record().events, [.completed])
        XCTAssertEqual(source.subscriptions.value, 0)
    }

    func testTake_moreThanAvailable() {
        XCTAssertEqual(TestSource([1]).signal.take(5).record().events, [.next(1), .completed])
    }

    func testTake_disposesTheSourceRightAfterTheLastValueBeforeCompleting() {
        let log = Recorder<String>()
        let source = DrivenSource<TestError> { log.record("source disposed") }
        source.signal.take(1).subscribe(next: { log.record("\($0)") }, completed: { log.record("completed") })
        source.input.sendNext(1)
        source.input.sendNext(2)
        XCTAssertEqual(log.values, ["1", "source disposed", "completed"])
    }

    func testTake_errorBeforeTheCount() {
        XCTAssertEqual(TestSource([1], end: .error(.first)).signal.take(3).record().events, [.next(1), .error(.first)])
    }

    func testTakeWhile_stopsAtTheFirstFailingValue() {
        let source = TestSource([1, 2, 5, 1])
        XCTAssertEqual(source.signal.take(while: { $0 < 3 }).record().events, [.next(1), .next(2), .completed])
    }

    func testTakeUntilTrue_stopsWithoutSendingTheMatchingValue() {
        XCTAssertEqual(TestSource([1, 2, 5, 1]).signal.take(untilTrue: { $0 == 5 }).record().events, [.next(1), .next(2), .completed])
        XCTAssertEqual(TestSource([5]).signal.take(untilTrue: { $0 == 5 }).record().events, [.completed])
    }

    func testTakeWhile_disposesTheSourceWhenItStops() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.take(while: { $0 < 2 }).record()
        source.input.sendNext(1)
        source.input.sendNext(2)
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }
}
