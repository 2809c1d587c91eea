import Disposables
import Signals
import TestSupport
import XCTest

final class SwitchToLatestTests: LeakCheckedTestCase {
    func testSwitch_sendsOnlyTheLatestInnersValues() {
        let (outer, outerInput) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let recorder = outer.switchToLatest().record()
        outerInput.sendNext(a)
        aInput.sendNext(1)
        outerInput.sendNext(b)
        aInput.sendNext(2)
        bInput.sendNext(3)
        XCTAssertEqual(recorder.values, [1, 3])
    }

    func testSwitch_disposesThePreviousInner() {
        let (outer, outerInput) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let first = TestSource([1], end: nil)
        _ = outer.switchToLatest().record()
        outerInput.sendNext(first.signal)
        XCTAssertEqual(first.disposals.value, 0)
        outerInput.sendNext(.never)
        XCTAssertEqual(first.disposals.value, 1)
    }

    func testSwitch_outerCompletionWaitsForTheCurrentInner() {
        let (outer, outerInput) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let recorder = outer.switchToLatest().record()
        outerInput.sendNext(a)
        outerInput.sendCompleted()
        aInput.sendNext(1)
        XCTAssertEqual(recorder.events, [.next(1)])
        aInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }

    func testSwitch_innerCompletionBeforeOuterDoesNotComplete() {
        let (outer, outerInput) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let recorder = outer.switchToLatest().record()
        outerInput.sendNext(.return(1))
        XCTAssertEqual(recorder.events, [.next(1)])
        outerInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }

    func testSwitch_outerErrorEndsAtOnce() {
        let (outer, outerInput) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let running = TestSource([1], end: nil)
        let recorder = outer.switchToLatest().record()
        outerInput.sendNext(running.signal)
        outerInput.sendError(.first)
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
        XCTAssertEqual(running.disposals.value, 1)
    }

    func testSwitch_innerErrorEndsAtOnce() {
        let recorder = TestSource<Signal<Int, TestError>>([.return(1), .error(.second), .return(3)]).signal.switchToLatest().record()
        XCTAssertEqual(recorder.events, [.next(1), .error(.second)])
    }

    func testSwitch_emptyOuterCompletes() {
        XCTAssertEqual(Signal<Signal<Int, TestError>, TestError>.empty.switchToLatest().record().events, [.completed])
    }

    func testSwitch_disposalDisposesOuterAndCurrentInner() {
        let outer = TestSource<Signal<Int, TestError>>([], end: nil)
        let inner = TestSource([1], end: nil)
        let (pipe, input) = Signal<Signal<Int, TestError>, TestError>.pipe()
        let recorder = pipe.merge(outer.signal).switchToLatest().record()
        input.sendNext(inner.signal)
        recorder.dispose()
        XCTAssertEqual(outer.disposals.value, 1)
        XCTAssertEqual(inner.disposals.value, 1)
    }
}
