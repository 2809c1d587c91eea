import Disposables
import Foundation
import Signals
import Subjects
import TestSupport
import XCTest

final class PropertyTests: LeakCheckedTestCase {
    func testPropertyOfACell_readsItsValue_andSendsTheCurrentValueThenEveryChange() {
        let cell = ObservableValue(1)
        let property = Property(cell)
        let recorder = property.signal.record()
        let changes = property.changes.record()
        cell.value = 2
        cell.value = 3
        XCTAssertEqual(property.value, 3)
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3)])
        XCTAssertEqual(changes.events, [.next(2), .next(3)])
    }

    func testConstant_sendsItsValueAndCompletes_andHasNoChanges() {
        let property = Property(value: "fixed")
        XCTAssertEqual(property.value, "fixed")
        XCTAssertEqual(property.signal.record().events, [.next("fixed"), .completed])
        XCTAssertEqual(property.changes.record().events, [.completed])
    }

    func testConstant_sendsItsValueOnTheSubscribingThread_atOnce() {
        let property = Property(value: 7)
        let recorded = Recorder<Int>()
        onAPlainThread {
            property.signal.subscribe(next: { recorded.record($0) })
            recorded.record(-1)   // after the value: it came at once
        }
        XCTAssertTrue(eventually { recorded.values.count == 2 })
        XCTAssertEqual(recorded.values, [7, -1])
    }

    func testInitialThen_holdsTheInitialValue_thenEachValue_andKeepsTheLastAfterCompletion() {
        let source = DrivenSource<Never>()
        let property = Property(initial: 0, then: source.signal)
        let recorder = property.signal.record()
        XCTAssertEqual(property.value, 0)
        source.input.sendNext(1)
        source.input.sendNext(2)
        source.input.sendCompleted()
        XCTAssertEqual(property.value, 2)
        XCTAssertEqual(recorder.events, [.next(0), .next(1), .next(2)])
        XCTAssertEqual(property.signal.record().values, [2])
    }

    func testInitialThen_aValueSentAtOnceReplacesTheInitialValue() {
        let property = Property(initial: 0, then: Signal<Int, Never> { subscriber in
            subscriber.sendNext(5)
            return nil
        })
        XCTAssertEqual(property.value, 5)
        XCTAssertEqual(property.signal.record().values, [5])
    }

    func testInitialThen_letGoOf_disposesItsSubscription() {
        let source = DrivenSource<Never>()
        var property: Property<Int>? = Property(initial: 0, then: source.signal)
        let reference = WeakReference(property!)
        XCTAssertEqual(source.subscriptions.value, 1)
        property = nil
        XCTAssertFalse(reference.isAlive)
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testMap_computesFromTheSource_andSendsTheCurrentValueThenEveryChange() {
        let cell = ObservableValue(1)
        let calls = Counter()
        let mapped = Property(cell).map { value -> String in
            calls.increment()
            return "#\(value)"
        }
        XCTAssertEqual(calls.value, 0, "nothing is computed before it is read or subscribed")
        XCTAssertEqual(mapped.value, "#1")
        let recorder = mapped.signal.record()
        cell.value = 2
        XCTAssertEqual(mapped.value, "#2")
        XCTAssertEqual(recorder.events, [.next("#1"), .next("#2")])
        XCTAssertEqual(mapped.changes.record().events, [])
        XCTAssertEqual(calls.value, 5, "two reads, and the subscriber's current value and change, and the changes' skipped current value")
    }

    func testMapOfAConstant_isAConstant() {
        let mapped = Property(value: 2).map { $0 * 10 }
        XCTAssertEqual(mapped.value, 20)
        XCTAssertEqual(mapped.signal.record().events, [.next(20), .completed])
    }

    func testCombineLatest_sendsAPairWhenEitherChanges() {
        let name = ObservableValue("a")
        let count = ObservableValue(1)
        let both = Property(name).combineLatest(with: Property(count))
        let recorder = both.signal.map { "\($0)\($1)" }.record()
        name.value = "b"
        count.value = 2
        XCTAssertEqual(both.value.0, "b")
        XCTAssertEqual(both.value.1, 2)
        XCTAssertEqual(recorder.events, [.next("a1"), .next("b1"), .next("b2")])
        let statically = Property.combineLatest(Property(name), Property(count))
        XCTAssertEqual(statically.signal.map { "\($0)\($1)" }.record().values, ["b2"])
    }

    func testZip_holdsTheLatestZippedPair_eachChangeWaitingForItsPartner() {
        let left = ObservableValue(0)
        let right = ObservableValue("x")
        let zipped = Property(left).zip(with: Property(right))
        let recorder = zipped.signal.map { "\($0)\($1)" }.record()
        left.value = 1
        left.value = 2
        XCTAssertEqual(zipped.value.0, 0, "1 waits for a partner")
        right.value = "y"
        XCTAssertEqual(zipped.value.0, 1)
        XCTAssertEqual(zipped.value.1, "y")
        right.value = "z"
        XCTAssertEqual(recorder.events, [.next("0x"), .next("1y"), .next("2z")])
        let statically = Property.zip(Property(left), Property(right))
        XCTAssertEqual(statically.signal.map { "\($0)\($1)" }.record().values, ["2z"])
    }

    func testZipWithAConstant_keepsTheFirstPair() {
        let cell = ObservableValue(1)
        let zipped = Property(cell).zip(with: Property(value: "c"))
        cell.value = 2
        XCTAssertEqual(zipped.value.0, 1)
        XCTAssertEqual(zipped.signal.map { "\($0)\($1)" }.record().values, ["1c"])
    }

    func testADerivedProperty_keepsItsSourcesAlive_andLetsGoOfThemWhenItGoes() {
        var source: Property<Int>? = Property(ObservableValue(1))
        let sourceReference = WeakReference(source!)
        var mapped: Property<Int>? = source!.map { $0 + 1 }
        var zipped: Property<(Int, Int)>? = source!.zip(with: mapped!)
        source = nil
        XCTAssertTrue(sourceReference.isAlive)
        XCTAssertEqual(zipped!.value.1, 2)
        mapped = nil
        zipped = nil
        XCTAssertFalse(sourceReference.isAlive)
    }

    func testAComputedPropertysSignal_goesOnWithoutTheProperty_whileTheCellLives() {
        let cell = ObservableValue(1)
        var mapped: Property<Int>? = Property(cell).map { $0 * 10 }
        let reference = WeakReference(mapped!)
        let recorder = mapped!.signal.record()
        mapped = nil
        XCTAssertFalse(reference.isAlive, "the signal does not keep the property")
        cell.value = 2
        XCTAssertEqual(recorder.events, [.next(10), .next(20)])
    }

    func testAFollowingPropertysSignal_completesWhenThePropertyGoes_andItsSourceIsDisposed() {
        let source = DrivenSource<Never>()
        var following: Property<Int>? = Property(initial: 0, then: source.signal)
        let (recorder, captured) = trackingLifetime { watched in
            following!.signal.map { value in withExtendedLifetime(watched) { value } }.record()
        }
        source.input.sendNext(1)
        following = nil
        XCTAssertEqual(recorder.events, [.next(0), .next(1), .completed])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertFalse(captured.isAlive, "the subscriber's captures are released at the end")
    }

    func testConcurrentWrites_theLastValueAMappedSubscriberGetsIsTheFinalOne() {
        let rounds = BuildKind.raceRounds(optimized: 50, debug: 20, sanitized: 5)
        for _ in 0..<rounds {
            let cell = ObservableValue(0)
            let mapped = Property(cell).map { $0 * 2 }
            let zipped = Property(initial: -1, then: mapped.signal)
            let last = Recorder<Int>()
            zipped.signal.subscribe(next: { last.record($0) })
            let threads = 4
            let done = (0..<threads).map { thread in
                startThread("writer \(thread)") {
                    for value in 1...200 { cell.value = thread * 1_000 + value }
                }
            }
            XCTAssertTrue(eventually { done.allSatisfy(\.isSet) })
            let final = cell.value * 2
            XCTAssertTrue(eventually { last.values.last == final })
            XCTAssertEqual(mapped.value, final)
            XCTAssertEqual(zipped.value, final)
        }
    }

    func testTheCatalogsCartModel() {
        let cart = CartModel()
        let summaries = cart.summary.signal.record()
        cart.add("tea")
        cart.add("milk")
        XCTAssertEqual(cart.count.value, 2)
        XCTAssertEqual(summaries.values, ["0 items", "1 items", "2 items"])
    }

    func testAViewModelExposesAPropertyAndKeepsItsCell() {
        let model = Model()
        let recorder = model.status.signal.record()
        model.signIn()
        XCTAssertEqual(model.status.value, "Signing in…")
        XCTAssertEqual(model.canSubmit.value, false)
        XCTAssertEqual(recorder.values, ["Signed out", "Signing in…"])
    }
}

/// The doc comment's view model.
private final class Model: Sendable {
    let status: Property<String>
    let canSubmit: Property<Bool>
    private let statusCell = ObservableValue("Signed out")
    private let name = ObservableValue("")

    init() {
        status = Property(statusCell)
        canSubmit = Property(name).map { !$0.isEmpty }
    }

    func signIn() { statusCell.value = "Signing in…" }
}

/// The Subjects catalog's example.
private final class CartModel: Sendable {
    let count: Property<Int>
    let summary: Property<String>
    private let items = ObservableValue<[String]>([])

    init() {
        count = Property(items).map { $0.count }
        summary = count.map { "\($0) items" }
    }

    func add(_ item: String) { items.value.append(item) }
}
