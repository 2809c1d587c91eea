import Disposables
import Foundation
import Signals
import Subjects
import TestSupport
import XCTest

/// An object safe to write from any thread, whose `text` setter records every write.
private final class Field: Sendable {
    private let writes = Lock<[String]>([])

    var text: String {
        get { writes.withLock { $0.last ?? "" } }
        set { writes.withLock { $0.append(newValue) } }
    }

    var written: [String] { writes.withLock { $0 } }
}

/// A hot source that cannot fail and counts its disposals.
private final class Source: Sendable {
    let disposals = Counter()
    let signal: Signal<String, Never>
    let input: Subscriber<String, Never>

    init() {
        let (pipe, input) = Signal<String, Never>.pipe()
        let disposals = disposals
        self.input = input
        signal = Signal { subscriber in
            let inner = pipe.subscribe(next: { subscriber.sendNext($0) }, completed: { subscriber.sendCompleted() })
            return Disposable {
                disposals.increment()
                inner.dispose()
            }
        }
    }
}

final class ObservableValueBindingTests: LeakCheckedTestCase {
    // MARK: bind(from:)

    func testBindFrom_takesEveryValueInOrder() {
        let source = Source()
        let cell = ObservableValue("")
        let recorder = cell.signal.record()
        let binding = cell.bind(from: source.signal)
        source.input.sendNext("a")
        source.input.sendNext("b")
        XCTAssertEqual(cell.value, "b")
        XCTAssertEqual(recorder.values, ["", "a", "b"])
        binding.dispose()
        source.input.sendNext("c")
        XCTAssertEqual(cell.value, "b")
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testBindFrom_endsAtOnceWhenTheCellGoes() {
        let source = Source()
        var cell: ObservableValue<String>? = ObservableValue("")
        let weakCell = WeakReference(cell!)
        let binding = cell!.bind(from: source.signal)
        source.input.sendNext("a")
        cell = nil
        XCTAssertFalse(weakCell.isAlive, "held weakly")
        XCTAssertTrue(binding.isDisposed)
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testBindFrom_endsWhenTheSignalCompletes() {
        let source = Source()
        let cell = ObservableValue("")
        let binding = cell.bind(from: source.signal)
        source.input.sendNext("a")
        source.input.sendCompleted()
        XCTAssertTrue(binding.isDisposed)
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(cell.value, "a")
    }

    func testBindFrom_fromSeveralThreads() {
        let source = Source()
        let cell = ObservableValue("")
        let recorder = cell.signal.record()
        let binding = cell.bind(from: source.signal)
        race(threads: 8) { thread in
            for index in 0..<50 { source.input.sendNext("\(thread).\(index)") }
        }
        XCTAssertEqual(recorder.values.last, cell.value)
        XCTAssertTrue(cell.value.hasSuffix(".49"))
        binding.dispose()
    }

    // MARK: bind(to:on:)

    func testBindToKeyPath_writesTheCurrentValueThenEveryChange() {
        let cell = ObservableValue("a")
        let field = Field()
        let binding = cell.bind(to: \.text, on: field)
        cell.value = "b"
        onAPlainThread { cell.value = "c" }
        XCTAssertEqual(field.written, ["a", "b", "c"])
        binding.dispose()
        cell.value = "d"
        XCTAssertEqual(field.written, ["a", "b", "c"])
    }

    func testBindToKeyPath_endsAtTheNextChangeOnceTheObjectHasGone() {
        let cell = ObservableValue("a")
        var field: Field? = Field()
        let weakField = WeakReference(field!)
        let binding = cell.bind(to: \.text, on: field!)
        field = nil
        XCTAssertFalse(weakField.isAlive, "held weakly")
        cell.value = "b"
        XCTAssertTrue(binding.isDisposed)
    }

    func testBindToKeyPath_doesNotKeepTheCell() {
        let field = Field()
        var cell: ObservableValue<String>? = ObservableValue("a")
        let weakCell = WeakReference(cell!)
        let binding = cell!.bind(to: \.text, on: field)
        cell = nil
        XCTAssertFalse(weakCell.isAlive)
        XCTAssertEqual(field.written, ["a"])
        XCTAssertTrue(binding.isDisposed, "the binding ends as the cell goes")
    }

    // MARK: bind(to:)

    func testBindToCell_followsThisCell() {
        let source = ObservableValue(1)
        let mirror = ObservableValue(0)
        let binding = source.bind(to: mirror)
        XCTAssertEqual(mirror.value, 1)
        source.value = 2
        XCTAssertEqual(mirror.value, 2)
        // One way only.
        mirror.value = 5
        XCTAssertEqual(source.value, 2)
        binding.dispose()
        source.value = 3
        XCTAssertEqual(mirror.value, 5)
    }

    func testBindToCell_endsAtOnceWhenTheOtherCellGoes() {
        let source = ObservableValue(1)
        var mirror: ObservableValue<Int>? = ObservableValue(0)
        let weakMirror = WeakReference(mirror!)
        let binding = source.bind(to: mirror!)
        mirror = nil
        XCTAssertFalse(weakMirror.isAlive)
        XCTAssertTrue(binding.isDisposed)
    }

    func testBindToCell_endsAtOnceWhenThisCellGoes() {
        var source: ObservableValue<Int>? = ObservableValue(1)
        let weakSource = WeakReference(source!)
        let mirror = ObservableValue(0)
        let binding = source!.bind(to: mirror)
        source = nil
        XCTAssertFalse(weakSource.isAlive, "the binding does not keep the cell it follows")
        XCTAssertTrue(binding.isDisposed)
        XCTAssertEqual(mirror.value, 1)
    }

    func testBindToCell_fromSeveralThreadsEndsOnTheLastValue() {
        let source = ObservableValue(0)
        let mirror = ObservableValue(-1)
        let binding = source.bind(to: mirror)
        race(threads: 8) { thread in
            for index in 0..<100 { source.value = thread * 1_000 + index }
        }
        XCTAssertEqual(mirror.value, source.value)
        binding.dispose()
    }
}
