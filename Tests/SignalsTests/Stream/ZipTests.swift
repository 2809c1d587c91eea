import Disposables
@testable import Signals
import TestSupport
import XCTest

final class ZipTests: LeakCheckedTestCase {
    func testZipWith_pairsValuesInOrder() {
        let (letters, lettersInput) = Signal<String, TestError>.pipe()
        let (numbers, numbersInput) = Signal<Int, TestError>.pipe()
        let pairs = Recorder<String>()
        letters.zip(with: numbers).subscribe(next: { pairs.record("\($0.0)\($0.1)") })
        lettersInput.sendNext("a")
        lettersInput.sendNext("b")
        numbersInput.sendNext(1)
        numbersInput.sendNext(2)
        numbersInput.sendNext(3)
        lettersInput.sendNext("c")
        XCTAssertEqual(pairs.values, ["a1", "b2", "c3"])
    }

    func testZip_completesWhenAnInputCompletedAndItsBufferIsEmpty() {
        let (letters, lettersInput) = Signal<String, TestError>.pipe()
        let (numbers, numbersInput) = Signal<Int, TestError>.pipe()
        let completed = Counter()
        let pairs = Recorder<String>()
        Signal.zip(letters, numbers).subscribe(next: { pairs.record("\($0.0)\($0.1)") }, completed: { completed.increment() })
        lettersInput.sendNext("a")
        lettersInput.sendNext("b")
        lettersInput.sendCompleted()
        XCTAssertEqual(completed.value, 0)
        numbersInput.sendNext(1)
        XCTAssertEqual(completed.value, 0)
        numbersInput.sendNext(2)
        XCTAssertEqual(pairs.values, ["a1", "b2"])
        XCTAssertEqual(completed.value, 1)
    }

    func testZip_completedInputWithEmptyBufferCompletesAtOnce() {
        let (letters, lettersInput) = Signal<String, TestError>.pipe()
        let (numbers, numbersInput) = Signal<Int, TestError>.pipe()
        let events = Signal.zip(letters, numbers).map { "\($0.0)\($0.1)" }.record()
        numbersInput.sendNext(1)
        lettersInput.sendCompleted()
        numbersInput.sendNext(2)
        XCTAssertEqual(events.events, [.completed])
    }

    func testZip_errorFromAnyInputIsSentAtOnce() {
        let (letters, lettersInput) = Signal<String, TestError>.pipe()
        let (numbers, _) = Signal<Int, TestError>.pipe()
        let events = letters.zip(with: numbers).map { "\($0.0)\($0.1)" }.record()
        lettersInput.sendNext("a")
        lettersInput.sendError(.first)
        XCTAssertEqual(events.events, [.error(.first)])
    }

    func testZip_threeTypedSignals() {
        let zipped = Signal.zip(TestSource([1, 2]).signal, TestSource(["a", "b"]).signal, TestSource([true, false]).signal)
        let rows = zipped.map { "\($0.0)\($0.1)\($0.2)" }.record()
        XCTAssertEqual(rows.events, [.next("1atrue"), .next("2bfalse"), .completed])
    }

    func testZip_mixesPlainWordsAndOtherValuesAtTheirOffsets() {
        // Int and Double move as machine words; Bool, String and Int? through their type.
        let rows = Signal.zip(
            TestSource([1, 2]).signal, TestSource([true, false]).signal, TestSource(["a", "b"]).signal,
            TestSource([1.5, 2.5]).signal, TestSource([Int?.none, 7]).signal
        ).map { "\($0.0) \($0.1) \($0.2) \($0.3) \(String(describing: $0.4))" }.record()
        XCTAssertEqual(rows.values, ["1 true a 1.5 nil", "2 false b 2.5 Optional(7)"])
        let latest = Signal.combineLatest(TestSource([3]).signal, TestSource(["x"]).signal, TestSource([0.25]).signal)
            .map { "\($0.0) \($0.1) \($0.2)" }.record()
        XCTAssertEqual(latest.values, ["3 x 0.25"])
    }

    func testZipArray_rowsInTheOrderOfTheSignals() {
        let zipped = Signal.zip([TestSource([1, 2, 3]).signal, TestSource([10, 20]).signal])
        XCTAssertEqual(zipped.record().events, [.next([1, 10]), .next([2, 20]), .completed])
    }

    func testZipArray_noSignalsCompletesAtOnce() {
        XCTAssertEqual(Signal<[Int], TestError>.zip([Signal<Int, TestError>]()).record().events, [.completed])
    }

    func testZipArray_oneSignalGivesOneElementRows() {
        XCTAssertEqual(Signal.zip([TestSource([1, 2]).signal]).record().events, [.next([1]), .next([2]), .completed])
    }

    func testZip_disposalDisposesEveryInput() {
        let first = TestSource([1], end: nil)
        let second = TestSource([2, 3], end: nil)
        let recorder = Signal.zip([first.signal, second.signal]).record()
        recorder.dispose()
        XCTAssertEqual(recorder.events, [.next([1, 2])])
        XCTAssertEqual(first.disposals.value, 1)
        XCTAssertEqual(second.disposals.value, 1)
    }

    func testZip_inputsSentFromTwoThreadsAtOnce_everyRowOnceInOrder() {
        // The lanes keep their values in raw memory, touched only by the junction's owner: two
        // threads sending at once, one per input, must still pair every value exactly once.
        for _ in 0..<20 {
            let (numbers, numbersInput) = Signal<Int, Never>.pipe()
            let (words, wordsInput) = Signal<String, Never>.pipe()
            let rows = Recorder<String>()
            let (_, token) = trackingLifetime { token in
                Signal.zip(numbers, words).subscribe(next: { number, word in
                    _ = token
                    rows.record("\(number)\(word)")
                })
            }
            race(threads: 2) { thread in
                for value in 0..<500 {
                    if thread == 0 { numbersInput.sendNext(value) } else { wordsInput.sendNext("w\(value)") }
                }
            }
            XCTAssertEqual(rows.values, (0..<500).map { "\($0)w\($0)" })
            numbersInput.sendCompleted()
            XCTAssertFalse(token.isAlive)
        }
    }
}

final class RowTests: LeakCheckedTestCase {
    func testTupleOffsets_matchTheTupleLayout() {
        XCTAssertEqual(TupleRowMaker<(Int8, Int, Bool, String)>.offsets(of: Int8.self, Int.self, Bool.self, String.self), [0, 8, 16, 24])
        XCTAssertEqual(TupleRowMaker<Int>.offsets(of: Int.self), [0])
    }

    func testQueueLane_keepsOrderAcrossGrowthAndWraps() {
        let lane = QueueLane<String>(offset: 0)
        var expected: [String] = []
        var taken: [String] = []
        for round in 0..<50 {
            for index in 0..<(round % 7 + 1) {
                lane.append("\(round).\(index)")
                expected.append("\(round).\(index)")
            }
            for _ in 0..<(round % 3 + 1) where lane.count > 0 {
                taken.append(takeFirst(lane))
            }
        }
        while lane.count > 0 { taken.append(takeFirst(lane)) }
        XCTAssertEqual(taken, expected)
    }

    func testLanes_releaseTheirValues() {
        weak var weakToken: LifetimeToken?
        do {
            let queue = QueueLane<LifetimeToken>(offset: 0)
            let latest = LatestLane<LifetimeToken>(offset: 0)
            let token = LifetimeToken()
            weakToken = token
            queue.append(token)
            latest.store(token)
            latest.store(LifetimeToken())
            queue.removeAll()
            XCTAssertEqual(queue.count, 0)
        }
        XCTAssertNil(weakToken)
    }

    private func takeFirst(_ lane: QueueLane<String>) -> String {
        let lanes = Lanes([lane])
        defer { lanes.deallocate() }
        var row = ""
        TupleRowMaker<String>().withRow(from: lanes) { row = $0 }
        return row
    }
}
