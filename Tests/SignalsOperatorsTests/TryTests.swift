import Disposables
import Signals
import TestSupport
import XCTest

final class TryTests: LeakCheckedTestCase {
    // MARK: Signal.try

    func testStaticTry_sendsTheResultThenCompletes() {
        XCTAssertEqual(Signal<Int, TestError>.try { 5 }.record().events, [.next(5), .completed])
    }

    func testStaticTry_failsWithTheThrownError() {
        let signal = Signal<Int, TestError>.try { () throws(TestError) -> Int in throw .second }
        XCTAssertEqual(signal.record().events, [.error(.second)])
    }

    func testStaticTry_runsTheBodyForEachSubscription() {
        let runs = Counter()
        let signal = Signal<Int, TestError>.try { runs.increment(); return runs.value }
        XCTAssertEqual(runs.value, 0)
        XCTAssertEqual(signal.record().events, [.next(1), .completed])
        XCTAssertEqual(signal.record().events, [.next(2), .completed])
    }

    func testStaticTry_releasesTheBodyAfterTheSignal() {
        let (recorder, token) = trackingLifetime { token in
            Signal<Int, Never>.try { _ = token; return 1 }.record()
        }
        XCTAssertEqual(recorder.events, [.next(1), .completed])
        XCTAssertFalse(token.isAlive)
    }

    // MARK: try(_:)

    func testTry_sendsTheValuesTheBodyAccepts() {
        let checked = Recorder<Int>()
        let recorder = TestSource([1, 2]).signal.try { checked.record($0) }.record()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(checked.values, [1, 2])
    }

    func testTry_aThrowDisposesTheSourceThenFails() {
        let log = Recorder<String>()
        let source = DrivenSource<TestError> { log.record("source disposed") }
        let subscription = source.signal.try { value throws(TestError) in
            if value == 2 { throw .second }
        }.subscribe(next: { log.record("\($0)") }, error: { log.record("error \($0)") }, completed: { log.record("completed") })
        source.input.sendNext(1)
        source.input.sendNext(2)
        source.input.sendNext(3)
        XCTAssertEqual(log.values, ["1", "source disposed", "error second"])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(subscription.isDisposed)
    }

    func testTry_aThrowOnASynchronousSourceStopsEverythingAfterIt() {
        let recorder = TestSource([1, 2, 3]).signal.try { value throws(TestError) in
            if value == 2 { throw .first }
        }.record()
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
    }

    func testTry_sourceErrorsAndEmptySource() {
        XCTAssertEqual(TestSource([1], end: .error(.second)).signal.try { _ in }.record().events, [.next(1), .error(.second)])
        XCTAssertEqual(TestSource<Int>([]).signal.try { _ in }.record().events, [.completed])
    }

    func testTry_releasesTheBodyAfterTheThrow() {
        let source = DrivenSource<TestError>()
        let (recorder, token) = trackingLifetime { token in
            source.signal.try { (_: Int) throws(TestError) in
                _ = token
                throw .first
            }.record()
        }
        source.input.sendNext(1)
        XCTAssertEqual(recorder.events, [.error(.first)])
        XCTAssertFalse(token.isAlive)
    }

    // MARK: tryMap

    func testTryMap_sendsTheTransformedValues() {
        XCTAssertEqual(TestSource([1, 2]).signal.tryMap { "\($0 * 10)" }.record().events, [.next("10"), .next("20"), .completed])
    }

    func testTryMap_aThrowDisposesTheSourceThenFails() {
        let log = Recorder<String>()
        let source = DrivenSource<TestError> { log.record("source disposed") }
        source.signal.tryMap { value throws(TestError) -> String in
            if value > 1 { throw .first }
            return "v\(value)"
        }.subscribe(next: { log.record($0) }, error: { log.record("error \($0)") })
        source.input.sendNext(1)
        source.input.sendNext(2)
        source.input.sendNext(3)
        XCTAssertEqual(log.values, ["v1", "source disposed", "error first"])
    }

    func testTryMap_disposalMidStream() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.tryMap { $0 + 1 }.record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(2)])
        XCTAssertEqual(source.disposals.value, 1)
    }
}
