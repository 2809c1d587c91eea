import Disposables
import Foundation
import Signals
import TestSupport
import XCTest

final class FlattenTests: LeakCheckedTestCase {
    func testFlatten_sendsValuesOfAllInnersAsTheyCome() {
        let (outer, outerInput) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let recorder = outer.flatten().record()
        outerInput.sendNext(a)
        outerInput.sendNext(b)
        aInput.sendNext(1)
        bInput.sendNext(2)
        aInput.sendNext(3)
        XCTAssertEqual(recorder.values, [1, 2, 3])
    }

    func testFlatten_completesWhenOuterAndEveryInnerHave() {
        let (outer, outerInput) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let recorder = outer.flatten().record()
        outerInput.sendNext(a)
        outerInput.sendNext(.return(1))
        outerInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1)])
        aInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }

    func testFlatten_innerErrorDisposesTheOthersThenIsSent() {
        let (outer, outerInput) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let running = TestSource([1], end: nil)
        let recorder = outer.flatten().record()
        outerInput.sendNext(running.signal)
        outerInput.sendNext(.error(.second))
        outerInput.sendNext(.return(5))
        XCTAssertEqual(recorder.events, [.next(1), .error(.second)])
        XCTAssertEqual(running.disposals.value, 1)
    }

    func testFlatten_outerErrorEndsAtOnce() {
        let recorder = TestSource<Signal<Int, TestError>>([.return(1)], end: .error(.first)).signal.flatten().record()
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
    }

    func testFlatten_emptyOuterCompletes() {
        XCTAssertEqual(Signal<Signal<Int, TestError>, TestError>.empty.flatten().record().events, [.completed])
    }

    func testFlatten_disposalMidStreamDisposesOuterAndInners() {
        let outer = TestSource<Signal<Int, TestError>>([], end: nil)
        let inner = TestSource([1], end: nil)
        let (pipe, input) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let recorder = pipe.merge(outer.signal).flatten().record()
        input.sendNext(inner.signal)
        recorder.dispose()
        input.sendNext(.return(2))
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(outer.disposals.value, 1)
        XCTAssertEqual(inner.disposals.value, 1)
    }

    func testFlattenMaxConcurrent_queuesInnersBeyondTheLimit() {
        let (outer, outerInput) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let pipes = (0..<3).map { _ in Signal<Int, TestError>.pipe() }
        let subscribed = Recorder<Int>()
        let recorder = outer.flatten(maxConcurrent: 2).record()
        for (index, pipe) in pipes.enumerated() {
            outerInput.sendNext(Signal.defer { subscribed.record(index); return pipe.signal })
        }
        outerInput.sendCompleted()
        XCTAssertEqual(subscribed.values, [0, 1])
        pipes[1].input.sendNext(11)
        pipes[1].input.sendCompleted()
        XCTAssertEqual(subscribed.values, [0, 1, 2])
        pipes[2].input.sendNext(22)
        pipes[0].input.sendNext(0)
        pipes[2].input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(11), .next(22), .next(0)])
        pipes[0].input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(11), .next(22), .next(0), .completed])
    }

    func testFlattenMaxConcurrent_disposalNeverSubscribesTheQueuedSignals() {
        let (outer, outerInput) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let running = TestSource([1], end: nil)
        let queued = TestSource([2])
        let recorder = outer.flatten(maxConcurrent: 1).record()
        outerInput.sendNext(running.signal)
        outerInput.sendNext(queued.signal)
        recorder.dispose()
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(running.disposals.value, 1)
        XCTAssertEqual(queued.subscriptions.value, 0)
    }

    func testFlattenMaxConcurrent_errorFromAQueuedSignal() {
        let (first, firstInput) = Signal<Int, TestError>.pipe()
        let outer = TestSource([first, .error(.second), .return(3)])
        let recorder = outer.signal.flatten(maxConcurrent: 1).record()
        firstInput.sendNext(1)
        firstInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .error(.second)])
    }

    func testFlattenMaxConcurrent_zeroIsUnlimited() {
        let signals = (0..<4).map { _ in Signal<Int, TestError>.pipe() }
        let subscribed = Counter()
        let outer = TestSource(signals.map { pipe in Signal.defer { subscribed.increment(); return pipe.signal } })
        _ = outer.signal.flatten(maxConcurrent: 0).record()
        XCTAssertEqual(subscribed.value, 4)
    }

    func testConcatOfSignals_oneAtATimeInOrder() {
        let (first, firstInput) = Signal<Int, TestError>.pipe()
        let second = TestSource([2])
        let outer = TestSource([first, second.signal])
        let recorder = outer.signal.concat().record()
        XCTAssertEqual(second.subscriptions.value, 0)
        firstInput.sendNext(1)
        firstInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
    }

    func testFlattenMap_mapsEachValueToASignal() {
        let recorder = TestSource([1, 2, 3]).signal.flattenMap { value in TestSource(Array(repeating: value, count: value)).signal }.record()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(2), .next(3), .next(3), .next(3), .completed])
    }

    func testFlattenMap_nilCountsAsEmpty() {
        let recorder = TestSource([1, 2, 3]).signal.flattenMap { value -> Signal<Int, TestError>? in
            value == 2 ? nil : .return(value)
        }.record()
        XCTAssertEqual(recorder.events, [.next(1), .next(3), .completed])
    }

    func testFlattenMap_errorFromTheMappedSignal() {
        let recorder = TestSource([1, 2, 3]).signal.flattenMap { value in
            value == 2 ? .error(.first) : .return(value)
        }.record()
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
    }

    func testFlatten_disposalInsideTheFirstValueOfAnInnerStopsARepeatingInner() {
        // The inner loops inside its own subscribing call: its subscription must join the
        // merge's before its first value, not once that call returns.
        let flattenings: [(name: String, apply: (Signal<Int, TestError>) -> Signal<Int, TestError>)] = [
            ("merge", { Signal.merge([$0, .never]) }),
            ("flattenMap", { inner in Signal<Int, TestError>.return(0).flattenMap { _ in inner } }),
            ("flatten(maxConcurrent: 1)", { Signal<Signal<Int, TestError>, TestError>.return($0).flatten(maxConcurrent: 1) }),
        ]
        for (name, apply) in flattenings {
            let source = SelfLimitingSource()
            let values = Counter()
            let subscription = apply(source.signal.repeat()).subscribeDisposingInFirstValue(counting: values)
            XCTAssertEqual(values.value, 1, name)
            XCTAssertEqual(source.subscriptions.value, 1, name)
            XCTAssertTrue(subscription.isDisposed, name)
        }
    }

    func testMerge_sendsValuesAsTheyComeAndCompletesWhenAllHave() {
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let recorder = a.merge(b).record()
        aInput.sendNext(1)
        bInput.sendNext(2)
        aInput.sendCompleted()
        bInput.sendNext(3)
        bInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3), .completed])
    }

    func testStaticMerge_emptyAndOne() {
        XCTAssertEqual(Signal<Int, TestError>.merge([]).record().events, [.completed])
        XCTAssertEqual(Signal.merge([TestSource([1]).signal]).record().events, [.next(1), .completed])
    }

    func testMerge_errorDisposesTheOthers() {
        let running = TestSource([1], end: nil)
        let recorder = Signal.merge([running.signal, .error(.first), .return(3)]).record()
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
        XCTAssertEqual(running.disposals.value, 1)
    }

    func testMerge_fourThreadsSendingIntoInnersDeliverEveryValueOnce() {
        let pipes = (0..<4).map { _ in Signal<Int, Never>.pipe() }
        let received = Recorder<Int>()
        let completed = Counter()
        let inside = Counter()
        let overlaps = Counter()
        Signal.merge(pipes.map(\.signal)).subscribe(next: { value in
            inside.increment()
            if inside.value != 1 { overlaps.increment() }
            received.record(value)
            inside.decrement()
        }, completed: { completed.increment() })
        race(threads: 4) { thread in
            for value in 0..<1_000 { pipes[thread].input.sendNext(thread * 1_000 + value) }
            pipes[thread].input.sendCompleted()
        }
        XCTAssertEqual(received.values.sorted(), Array(0..<4_000))
        XCTAssertEqual(completed.value, 1)
        XCTAssertEqual(overlaps.value, 0)
    }

    func testFlatten_fourThreadsSendingIntoInnersDeliverEveryValueOnce() {
        let pipes = (0..<4).map { _ in Signal<Int, Never>.pipe() }
        let (outer, outerInput) = Signal<Signal<Int, Never>, Never>.pipe()
        let received = Recorder<Int>()
        let completed = Counter()
        outer.flatten().subscribe(next: { received.record($0) }, completed: { completed.increment() })
        for pipe in pipes { outerInput.sendNext(pipe.signal) }
        outerInput.sendCompleted()
        race(threads: 4) { thread in
            for value in 0..<1_000 { pipes[thread].input.sendNext(thread * 1_000 + value) }
            pipes[thread].input.sendCompleted()
        }
        XCTAssertEqual(received.values.sorted(), Array(0..<4_000))
        XCTAssertEqual(completed.value, 1)
    }

    func testFlatten_memoryIsReleasedAfterCompletion() {
        let (_, token) = trackingLifetime { token in
            TestSource([1, 2]).signal.flattenMap { value -> Signal<Int, TestError> in
                _ = token
                return .return(value)
            }.record()
        }
        XCTAssertFalse(token.isAlive)
    }
}
