import Disposables
import Signals
import TestSupport
import XCTest

final class AnyAllTests: LeakCheckedTestCase {
    func testAny_sendsTrueAtTheFirstValueThenCompletes() {
        XCTAssertEqual(TestSource([1, 2]).signal.any().record().events, [.next(true), .completed])
    }

    func testAny_emptySourceSendsFalse() {
        XCTAssertEqual(TestSource<Int>([]).signal.any().record().events, [.next(false), .completed])
    }

    func testAny_anErrorBecomesFalseThenCompletion() {
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.any().record().events, [.next(false), .completed])
    }

    func testAny_sendsTrueThenDisposesTheSourceThenCompletes() {
        let log = Recorder<String>()
        let source = DrivenSource<TestError> { log.record("source disposed") }
        source.signal.any { $0 > 1 }.subscribe(next: { log.record("\($0)") }, completed: { log.record("completed") })
        source.input.sendNext(1)
        XCTAssertEqual(log.values, [])
        source.input.sendNext(2)
        source.input.sendNext(3)
        XCTAssertEqual(log.values, ["true", "source disposed", "completed"])
    }

    func testAnyPredicate_stopsAtTheFirstMatch() {
        let tested = Recorder<Int>()
        let recorder = TestSource([1, 2, 3, 4]).signal.any { tested.record($0); return $0 > 2 }.record()
        XCTAssertEqual(recorder.events, [.next(true), .completed])
        XCTAssertEqual(tested.values, [1, 2, 3])
    }

    func testAnyPredicate_noMatchSendsFalse() {
        XCTAssertEqual(TestSource([1, 2]).signal.any { $0 > 2 }.record().events, [.next(false), .completed])
    }

    func testAnyPredicate_errorInTheMiddleBecomesFalse() {
        XCTAssertEqual(TestSource([1], end: .error(.second)).signal.any { $0 > 2 }.record().events, [.next(false), .completed])
    }

    func testAll_everyValuePassingSendsTrueAtCompletion() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let recorder = pipe.all { $0 > 0 }.record()
        input.sendNext(1)
        input.sendNext(2)
        XCTAssertEqual(recorder.events, [])
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(true), .completed])
    }

    func testAll_emptySourceSendsTrue() {
        XCTAssertEqual(TestSource<Int>([]).signal.all { $0 > 0 }.record().events, [.next(true), .completed])
    }

    func testAll_sendsFalseAtTheFirstFailingValueThenDisposesTheSourceThenCompletes() {
        let log = Recorder<String>()
        let source = DrivenSource<TestError> { log.record("source disposed") }
        let tested = Recorder<Int>()
        source.signal.all { tested.record($0); return $0 < 2 }
            .subscribe(next: { log.record("\($0)") }, completed: { log.record("completed") })
        source.input.sendNext(1)
        source.input.sendNext(2)
        source.input.sendNext(3)
        XCTAssertEqual(log.values, ["false", "source disposed", "completed"])
        XCTAssertEqual(tested.values, [1, 2])
    }

    func testAll_anErrorBecomesFalseThenCompletion() {
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.all { _ in true }.record().events, [.next(false), .completed])
        XCTAssertEqual(TestSource([1], end: .error(.second)).signal.all { _ in true }.record().events, [.next(false), .completed])
    }

    func testAnyAll_disposalMidStreamDisposesTheSourceAndStopsDelivery() {
        for (name, apply) in quantifiers {
            let source = DrivenSource<TestError>()
            let tested = Recorder<Int>()
            let recorder = apply(source.signal.map { tested.record($0); return $0 }).record()
            source.input.sendNext(0)
            recorder.dispose()
            source.input.sendNext(1)
            source.input.sendCompleted()
            XCTAssertEqual(recorder.events, [], name)
            XCTAssertEqual(tested.values, [0], name)
            XCTAssertEqual(source.disposals.value, 1, name)
            XCTAssertTrue(recorder.disposable.isDisposed, name)
        }
    }

    func testAnyAll_disposingInsideTheAnswerStopsTheCompletion() {
        for (name, apply) in quantifiers {
            let (pipe, input) = Signal<Int, TestError>.pipe()
            let recorder = Recorder<Event<Bool, TestError>>()
            let box = DisposableBox()
            box.disposable = apply(pipe).subscribe(next: { value in
                recorder.record(.next(value))
                box.disposable?.dispose()
            }, completed: { recorder.record(.completed) })
            input.sendCompleted()
            XCTAssertEqual(recorder.values.count, 1, name)
        }
    }

    func testAnyAll_releaseTheChainAfterTheAnswerAndAfterDisposal() {
        for (name, apply) in quantifiersCapturing {
            weak var weakSignal: Signal<Bool, TestError>?
            let (answered, answeredToken) = trackingLifetime { token -> EventRecorder<Bool, TestError> in
                let signal = apply(Signal<Int, TestError>.never.startWith(5), token)
                weakSignal = signal
                return signal.record()
            }
            XCTAssertEqual(answered.events.count, 2, name)
            XCTAssertNil(weakSignal, name)
            XCTAssertFalse(answeredToken.isAlive, name)

            let (pipe, input) = Signal<Int, TestError>.pipe()
            let (disposed, disposedToken) = trackingLifetime { token in apply(pipe, token).record() }
            input.sendNext(0)
            disposed.dispose()
            XCTAssertFalse(disposedToken.isAlive, name)
        }
    }

    private let quantifiers: [(String, (Signal<Int, TestError>) -> Signal<Bool, TestError>)] = [
        ("any(_:)", { $0.any { $0 > 5 } }),
        ("all(_:)", { $0.all { $0 < 5 } }),
        ("any()", { $0.filter { $0 > 5 }.any() }),
    ]

    /// Each quantifier with a predicate that keeps `token`, and that decides at the value 5.
    private let quantifiersCapturing: [(String, (Signal<Int, TestError>, LifetimeToken) -> Signal<Bool, TestError>)] = [
        ("any(_:)", { signal, token in signal.any { _ = token; return $0 == 5 } }),
        ("all(_:)", { signal, token in signal.all { _ = token; return $0 != 5 } }),
    ]
}
