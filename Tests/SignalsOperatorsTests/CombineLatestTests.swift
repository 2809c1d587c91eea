import Disposables
import Signals
import TestSupport
import XCTest

final class CombineLatestTests: LeakCheckedTestCase {
    func testCombineLatestWith_nothingUntilBothHaveSentThenEveryChange() {
        let (letters, lettersInput) = Signal<String, TestError>.pipe()
        let (numbers, numbersInput) = Signal<Int, TestError>.pipe()
        let rows = Recorder<String>()
        letters.combineLatest(with: numbers).subscribe(next: { rows.record("\($0.0)\($0.1)") })
        lettersInput.sendNext("a")
        lettersInput.sendNext("b")
        numbersInput.sendNext(1)
        numbersInput.sendNext(2)
        lettersInput.sendNext("c")
        XCTAssertEqual(rows.values, ["b1", "b2", "c2"])
    }

    func testCombineLatest_completesWhenAllInputsHaveCompleted() {
        let (first, firstInput) = Signal<Int, TestError>.pipe()
        let (second, secondInput) = Signal<Int, TestError>.pipe()
        let recorder = Signal.combineLatest([first, second]).record()
        firstInput.sendNext(1)
        firstInput.sendCompleted()
        XCTAssertEqual(recorder.events, [])
        secondInput.sendNext(2)
        secondInput.sendNext(3)
        XCTAssertEqual(recorder.events, [.next([1, 2]), .next([1, 3])])
        secondInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next([1, 2]), .next([1, 3]), .completed])
    }

    func testCombineLatest_anInputCompletingWithoutAValue_completesWithoutValues() {
        let recorder = Signal.combineLatest([TestSource([1, 2]).signal, TestSource<Int>([]).signal]).record()
        XCTAssertEqual(recorder.events, [.completed])
    }

    func testCombineLatest_errorAtTheStartAndInTheMiddle() {
        let failing = Signal.combineLatest([TestSource<Int>([], end: .error(.first)).signal, TestSource([1]).signal])
        XCTAssertEqual(failing.record().events, [.error(.first)])
        let (later, laterInput) = Signal<Int, TestError>.pipe()
        let other = TestSource([10], end: nil)
        let recorder = Signal.combineLatest(later, other.signal).map { $0 + $1 }.record()
        laterInput.sendNext(1)
        laterInput.sendError(.second)
        laterInput.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(11), .error(.second)])
        XCTAssertEqual(other.disposals.value, 1)
    }

    func testCombineLatest_errorDisposesTheOtherInputsBeforeItIsSent() {
        let log = Recorder<String>()
        let other = DrivenSource<TestError> { log.record("other disposed") }
        let (failing, failingInput) = Signal<Int, TestError>.pipe()
        Signal.combineLatest([other.signal, failing]).subscribe(error: { _ in log.record("error") })
        failingInput.sendError(.first)
        XCTAssertEqual(log.values, ["other disposed", "error"])
    }

    func testCombineLatest_threeTypedSignals() {
        let recorder = Signal.combineLatest(TestSource([1]).signal, TestSource(["a"]).signal, TestSource([true, false]).signal)
            .map { "\($0)\($1)\($2)" }
            .record()
        XCTAssertEqual(recorder.events, [.next("1atrue"), .next("1afalse"), .completed])
    }

    func testCombineLatestArray_noSignalsCompletesAtOnceAndOneGivesOneElementRows() {
        XCTAssertEqual(Signal<[Int], TestError>.combineLatest([Signal<Int, TestError>]()).record().events, [.completed])
        XCTAssertEqual(Signal.combineLatest([TestSource([1, 2]).signal]).record().events, [.next([1]), .next([2]), .completed])
    }

    func testCombineLatest_tenThousandInputsShareOneState() {
        let pipes = (0..<10_000).map { _ in Signal<Int, Never>.pipe() }
        let rows = Recorder<[Int]>()
        let completed = Counter()
        onAPlainThread(stackSize: 256 * 1024) {
            Signal.combineLatest(pipes.map(\.signal)).subscribe(next: { rows.record($0) }, completed: { completed.increment() })
            for (index, pipe) in pipes.enumerated() { pipe.input.sendNext(index) }
            pipes[0].input.sendNext(-1)
            for pipe in pipes { pipe.input.sendCompleted() }
        }
        XCTAssertEqual(rows.values, [Array(0..<10_000), [-1] + Array(1..<10_000)])
        XCTAssertEqual(completed.value, 1)
    }

    func testCombineLatest_disposalMidStreamDisposesEveryInputAndStopsDelivery() {
        let first = DrivenSource<TestError>()
        let second = DrivenSource<TestError>()
        let recorder = Signal.combineLatest(first.signal, second.signal).map { $0 * 10 + $1 }.record()
        first.input.sendNext(1)
        second.input.sendNext(2)
        recorder.dispose()
        first.input.sendNext(3)
        second.input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(12)])
        XCTAssertEqual(first.disposals.value, 1)
        XCTAssertEqual(second.disposals.value, 1)
    }

    func testCombineLatest_sendingIntoAnInputFromInsideTheResultIsQueuedInOrder() {
        let (first, firstInput) = Signal<Int, Never>.pipe()
        let (second, secondInput) = Signal<Int, Never>.pipe()
        let rows = Recorder<String>()
        Signal.combineLatest(first, second).subscribe(next: { row in
            rows.record("\(row.0)\(row.1)")
            if row.0 == 1 { firstInput.sendNext(2); secondInput.sendNext(9) }
        })
        firstInput.sendNext(1)
        secondInput.sendNext(5)
        XCTAssertEqual(rows.values, ["15", "25", "29"])
        // The subscriber captured its own source: end it, or the two keep each other alive.
        firstInput.sendCompleted()
        secondInput.sendCompleted()
    }

    func testCombineLatest_releasesEverythingAfterCompletionAndDisposal() {
        for dispose in [false, true] {
            let (first, firstInput) = Signal<Int, Never>.pipe()
            weak var weakSignal: Signal<(Int, Int), Never>?
            let (disposable, token) = trackingLifetime { token -> Disposable in
                let signal = Signal.combineLatest(first, Signal<Int, Never>.return(1))
                weakSignal = signal
                return signal.subscribe(next: { _ in _ = token })
            }
            firstInput.sendNext(1)
            if dispose { disposable.dispose() } else { firstInput.sendCompleted() }
            XCTAssertTrue(disposable.isDisposed)
            XCTAssertNil(weakSignal)
            XCTAssertFalse(token.isAlive, "dispose: \(dispose)")
        }
    }

    func testCombineLatest_eightThreadsSendingAtOnce_everyRowOnceSerialized() {
        let inputs = (0..<8).map { _ in Signal<Int, Never>.pipe() }
        let rows = Recorder<[Int]>()
        let concurrent = Counter()
        let overlaps = Counter()
        Signal.combineLatest(inputs.map(\.signal)).subscribe(next: { row in
            concurrent.increment()
            if concurrent.value > 1 { overlaps.increment() }
            rows.record(row)
            concurrent.decrement()
        })
        for (index, pipe) in inputs.enumerated() { pipe.input.sendNext(index * 1_000) }
        let sends = 500
        race { thread in
            for value in 1...sends { inputs[thread].input.sendNext(thread * 1_000 + value) }
        }
        XCTAssertEqual(overlaps.value, 0)
        let values = rows.values
        XCTAssertEqual(values.count, 1 + 8 * sends)
        // Each input's values appear in its column in the order they were sent, each once.
        for column in 0..<8 {
            var changes = [column * 1_000]
            for row in values where row[column] != changes.last! { changes.append(row[column]) }
            XCTAssertEqual(changes, (0...sends).map { column * 1_000 + $0 })
        }
        XCTAssertEqual(values.last!, (0..<8).map { $0 * 1_000 + sends })
    }
}
