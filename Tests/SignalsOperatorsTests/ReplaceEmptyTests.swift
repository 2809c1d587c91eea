import Disposables
import Signals
import TestSupport
import XCTest

final class ReplaceEmptyTests: LeakCheckedTestCase {
    func testReplaceEmpty_passesTheValuesOnUnchanged() {
        XCTAssertEqual(TestSource([1, 2, 3]).signal.replaceEmpty(with: 9).record().events, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(TestSource([9]).signal.replaceEmpty(with: 9).record().events, [.next(9), .completed])
    }

    func testReplaceEmpty_anEmptySourceSendsTheValueThenCompletes() {
        XCTAssertEqual(TestSource<Int>([]).signal.replaceEmpty(with: 9).record().events, [.next(9), .completed])
    }

    func testReplaceEmpty_sendsEachValueAsItComesAndTheReplacementOnlyAtCompletion() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let recorder = pipe.replaceEmpty(with: 9).record()
        input.sendNext(1)
        XCTAssertEqual(recorder.events, [.next(1)])
        input.sendNext(2)
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])

        let (empty, emptyInput) = Signal<Int, TestError>.pipe()
        let waiting = empty.replaceEmpty(with: 9).record()
        XCTAssertEqual(waiting.events, [])
        emptyInput.sendCompleted()
        XCTAssertEqual(waiting.events, [.next(9), .completed])
    }

    func testReplaceEmpty_anErrorIsSentAsItIsWithoutTheReplacement() {
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.replaceEmpty(with: 9).record().events, [.error(.first)])
        XCTAssertEqual(TestSource([1], end: .error(.second)).signal.replaceEmpty(with: 9).record().events, [.next(1), .error(.second)])
    }

    func testReplaceEmpty_aNilReplacementOfAnOptionalIsSent() {
        XCTAssertEqual(TestSource<Int?>([]).signal.replaceEmpty(with: nil).record().events, [.next(nil), .completed])
        XCTAssertEqual(TestSource<Int?>([nil, 1]).signal.replaceEmpty(with: 9).record().events, [.next(nil), .next(1), .completed])
    }

    func testReplaceEmpty_eachSubscriptionCountsItsOwnValues() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let signal = pipe.replaceEmpty(with: 9)
        let early = signal.record()
        input.sendNext(1)
        let late = signal.record()
        input.sendCompleted()
        XCTAssertEqual(early.events, [.next(1), .completed])
        XCTAssertEqual(late.events, [.next(9), .completed])
        // A cold source: each subscription runs it again.
        let cold = TestSource<Int>([]).signal.replaceEmpty(with: 9)
        XCTAssertEqual(cold.record().events, [.next(9), .completed])
        XCTAssertEqual(cold.record().events, [.next(9), .completed])
    }

    func testReplaceEmpty_disposalMidStreamDisposesTheSourceAndStopsDelivery() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.replaceEmpty(with: 9).record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(recorder.disposable.isDisposed)
    }

    func testReplaceEmpty_disposalBeforeAnyValueSendsNoReplacement() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.replaceEmpty(with: 9).record()
        recorder.dispose()
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testReplaceEmpty_disposingInsideTheReplacementsCallbackStopsTheCompletion() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Event<Int, TestError>>()
        let box = DisposableBox()
        box.disposable = pipe.replaceEmpty(with: 9).subscribe(next: { value in
            recorder.record(.next(value))
            box.disposable?.dispose()
        }, error: { recorder.record(.error($0)) }, completed: { recorder.record(.completed) })
        input.sendCompleted()
        XCTAssertEqual(recorder.values, [.next(9)])
        XCTAssertTrue(box.disposable?.isDisposed ?? false)
    }

    func testReplaceEmpty_disposingInsideTheReplacementStopsWhatFollowsItInTheSameEvent() {
        // The replacement and completion come in one event of the source: the operators below
        // must not carry the completion on (concat would subscribe its next signal).
        let operators: [(String, (Signal<Int, Never>) -> Signal<Int, Never>)] = [
            ("replaceEmpty", { $0.replaceEmpty(with: 0) }),
            ("replaceEmpty then concat", { $0.replaceEmpty(with: 0).concat(.return(9)) }),
            ("replaceEmpty then map", { $0.replaceEmpty(with: 0).map { $0 } }),
            ("replaceEmpty then replaceEmpty", { $0.replaceEmpty(with: 0).replaceEmpty(with: 9) }),
        ]
        for (name, apply) in operators {
            let (pipe, input) = Signal<Int, Never>.pipe()
            let log = Recorder<String>()
            let box = DisposableBox()
            box.disposable = apply(pipe).subscribe(next: { value in
                log.record("next \(value)")
                box.disposable?.dispose()
                log.record("dispose() returned")
            }, completed: { log.record("completed") })
            input.sendCompleted()
            XCTAssertEqual(log.values, ["next 0", "dispose() returned"], name)
        }
    }

    func testReplaceEmpty_releasesTheReplacementAtTheFirstValue() {
        let (pipe, input) = Signal<LifetimeToken, TestError>.pipe()
        let (recorder, replacement) = trackingLifetime { token in pipe.replaceEmpty(with: token).map { _ in 1 }.record() }
        XCTAssertTrue(replacement.isAlive, "kept until a value comes")
        input.sendNext(LifetimeToken())
        XCTAssertFalse(replacement.isAlive, "let go of at the first value")
        XCTAssertEqual(recorder.values, [1])
    }

    func testReplaceEmpty_releasesTheChainAfterCompletionAndDisposal() {
        weak var weakSignal: Signal<LifetimeToken, TestError>?
        let (completed, completedToken) = trackingLifetime { token -> EventRecorder<Int, TestError> in
            let signal = Signal<LifetimeToken, TestError>.empty.replaceEmpty(with: token)
            weakSignal = signal
            return signal.map { _ in 1 }.record()
        }
        XCTAssertEqual(completed.events, [.next(1), .completed])
        XCTAssertNil(weakSignal)
        XCTAssertFalse(completedToken.isAlive)

        let (pipe, input) = Signal<LifetimeToken, TestError>.pipe()
        let (recorder, kept) = trackingLifetime { token in pipe.replaceEmpty(with: token).record() }
        XCTAssertTrue(kept.isAlive)
        recorder.dispose()
        XCTAssertFalse(kept.isAlive)
        _ = input

        XCTAssertFalse(letGoOfAPipe(through: { $0.replaceEmpty(with: 9) }).isAlive)
    }

    func testReplaceEmpty_namesItsSignalAfterItsSource() {
        let wasEnabled = SignalDebug.isEnabled
        SignalDebug.isEnabled = true
        defer { SignalDebug.isEnabled = wasEnabled }
        XCTAssertEqual(TestSource<Int>([]).signal.named("results").replaceEmpty(with: 9).name, "[results] -replaceEmptyWith: 9")
    }
}
