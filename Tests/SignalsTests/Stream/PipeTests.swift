import Disposables
@testable import Signals
import TestSupport
import XCTest

final class PipeTests: XCTestCase {
    func testPipe_everySubscriberGetsLaterEvents() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        input.sendNext(0)
        let first = signal.record()
        input.sendNext(1)
        let second = signal.record()
        input.sendNext(2)
        input.sendCompleted()
        XCTAssertEqual(first.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(second.events, [.next(2), .completed])
    }

    func testPipe_disposingOneSubscriptionDetachesOnlyIt() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let first = signal.record()
        let second = signal.record()
        input.sendNext(1)
        first.dispose()
        input.sendNext(2)
        XCTAssertEqual(first.events, [.next(1)])
        XCTAssertEqual(second.events, [.next(1), .next(2)])
    }

    func testPipe_afterATerminalEventSendsAreIgnoredAndLateSubscribersGetIt() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        input.sendError(.first)
        input.sendNext(1)
        input.sendCompleted()
        XCTAssertEqual(signal.record().events, [.error(.first)])
    }

    func testPipe_concurrentSendersDeliverEveryValueOnce() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let received = Counter()
        signal.subscribe(next: { _ in received.increment() })
        race(threads: 4) { _ in
            for value in 0..<1_000 { input.sendNext(value) }
        }
        XCTAssertEqual(received.value, 4_000)
    }

    func testPipe_releasesSubscribersAfterTheTerminalEvent() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let (_, token) = trackingLifetime { token in
            signal.subscribe(next: { _ in _ = token })
        }
        XCTAssertTrue(token.isAlive)
        input.sendCompleted()
        XCTAssertFalse(token.isAlive)
    }

    func testPipe_signalIsReleasedWithItsInput() {
        weak var weakSignal: Signal<Int, Never>?
        do {
            let (signal, input) = Signal<Int, Never>.pipe()
            weakSignal = signal
            signal.subscribe()
            input.sendNext(1)
        }
        XCTAssertNil(weakSignal)
    }
}

final class BagTests: XCTestCase {
    func testBag_keepsInsertionOrderAndRemovesByToken() {
        var bag = Bag<Int>()
        let tokens = (0..<10).map { bag.insert($0) }
        XCTAssertEqual(bag.remove(tokens[3]), 3)
        XCTAssertNil(bag.remove(tokens[3]))
        for index in [0, 9, 5, 6, 7] { bag.remove(tokens[index]) }
        XCTAssertEqual(Array(bag.elements), [1, 2, 4, 8])
        let late = bag.insert(10)
        XCTAssertEqual(Array(bag.elements), [1, 2, 4, 8, 10])
        XCTAssertEqual(bag.remove(late), 10)
        for index in [1, 2, 4, 8] { bag.remove(tokens[index]) }
        XCTAssertTrue(bag.isEmpty)
    }
}
