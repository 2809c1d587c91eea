import Disposables
import Signals
import TestSupport
import XCTest

final class ThenTests: LeakCheckedTestCase {
    func testThen_ignoresTheValuesThenSendsTheBlocksSignal() {
        let recorder = TestSource([1, 2]).signal.then { TestSource(["a", "b"]).signal }.record()
        XCTAssertEqual(recorder.events, [.next("a"), .next("b"), .completed])
    }

    func testThen_theBlockRunsOnlyAfterCompletion() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let calls = Counter()
        let recorder = pipe.then { calls.increment(); return TestSource([9]).signal }.record()
        input.sendNext(1)
        XCTAssertEqual(calls.value, 0)
        input.sendCompleted()
        XCTAssertEqual(calls.value, 1)
        XCTAssertEqual(recorder.events, [.next(9), .completed])
    }

    func testThen_theBlockNeverRunsOnError() {
        let calls = Counter()
        let recorder = TestSource([1], end: .error(.first)).signal.then { calls.increment(); return TestSource([9]).signal }.record()
        XCTAssertEqual(recorder.events, [.error(.first)])
        XCTAssertEqual(calls.value, 0)
    }

    func testThen_theBlocksSignalMayFail() {
        let recorder = TestSource([1]).signal.then { Signal<Int, TestError>.error(.second) }.record()
        XCTAssertEqual(recorder.events, [.error(.second)])
    }

    func testThen_emptySource() {
        XCTAssertEqual(TestSource<Int>([]).signal.then { TestSource([3]).signal }.record().events, [.next(3), .completed])
    }

    func testThen_theBlockRunsForEachSubscription() {
        let calls = Counter()
        let signal = TestSource([1]).signal.then { calls.increment(); return Signal<Int, TestError>.empty }
        _ = signal.record()
        _ = signal.record()
        XCTAssertEqual(calls.value, 2)
    }

    func testThen_disposalDuringTheSource() {
        let source = DrivenSource<TestError>()
        let calls = Counter()
        let recorder = source.signal.then { calls.increment(); return TestSource([9]).signal }.record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(calls.value, 0)
    }

    func testThen_disposalDuringTheBlocksSignal() {
        let next = DrivenSource<TestError>()
        let recorder = TestSource([1]).signal.then { next.signal }.record()
        next.input.sendNext(5)
        recorder.dispose()
        next.input.sendNext(6)
        XCTAssertEqual(recorder.events, [.next(5)])
        XCTAssertEqual(next.disposals.value, 1)
        XCTAssertTrue(recorder.disposable.isDisposed)
    }

    func testThen_releasesEverythingAfterCompletion() {
        let (recorder, token) = trackingLifetime { token in
            TestSource([1]).signal.then { _ = token; return TestSource([2]).signal }.record()
        }
        XCTAssertEqual(recorder.events, [.next(2), .completed])
        XCTAssertFalse(token.isAlive)
    }

    func testThen_releasesEverythingAfterDisposal() {
        let (pipe, _) = Signal<Int, TestError>.pipe()
        let (recorder, token) = trackingLifetime { token in
            pipe.then { _ = token; return Signal<Int, TestError>.empty }.record()
        }
        recorder.dispose()
        XCTAssertFalse(token.isAlive)
    }
}
