import Disposables
import Signals
import TestSupport
import XCTest

final class ScanTests: LeakCheckedTestCase {
    func testScan_sendsRunningCombinations() {
        XCTAssertEqual(TestSource([1, 2, 3]).signal.scan(0, +).record().events, [.next(1), .next(3), .next(6), .completed])
    }

    func testScanWithIndex_passesTheIndex() {
        let values = TestSource([10, 20]).signal.scan("") { running, value, index in running + "\(index):\(value) " }.record().values
        XCTAssertEqual(values, ["0:10 ", "0:10 1:20 "])
    }

    func testScan_startsAfreshPerSubscription() {
        let signal = TestSource([1, 2]).signal.scan(0, +)
        XCTAssertEqual(signal.record().values, [1, 3])
        XCTAssertEqual(signal.record().values, [1, 3])
    }

    func testScan_emptyAndError() {
        XCTAssertEqual(TestSource<Int>([]).signal.scan(0, +).record().events, [.completed])
        XCTAssertEqual(TestSource([1], end: .error(.first)).signal.scan(0, +).record().events, [.next(1), .error(.first)])
    }

    func testCombinePrevious_pairsEachValueWithTheOneBefore() {
        let values = TestSource([1, 3, 6]).signal.combinePrevious(0) { previous, current in current - previous }.record().values
        XCTAssertEqual(values, [1, 2, 3])
    }
}

/// A value whose storage counts the times it was copied because it was shared when changed: what
/// `scan(into:)` promises not to do for the accumulator's own sake.
private struct CopyCountingTotal: Sendable {
    final class Storage: @unchecked Sendable {
        var total: Int
        init(_ total: Int) { self.total = total }
    }

    private var storage: Storage
    let copies: Counter

    init(copies: Counter) {
        storage = Storage(0)
        self.copies = copies
    }

    var total: Int { storage.total }

    mutating func add(_ value: Int) {
        if !isKnownUniquelyReferenced(&storage) {
            copies.increment()
            storage = Storage(storage.total)
        }
        storage.total += value
    }
}

final class ScanIntoTests: LeakCheckedTestCase {
    func testScanInto_sendsTheRunningAccumulationThenCompletes() {
        let events = TestSource([1, 2, 3]).signal.scan(into: [Int]()) { running, value in running.append(value) }.record().events
        XCTAssertEqual(events, [.next([1]), .next([1, 2]), .next([1, 2, 3]), .completed])
    }

    func testScanInto_emptySourceCompletesAndAnErrorPassesOn() {
        XCTAssertEqual(TestSource<Int>([]).signal.scan(into: 0) { $0 += $1 }.record().events, [.completed])
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.scan(into: 0) { $0 += $1 }.record().events, [.error(.first)])
        XCTAssertEqual(
            TestSource([1, 2], end: .error(.second)).signal.scan(into: 0) { $0 += $1 }.record().events,
            [.next(1), .next(3), .error(.second)]
        )
    }

    func testScanInto_sameValuesAsScan() {
        let values = Array(1...50)
        let into = TestSource(values).signal.scan(into: 0) { running, value in running = running * 3 % 1_000 + value }.record().values
        let plain = TestSource(values).signal.scan(0) { running, value in running * 3 % 1_000 + value }.record().values
        XCTAssertEqual(into, plain)
    }

    func testScanInto_eachSubscriptionStartsFromItsOwnCopyOfTheInitialValue() {
        let source = DrivenSource<TestError>()
        let signal = source.signal.scan(into: [0]) { running, value in running.append(value) }
        let first = signal.record()
        source.input.sendNext(1)
        let second = signal.record()
        source.input.sendNext(2)
        source.input.sendCompleted()
        XCTAssertEqual(first.events, [.next([0, 1]), .next([0, 1, 2]), .completed])
        XCTAssertEqual(second.events, [.next([0, 2]), .completed])
        // A third subscription, after both ended, starts from the untouched initial value again.
        let cold = TestSource([7]).signal.scan(into: [0]) { running, value in running.append(value) }
        XCTAssertEqual(cold.record().values, [[0, 7]])
        XCTAssertEqual(cold.record().values, [[0, 7]])
    }

    func testScanInto_changesTheAccumulatorInPlace() {
        // A downstream that keeps no value: the accumulator is copied once per subscription, when
        // its first change parts it from `initial`, and never again.
        let copies = Counter()
        let signal = TestSource(Array(1...1_000)).signal.scan(into: CopyCountingTotal(copies: copies)) { $0.add($1) }.map(\.total)
        XCTAssertEqual(signal.record().values.last, 500_500)
        XCTAssertEqual(copies.value, 1)
        XCTAssertEqual(signal.record().values.last, 500_500)
        XCTAssertEqual(copies.value, 2)

        // `scan(_:_:)`, for comparison, must copy per value: the sink still holds the running
        // value while the closure changes its copy.
        let plainCopies = Counter()
        let plain = TestSource(Array(1...10)).signal.scan(CopyCountingTotal(copies: plainCopies)) { running, value in
            var next = running
            next.add(value)
            return next
        }.map(\.total)
        XCTAssertEqual(plain.record().values.last, 55)
        XCTAssertEqual(plainCopies.value, 10)
    }

    func testScanInto_disposedMidStream_disposesTheSourceOnceAndSendsNothingMore() {
        let source = DrivenSource<TestError>()
        let (recorder, token) = trackingLifetime { token in
            source.signal.scan(into: 0) { running, value in _ = token; running += value }.record()
        }
        source.input.sendNext(1)
        source.input.sendNext(2)
        recorder.dispose()
        source.input.sendNext(3)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .next(3)])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertFalse(token.isAlive, "the update closure outlived the disposal")
    }

    func testScanInto_disposedInsideAValue_sendsNothingLater() {
        let values = Counter()
        let source = TestSource([1, 2, 3])
        source.signal.scan(into: 0) { $0 += $1 }.subscribeDisposingInFirstValue(counting: values)
        XCTAssertEqual(values.value, 1)
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testScanInto_concurrentSenders_everyValueCountedOnceInOneRunningTotal() {
        let threads = 8
        let perThread = BuildKind.rounds(2_000, sanitized: 200)
        let (signal, input) = Signal<Int, Never>.pipe()
        let totals = Recorder<[Int]>()
        let subscription = signal.scan(into: (count: 0, sum: 0)) { running, value in
            running.count += 1
            running.sum += value
        }.subscribeNext { totals.record([$0.count, $0.sum]) }
        race(threads: threads) { thread in
            for _ in 0..<perThread { input.sendNext(thread + 1) }
        }
        subscription.dispose()
        // Serialized by the pipe: one running value, each send seen once, in one order.
        XCTAssertEqual(totals.values.map { $0[0] }, Array(1...(threads * perThread)))
        XCTAssertEqual(totals.values.last?[1], perThread * threads * (threads + 1) / 2)
    }
}

final class CombinePreviousTupleTests: LeakCheckedTestCase {
    private func pairs(_ signal: Signal<(previous: Int, current: Int), TestError>) -> EventRecorder<[Int], TestError> {
        signal.map { [$0.previous, $0.current] }.record()
    }

    func testCombinePrevious_sendsEachValueWithTheOneBefore() {
        XCTAssertEqual(
            pairs(TestSource([1, 3, 6]).signal.combinePrevious(0)).events,
            [.next([0, 1]), .next([1, 3]), .next([3, 6]), .completed]
        )
        // The labels are ReactiveSwift's.
        let labelled = TestSource([5]).signal.combinePrevious(4).map { $0.current - $0.previous }.record().values
        XCTAssertEqual(labelled, [1])
    }

    func testCombinePrevious_emptySourceCompletesAndAnErrorPassesOn() {
        XCTAssertEqual(pairs(TestSource<Int>([]).signal.combinePrevious(0)).events, [.completed])
        XCTAssertEqual(pairs(TestSource<Int>([], end: .error(.first)).signal.combinePrevious(0)).events, [.error(.first)])
        XCTAssertEqual(pairs(TestSource([2], end: .error(.second)).signal.combinePrevious(0)).events, [.next([0, 2]), .error(.second)])
    }

    func testCombinePrevious_eachSubscriptionStartsFromTheInitialValue() {
        let source = DrivenSource<TestError>()
        let signal = source.signal.combinePrevious(0)
        let first = pairs(signal)
        source.input.sendNext(1)
        let second = pairs(signal)
        source.input.sendNext(2)
        source.input.sendCompleted()
        XCTAssertEqual(first.events, [.next([0, 1]), .next([1, 2]), .completed])
        XCTAssertEqual(second.events, [.next([0, 2]), .completed])
    }

    func testCombinePrevious_disposedMidStream_disposesTheSourceOnceAndSendsNothingMore() {
        let source = DrivenSource<TestError>()
        let (recorder, token) = trackingLifetime { token in
            source.signal.combinePrevious(0).map { _ = token; return [$0.previous, $0.current] }.record()
        }
        source.input.sendNext(1)
        source.input.sendNext(2)
        recorder.dispose()
        source.input.sendNext(3)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next([0, 1]), .next([1, 2])])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertFalse(token.isAlive, "the chain outlived the disposal")
    }

    func testCombinePrevious_concurrentSenders_eachPairLinksToTheOneBefore() {
        let threads = 8
        let perThread = BuildKind.rounds(2_000, sanitized: 200)
        let (signal, input) = Signal<Int, Never>.pipe()
        let seen = Recorder<[Int]>()
        let subscription = signal.combinePrevious(-1).subscribeNext { seen.record([$0.previous, $0.current]) }
        race(threads: threads) { thread in
            for index in 0..<perThread { input.sendNext(thread * perThread + index) }
        }
        subscription.dispose()
        let pairs = seen.values
        XCTAssertEqual(pairs.count, threads * perThread)
        XCTAssertEqual(pairs.first?[0], -1)
        // Serialized by the pipe: each pair's previous is the current of the pair before it.
        XCTAssertTrue(zip(pairs, pairs.dropFirst()).allSatisfy { $0[1] == $1[0] })
        XCTAssertEqual(Set(pairs.map { $0[1] }).count, threads * perThread)
    }

    func testCombinePrevious_reduceFormStillTypeChecksBesideTheTupleForm() {
        // `combinePrevious(0) { $1 - $0 }` is the reduce form, with a trailing closure; the tuple
        // form takes no closure.
        let differences = TestSource([1, 3, 6]).signal.combinePrevious(0) { $1 - $0 }.record().values
        XCTAssertEqual(differences, [1, 2, 3])
        XCTAssertEqual(TestSource([1, 3]).signal.combinePrevious(0, -).record().values, [-1, -2])
    }
}
