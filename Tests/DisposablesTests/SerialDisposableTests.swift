import Disposables
import TestSupport
import XCTest

final class SerialDisposableTests: LeakCheckedTestCase {
    func testSwap_returnsOldWithoutDisposingIt() {
        let first = Disposable()
        let second = Disposable()
        let serial = SerialDisposable(first)
        XCTAssertTrue(serial.swap(second) === first)
        XCTAssertFalse(first.isDisposed)
        XCTAssertTrue(serial.disposable === second)
        XCTAssertTrue(serial.swap(nil) === second)
        XCTAssertNil(serial.disposable)
    }

    func testDisposableSetter_replacesWithoutDisposing() {
        let first = Disposable()
        let serial = SerialDisposable()
        serial.disposable = first
        serial.disposable = Disposable()
        XCTAssertFalse(first.isDisposed)
    }

    func testDispose_disposesTheHeldDisposable() {
        let held = Disposable()
        let serial = SerialDisposable(held)
        serial.dispose()
        XCTAssertTrue(serial.isDisposed)
        XCTAssertTrue(held.isDisposed)
        XCTAssertNil(serial.disposable)
    }

    func testSwap_afterDisposalDisposesTheNewOneAndReturnsNil() {
        let serial = SerialDisposable()
        serial.dispose()
        let late = Disposable()
        XCTAssertNil(serial.swap(late))
        XCTAssertTrue(late.isDisposed)
        let setLate = Disposable()
        serial.disposable = setLate
        XCTAssertTrue(setLate.isDisposed)
    }

    func testInitAction_theBlockBecomesTheInnerDisposable() {
        let runs = Counter()
        let serial = SerialDisposable { runs.increment() }
        XCTAssertNotNil(serial.disposable)
        serial.dispose()
        XCTAssertEqual(runs.value, 1)
    }

    func testSwap_racingWithDisposeDisposesEveryIncomingOneOrHandsItBack() {
        for _ in 0..<20 {
            let serial = SerialDisposable()
            let incoming = (0..<8).map { _ in Disposable() }
            let returned = Recorder<ObjectIdentifier>()
            race(threads: 9) { index in
                if index == 8 {
                    serial.dispose()
                } else if let old = serial.swap(incoming[index]) {
                    returned.record(ObjectIdentifier(old))
                }
            }
            // Each incoming disposable was disposed by the serial disposable, or handed back by a
            // later swap; none is lost.
            let handedBack = Set(returned.values)
            for disposable in incoming {
                XCTAssertTrue(disposable.isDisposed || handedBack.contains(ObjectIdentifier(disposable)))
            }
        }
    }

    func testDispose_releasesTheHeldDisposable() {
        weak var weakHeld: Disposable?
        let serial = SerialDisposable()
        do {
            let held = Disposable()
            weakHeld = held
            serial.disposable = held
        }
        serial.dispose()
        XCTAssertNil(weakHeld)
    }
}
