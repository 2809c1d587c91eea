import Disposables
import Signals
import Subjects
import TestSupport
import XCTest

final class ObservableValueTests: LeakCheckedTestCase {
    func testValue_readsWhatWasWritten() {
        let cell = ObservableValue(1)
        XCTAssertEqual(cell.value, 1)
        cell.value = 2
        XCTAssertEqual(cell.value, 2)
    }

    func testSignal_sendsTheCurrentValueThenEveryChange() {
        let cell = ObservableValue(1)
        let recorder = cell.signal.record()
        cell.value = 2
        cell.value = 3
        XCTAssertEqual(recorder.values, [1, 2, 3])
        XCTAssertEqual(cell.signal.record().values, [3])
    }

    func testSignal_disposalStopsDelivery() {
        let cell = ObservableValue(1)
        let recorder = cell.signal.record()
        recorder.dispose()
        cell.value = 2
        XCTAssertEqual(recorder.values, [1])
    }

    func testChannel_sendsTheCurrentValueThenChanges_andSetsTheCellFromWhatItReceives() {
        let cell = ObservableValue("a")
        let seen = Recorder<String>()
        cell.channel.subscribe(next: { seen.record($0) })
        cell.value = "b"
        cell.channel.sendNext("c")
        XCTAssertEqual(cell.value, "c")
        XCTAssertEqual(seen.values, ["a", "b"], "a value that came in through the channel is not sent back out")
        XCTAssertEqual(cell.signal.record().values, ["c"])
    }

    func testTwoCellsBoundThroughTheirTerminalsConverge_withNoLoop() {
        let name = ObservableValue("model")
        let field = ObservableValue("view")
        let fieldChanges = Counter()
        field.signal.subscribe(next: { _ in fieldChanges.increment() })
        name.channel.subscribe(field.channel)
        field.channel.subscribe(name.channel)
        XCTAssertEqual(field.value, "model")
        XCTAssertEqual(name.value, "model")
        field.value = "typed"
        XCTAssertEqual(name.value, "typed")
        name.value = "loaded"
        XCTAssertEqual(field.value, "loaded")
        XCTAssertEqual(fieldChanges.value, 4, "view, model, typed, loaded: each once")
    }

    func testConcurrentWrites_theLastValueDeliveredIsTheFinalValue() {
        for _ in 0..<100 {
            let cell = ObservableValue(0)
            let last = Lock<Int>(0)
            cell.signal.subscribe(next: { value in last.withLock { $0 = value } })
            race(threads: 4) { index in
                for step in 1...50 { cell.value = index * 1_000 + step }
            }
            XCTAssertEqual(last.withLock { $0 }, cell.value)
        }
    }

    func testCellIsReleased_andItsBindingsEnd() {
        let other = ObservableValue(0)
        weak var weakCell: ObservableValue<Int>?
        let ended = Counter()
        do {
            let cell = ObservableValue(1)
            weakCell = cell
            cell.channel.subscribe(completed: { ended.increment() })
            cell.channel.subscribe(other.channel)
            cell.value = 2
        }
        XCTAssertNil(weakCell)
        XCTAssertEqual(ended.value, 1)
        XCTAssertEqual(other.value, 2)
    }
}
