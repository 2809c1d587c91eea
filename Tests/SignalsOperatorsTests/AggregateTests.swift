import Signals
import TestSupport
import XCTest

final class AggregateTests: LeakCheckedTestCase {
    func testAggregate_sendsTheCombinationAtCompletion() {
        XCTAssertEqual(TestSource([1, 2, 3]).signal.aggregate(0, +).record().events, [.next(6), .completed])
    }

    func testAggregate_sendsNothingBeforeCompletion() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let recorder = pipe.aggregate(10, +).record()
        input.sendNext(1)
        input.sendNext(2)
        XCTAssertEqual(recorder.events, [])
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(13), .completed])
    }

    func testAggregate_emptySourceSendsTheStart() {
        XCTAssertEqual(TestSource<Int>([]).signal.aggregate(7, +).record().events, [.next(7), .completed])
    }

    func testAggregate_errorSendsNoValue() {
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.aggregate(0, +).record().events, [.error(.first)])
        XCTAssertEqual(TestSource([1, 2], end: .error(.second)).signal.aggregate(0, +).record().events, [.error(.second)])
    }

    func testAggregate_eachSubscriptionStartsAgain() {
        let signal = TestSource([1, 2]).signal.aggregate(0, +)
        XCTAssertEqual(signal.record().values, [3])
        XCTAssertEqual(signal.record().values, [3])
    }

    func testAggregateWithIndex_passesEachValuesIndex() {
        let signal = TestSource(["a", "b", "c"]).signal.aggregate("") { running, value, index in running + "\(value)\(index)" }
        XCTAssertEqual(signal.record().events, [.next("a0b1c2"), .completed])
        XCTAssertEqual(TestSource<Int>([]).signal.aggregate(-1, withIndex: { _, _, index in index }).record().values, [-1])
    }

    func testAggregateStartFactory_makesAStartForEachSubscription() {
        let made = Counter()
        let signal = TestSource([1, 2]).signal.aggregate(startFactory: { made.increment(); return Box() }) { box, value in
            box.values.append(value)
            return box
        }
        XCTAssertEqual(made.value, 0)
        let first = signal.record()
        let second = signal.record()
        XCTAssertEqual(made.value, 2)
        XCTAssertEqual(first.values.map(\.values), [[1, 2]])
        XCTAssertEqual(second.values.map(\.values), [[1, 2]])
        XCTAssertFalse(first.values[0] === second.values[0])
    }

    func testAggregateStartFactory_emptySourceSendsTheStartAndErrorsSendNoValue() {
        XCTAssertEqual(TestSource<Int>([]).signal.aggregate(startFactory: { 4 }, +).record().events, [.next(4), .completed])
        XCTAssertEqual(TestSource([1], end: .error(.first)).signal.aggregate(startFactory: { 4 }, +).record().events, [.error(.first)])
    }

    func testCollect_sendsAllTheValuesAtCompletion() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let recorder = pipe.collect().record()
        input.sendNext(1)
        input.sendNext(2)
        input.sendNext(3)
        XCTAssertEqual(recorder.events, [])
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next([1, 2, 3]), .completed])
    }

    func testCollect_keepsNilValues() {
        XCTAssertEqual(TestSource<Int?>([1, nil, 3]).signal.collect().record().values, [[1, nil, 3]])
    }

    func testCollect_emptySourceSendsAnEmptyArray() {
        XCTAssertEqual(TestSource<Int>([]).signal.collect().record().events, [.next([]), .completed])
    }

    func testCollect_errorSendsNoValue() {
        XCTAssertEqual(TestSource([1, 2], end: .error(.first)).signal.collect().record().events, [.error(.first)])
    }

    func testAggregateCollect_disposalMidStreamDisposesTheSourceAndStopsDelivery() {
        let operators: [(String, (Signal<Int, TestError>) -> Signal<Int, TestError>)] = [
            ("aggregate", { $0.aggregate(0, +) }),
            ("aggregate(_:withIndex:)", { $0.aggregate(0) { running, value, _ in running + value } }),
            ("aggregate(startFactory:_:)", { $0.aggregate(startFactory: { 0 }, +) }),
            ("collect", { $0.collect().map(\.count) }),
        ]
        for (name, apply) in operators {
            let source = DrivenSource<TestError>()
            let recorder = apply(source.signal).record()
            source.input.sendNext(1)
            recorder.dispose()
            source.input.sendNext(2)
            source.input.sendCompleted()
            XCTAssertEqual(recorder.events, [], name)
            XCTAssertEqual(source.disposals.value, 1, name)
            XCTAssertTrue(recorder.disposable.isDisposed, name)
        }
    }

    func testAggregate_releasesTheChainAfterCompletionAndDisposal() {
        weak var weakSignal: Signal<Int, TestError>?
        let (completed, completedToken) = trackingLifetime { token -> EventRecorder<Int, TestError> in
            let signal = TestSource([1, 2]).signal.aggregate(startFactory: { _ = token; return 0 }) { running, value in
                _ = token
                return running + value
            }
            weakSignal = signal
            return signal.record()
        }
        XCTAssertEqual(completed.events, [.next(3), .completed])
        XCTAssertNil(weakSignal)
        XCTAssertFalse(completedToken.isAlive)

        let (pipe, input) = Signal<Int, TestError>.pipe()
        let (disposed, disposedToken) = trackingLifetime { token in pipe.aggregate(0) { _ = token; return $0 + $1 }.record() }
        input.sendNext(1)
        disposed.dispose()
        XCTAssertFalse(disposedToken.isAlive)
    }
}

/// A start value that reduce changes in place.
private final class Box: @unchecked Sendable {
    var values: [Int] = []
}
