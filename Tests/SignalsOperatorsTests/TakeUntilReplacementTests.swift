import Disposables
import Signals
import TestSupport
import XCTest

final class TakeUntilReplacementTests: LeakCheckedTestCase {
    func testTakeUntilReplacement_sendsTheSourceThenTheReplacement() {
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let (replacement, replacementInput) = Signal<Int, TestError>.pipe()
        let recorder = source.take(untilReplacement: replacement).record()
        sourceInput.sendNext(1)
        sourceInput.sendNext(2)
        replacementInput.sendNext(10)
        sourceInput.sendNext(3)
        replacementInput.sendNext(11)
        replacementInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(10), .next(11), .completed])
    }

    func testTakeUntilReplacement_sourceCompletionDoesNotComplete() {
        let (replacement, replacementInput) = Signal<Int, TestError>.pipe()
        let recorder = TestSource([1, 2]).signal.take(untilReplacement: replacement).record()
        XCTAssertEqual(recorder.events, [.next(1), .next(2)])
        replacementInput.sendNext(3)
        replacementInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3), .completed])
    }

    func testTakeUntilReplacement_emptySourceWaitsForTheReplacement() {
        let (replacement, replacementInput) = Signal<Int, TestError>.pipe()
        let recorder = TestSource<Int>([]).signal.take(untilReplacement: replacement).record()
        XCTAssertEqual(recorder.events, [])
        replacementInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.completed])
    }

    func testTakeUntilReplacement_synchronousReplacementMeansTheSourceIsNeverSubscribed() {
        let source = TestSource([1])
        XCTAssertEqual(source.signal.take(untilReplacement: TestSource([9]).signal).record().events, [.next(9), .completed])
        XCTAssertEqual(source.signal.take(untilReplacement: TestSource<Int>([]).signal).record().events, [.completed])
        XCTAssertEqual(source.subscriptions.value, 0)
    }

    func testTakeUntilReplacement_replacementValueDisposesTheSourceBeforeItIsSent() {
        let log = Recorder<String>()
        let source = DrivenSource<TestError> { log.record("source disposed") }
        let (replacement, replacementInput) = Signal<Int, TestError>.pipe()
        source.signal.take(untilReplacement: replacement).subscribe(next: { log.record("\($0)") })
        source.input.sendNext(1)
        replacementInput.sendNext(2)
        source.input.sendNext(3)
        XCTAssertEqual(log.values, ["1", "source disposed", "2"])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testTakeUntilReplacement_sourceErrorEndsTheResultAndDisposesTheReplacement() {
        let replacement = DrivenSource<TestError>()
        let recorder = TestSource([1], end: .error(.first)).signal.take(untilReplacement: replacement.signal).record()
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
        XCTAssertEqual(replacement.disposals.value, 1)
    }

    func testTakeUntilReplacement_errorAtTheStart() {
        let (replacement, _) = Signal<Int, TestError>.pipe()
        XCTAssertEqual(TestSource<Int>([], end: .error(.second)).signal.take(untilReplacement: replacement).record().events, [.error(.second)])
    }

    func testTakeUntilReplacement_replacementErrorDisposesTheSourceThenFails() {
        let log = Recorder<String>()
        let source = DrivenSource<TestError> { log.record("source disposed") }
        let (replacement, replacementInput) = Signal<Int, TestError>.pipe()
        source.signal.take(untilReplacement: replacement).subscribe(
            next: { log.record("\($0)") },
            error: { log.record("error \($0)") }
        )
        source.input.sendNext(1)
        replacementInput.sendError(.second)
        XCTAssertEqual(log.values, ["1", "source disposed", "error second"])
    }

    func testTakeUntilReplacement_disposalDisposesBoth() {
        let source = DrivenSource<TestError>()
        let replacement = DrivenSource<TestError>()
        let recorder = source.signal.take(untilReplacement: replacement.signal).record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        replacement.input.sendNext(3)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(replacement.disposals.value, 1)
        XCTAssertTrue(recorder.disposable.isDisposed)
    }

    func testTakeUntilReplacement_releasesEverythingAfterCompletion() {
        let (replacement, replacementInput) = Signal<Int, TestError>.pipe()
        let (recorder, token) = trackingLifetime { token in
            TestSource([1]).signal.map { _ = token; return $0 }
                .take(untilReplacement: replacement.map { _ = token; return $0 }).record()
        }
        replacementInput.sendNext(2)
        replacementInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
        XCTAssertFalse(token.isAlive)
    }

    func testTakeUntilReplacement_releasesEverythingAfterDisposal() {
        let (source, _) = Signal<Int, TestError>.pipe()
        let (replacement, _) = Signal<Int, TestError>.pipe()
        let (recorder, token) = trackingLifetime { token in
            source.map { _ = token; return $0 }.take(untilReplacement: replacement.map { _ = token; return $0 }).record()
        }
        recorder.dispose()
        XCTAssertFalse(token.isAlive)
    }
}
