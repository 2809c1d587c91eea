import Disposables
import Signals
import TestSupport
import XCTest

final class MaterializeTests: LeakCheckedTestCase {
    private typealias Materialized = Event<Int, TestError>

    func testMaterialize_sendsEachEventAsAValueThenCompletes() {
        XCTAssertEqual(
            TestSource([1, 2]).signal.materialize().record().events,
            [.next(.next(1)), .next(.next(2)), .next(.completed), .completed]
        )
    }

    func testMaterialize_errorAtTheStartBecomesAValue() {
        XCTAssertEqual(
            TestSource<Int>([], end: .error(.first)).signal.materialize().record().events,
            [.next(.error(.first)), .completed]
        )
    }

    func testMaterialize_errorInTheMiddleBecomesAValue() {
        XCTAssertEqual(
            TestSource([1], end: .error(.second)).signal.materialize().record().events,
            [.next(.next(1)), .next(.error(.second)), .completed]
        )
    }

    func testMaterialize_emptySource() {
        XCTAssertEqual(TestSource<Int>([]).signal.materialize().record().events, [.next(.completed), .completed])
    }

    func testMaterialize_disposalMidStreamDisposesTheSourceAndStopsDelivery() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.materialize().record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(.next(1))])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testMaterialize_disposingInsideTheTerminalValueStopsTheCompletion() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let recorder = Recorder<Event<Materialized, Never>>()
        let box = DisposableBox()
        box.disposable = pipe.materialize().subscribe(next: { event in
            recorder.record(.next(event))
            box.disposable?.dispose()
        }, completed: { recorder.record(.completed) })
        input.sendError(.first)
        XCTAssertEqual(recorder.values, [.next(.error(.first))])
    }

    func testMaterialize_releasesTheChainAfterCompletionAndDisposal() {
        let (completed, completedToken) = trackingLifetime { token in
            TestSource([1]).signal.map { _ = token; return $0 }.materialize().record()
        }
        XCTAssertEqual(completed.events, [.next(.next(1)), .next(.completed), .completed])
        XCTAssertFalse(completedToken.isAlive)

        let (pipe, input) = Signal<Int, TestError>.pipe()
        let (disposed, disposedToken) = trackingLifetime { token in
            pipe.map { _ = token; return $0 }.materialize().record()
        }
        input.sendNext(1)
        disposed.dispose()
        XCTAssertFalse(disposedToken.isAlive)
        XCTAssertTrue(disposed.disposable.isDisposed)
    }

    func testDematerialize_undoesMaterialize() {
        XCTAssertEqual(TestSource([1, 2]).signal.materialize().dematerialize().record().events, [.next(1), .next(2), .completed])
        XCTAssertEqual(
            TestSource([1], end: .error(.second)).signal.materialize().dematerialize().record().events,
            [.next(1), .error(.second)]
        )
    }

    func testDematerialize_anErrorValueDisposesTheSourceThenFails() {
        let log = Recorder<String>()
        let (events, input) = drivenEvents(log)
        events.dematerialize().subscribe(
            next: { log.record("\($0)") },
            error: { log.record("error \($0)") },
            completed: { log.record("completed") }
        )
        input.sendNext(.next(1))
        input.sendNext(.error(.first))
        input.sendNext(.next(2))
        XCTAssertEqual(log.values, ["1", "source disposed", "error first"])
    }

    func testDematerialize_aCompletedValueDisposesTheSourceThenCompletes() {
        let log = Recorder<String>()
        let (events, input) = drivenEvents(log)
        events.dematerialize().subscribe(
            next: { log.record("\($0)") },
            error: { log.record("error \($0)") },
            completed: { log.record("completed") }
        )
        input.sendNext(.completed)
        input.sendNext(.next(2))
        XCTAssertEqual(log.values, ["source disposed", "completed"])
    }

    func testDematerialize_completesWhenTheSourceCompletes() {
        let (pipe, input) = Signal<Materialized, Never>.pipe()
        let recorder = pipe.dematerialize().record()
        input.sendNext(.next(1))
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }

    func testDematerialize_onASignalFailingWithTheSameErrorForwardsItsError() {
        let (pipe, input) = Signal<Materialized, TestError>.pipe()
        let recorder = pipe.dematerialize().record()
        input.sendNext(.next(1))
        input.sendError(.second)
        XCTAssertEqual(recorder.events, [.next(1), .error(.second)])
        XCTAssertEqual(TestSource<Materialized>([.error(.first)]).signal.dematerialize().record().events, [.error(.first)])
    }

    func testDematerialize_typesFollowTheEvents() {
        let neverFailing: Signal<Int, Never> = Signal<Event<Int, Never>, Never>.return(.next(1)).dematerialize()
        XCTAssertEqual(neverFailing.record().events, [.next(1), .completed])
        let failing: Signal<Int, TestError> = Signal<Materialized, Never>.return(.next(1)).dematerialize()
        XCTAssertEqual(failing.record().events, [.next(1), .completed])
        let inferred = Signal<Event<Int, Never>, Never>.return(.next(1)).dematerialize()
        XCTAssertEqual(inferred.record().values, [1])
    }

    func testDematerialize_disposalMidStreamDisposesTheSourceAndStopsDelivery() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.map { Materialized.next($0) }.dematerialize().record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testDematerialize_releasesTheChainAfterAnErrorValue() {
        weak var weakSignal: Signal<Int, TestError>?
        let (recorder, token) = trackingLifetime { token -> EventRecorder<Int, TestError> in
            let signal = Signal<Materialized, Never>.never.startWith(.error(.first)).map { _ = token; return $0 }.dematerialize()
            weakSignal = signal
            return signal.record()
        }
        XCTAssertEqual(recorder.events, [.error(.first)])
        XCTAssertNil(weakSignal)
        XCTAssertFalse(token.isAlive)
    }

    /// A signal of events sent by hand through `input`, that logs its disposal.
    private func drivenEvents(_ log: Recorder<String>) -> (Signal<Materialized, Never>, Subscriber<Materialized, Never>) {
        let (pipe, input) = Signal<Materialized, Never>.pipe()
        let events = Signal<Materialized, Never> { subscriber in
            let inner = pipe.subscribe(next: { subscriber.sendNext($0) })
            return Disposable {
                log.record("source disposed")
                inner.dispose()
            }
        }
        return (events, input)
    }
}
