import Disposables
@testable import Signals
import TestSupport
import XCTest

final class ZipTests: XCTestCase {
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
}

final class ZipStateTests: XCTestCase {
    func testState_rowsAndFinish() {
        var state = ZipState<Int>(inputs: 2)
        XCTAssertNil(state.receive(1, from: 0))
        XCTAssertNil(state.receive(2, from: 0))
        XCTAssertEqual(state.receive(10, from: 1), [1, 10])
        state.complete(0)
        XCTAssertFalse(state.isFinished)
        XCTAssertEqual(state.receive(20, from: 1), [2, 20])
        XCTAssertTrue(state.isFinished)
    }
}
