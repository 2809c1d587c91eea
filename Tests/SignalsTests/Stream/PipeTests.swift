import Disposables
@testable import Signals
import TestSupport
import XCTest

final class PipeTests: LeakCheckedTestCase {
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

    func testPipe_subscriberAddedDuringADeliveryGetsTheNextValueOnly() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let late = Recorder<Int>()
        let subscribed = Counter()
        signal.subscribe(next: { _ in
            guard subscribed.value == 0 else { return }
            subscribed.increment()
            signal.subscribe(next: { late.record($0) })
        })
        input.sendNext(1)
        input.sendNext(2)
        XCTAssertEqual(late.values, [2])
    }

    func testPipe_subscriberDisposingItselfInItsCallbackIsReleasedOnceTheSendReturns() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let box = DisposableBox()
        let received = Recorder<Int>()
        let (_, token) = trackingLifetime { token in
            box.disposable = signal.subscribe(next: { value in
                _ = token
                received.record(value)
                box.disposable?.dispose()
            })
        }
        let other = signal.record()
        input.sendNext(1)
        XCTAssertFalse(token.isAlive)
        input.sendNext(2)
        XCTAssertEqual(received.values, [1])
        XCTAssertEqual(other.events, [.next(1), .next(2)])
    }

    func testPipe_subscriptionsDisposedWithoutAnySendAreReleased() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let (_, token) = trackingLifetime { token in
            for _ in 0..<10_000 {
                signal.subscribe(next: { _ in _ = token }).dispose()
            }
        }
        XCTAssertFalse(token.isAlive)
        let last = signal.record()
        input.sendNext(1)
        XCTAssertEqual(last.events, [.next(1)])
    }

    func testPipe_subscriptionsDisposedBetweenSendsAreReleased() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let kept = signal.record()
        let (_, token) = trackingLifetime { token in
            for value in 0..<1_000 {
                let disposable = signal.subscribe(next: { _ in _ = token })
                input.sendNext(value)
                disposable.dispose()
            }
        }
        XCTAssertFalse(token.isAlive)
        XCTAssertEqual(kept.events.count, 1_000)
    }

    func testPipe_racingSubscribeSendAndDisposeDeliverInOrderAndNothingAfterDisposal() {
        let (signal, input) = Signal<Int, Never>.pipe()
        race(times: 200, threads: 4) { index in
            if index == 0 {
                for value in 0..<50 { input.sendNext(value) }
                return
            }
            let received = Recorder<Int>()
            let disposed = Counter()
            let late = Counter()
            let disposable = signal.subscribe(next: { value in
                if disposed.value > 0 { late.increment() }
                received.record(value)
            })
            disposable.dispose()
            disposed.increment()
            // dispose() never waits: the one callback past its final check may still start.
            XCTAssertLessThanOrEqual(late.value, 1, "delivered after disposal")
            let values = received.values
            XCTAssertEqual(values, values.sorted())
        }
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

final class BagTests: LeakCheckedTestCase {
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
