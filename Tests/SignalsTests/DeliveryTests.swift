import Disposables
import Foundation
import Schedulers
import Signals
import Synchronization
import TestSupport
import XCTest

/// How a thread that is delivering an event deals with subscribers that another thread is
/// delivering to: it never waits for them, and still keeps order and delivers everything.
final class DeliveryTests: LeakCheckedTestCase {
    func testNestedSendsToABusySubscriber_areDeliveredInOrderBeforeTheOutermostSendReturns() {
        let (busy, busyInput) = Signal<Int, Never>.pipe()
        let (outer, outerInput) = Signal<Int, Never>.pipe()
        let log = Recorder<String>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        busy.subscribe(next: { value in
            log.record("busy got \(value)")
            if value == 0 {
                entered.signal()
                _ = release.waitForSignal()
            }
        })
        outer.subscribe(next: { _ in
            // `busy` is delivering on another thread: these do not wait, they are put off.
            for value in 1...3 { busyInput.sendNext(value) }
            log.record("outer callback returned")
            release.signal()
        })
        let other = DispatchSemaphore(value: 0)
        Thread {
            busyInput.sendNext(0)
            other.signal()
        }.start()
        XCTAssertTrue(entered.waitForSignal())
        outerInput.sendNext(0)
        log.record("outer send returned")
        XCTAssertTrue(other.waitForSignal())
        XCTAssertEqual(log.values, [
            "busy got 0", "outer callback returned", "busy got 1", "busy got 2", "busy got 3", "outer send returned",
        ])
    }

    func testSubscriptionsDisposingEachOtherFromTwoThreads_neverDeadlock() {
        for _ in 0..<1_000 {
            let (first, firstInput) = Signal<Int, Never>.pipe()
            let (second, secondInput) = Signal<Int, Never>.pipe()
            let firstBox = DisposableBox()
            let secondBox = DisposableBox()
            let received = Counter()
            firstBox.disposable = first.subscribe(next: { _ in
                received.increment()
                secondBox.disposable?.dispose()
            })
            secondBox.disposable = second.subscribe(next: { _ in
                received.increment()
                firstBox.disposable?.dispose()
            })
            race(threads: 2) { index in
                (index == 0 ? firstInput : secondInput).sendNext(0)
            }
            XCTAssertTrue(firstBox.disposable!.isDisposed || secondBox.disposable!.isDisposed)
            XCTAssertGreaterThanOrEqual(received.value, 1)
            firstInput.sendNext(1)
            secondInput.sendNext(1)
            XCTAssertLessThanOrEqual(received.value, 2, "a disposed subscription received a value")
        }
    }

    func testDisposeFromAnotherThread_returnsWithoutWaitingForTheCallbackUnderWay() {
        // dispose() never waits: it returns while the callback is still running on another
        // thread, nothing starts afterwards, and the closures go once that callback returns.
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Recorder<String>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let (subscription, token) = trackingLifetime { token in
            signal.subscribe(next: { value in
                _ = token
                log.record("callback \(value)")
                if value == 1 {
                    entered.signal()
                    _ = release.waitForSignal()
                }
            })
        }
        let sent = DispatchSemaphore(value: 0)
        Thread {
            input.sendNext(1)
            input.sendNext(2)
            sent.signal()
        }.start()
        XCTAssertTrue(entered.waitForSignal())
        subscription.dispose()
        log.record("dispose() returned")
        release.signal()
        XCTAssertEqual(sent.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(log.values, ["callback 1", "dispose() returned"])
        XCTAssertTrue(eventually { !token.isAlive }, "the closures outlived the callback under way")
    }

    func testSendCompletedFromInsideAnotherDelivery_nothingFollowsOnceTheOutermostSendReturns() {
        // The finishing guarantee, seen from the outermost send: a completion sent from inside a
        // callback to a subscriber busy elsewhere is delivered before that send returns.
        for _ in 0..<200 {
            let (target, targetInput) = Signal<Int, Never>.pipe()
            let (trigger, triggerInput) = Signal<Int, Never>.pipe()
            let afterCompletion = Counter()
            let completed = Atomic<Bool>(false)
            target.subscribe(next: { _ in
                if completed.load(ordering: .acquiring) { afterCompletion.increment() }
            }, completed: { completed.store(true, ordering: .releasing) })
            trigger.subscribe(next: { _ in targetInput.sendCompleted() })
            race(threads: 2) { index in
                if index == 0 {
                    for value in 0..<100 { targetInput.sendNext(value) }
                } else {
                    triggerInput.sendNext(0)
                    XCTAssertTrue(completed.load(ordering: .acquiring))
                }
            }
            XCTAssertEqual(afterCompletion.value, 0)
        }
    }

    func testDisposeWhileATerminalEventRunsItsDisposalActions_returnsAndSuppressesTheCallback() {
        // The terminal event disposes the subscription's resources first (as in RAC 2.5); a
        // dispose() from another thread meanwhile returns at once, and the completed callback,
        // not yet past its final check, is not called.
        let log = Recorder<String>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let box = SubscriberBox<Int, Never>()
        let subscription = Signal<Int, Never> { subscriber in
            box.subscriber = subscriber
            return Disposable {
                entered.signal()
                _ = release.waitForSignal()
            }
        }.subscribe(completed: { log.record("completed") })
        let completing = DispatchSemaphore(value: 0)
        Thread {
            box.subscriber?.sendCompleted()
            completing.signal()
        }.start()
        XCTAssertTrue(entered.waitForSignal())
        subscription.dispose()
        log.record("dispose() returned")
        release.signal()
        XCTAssertEqual(completing.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(log.values, ["dispose() returned"])
        box.subscriber = nil
    }

    func testDisposeOfAPipeSubscriptionRacingItsTerminalEvent_neverWaitsAndEndsOnce() {
        for _ in 0..<200 {
            let (signal, input) = Signal<Int, Never>.pipe()
            let log = Recorder<String>()
            let subscription = signal.take(1).subscribe(completed: { log.record("completed") })
            race(threads: 2) { index in
                if index == 0 {
                    input.sendNext(1)
                } else {
                    subscription.dispose()
                    log.record("dispose() returned")
                }
            }
            XCTAssertLessThanOrEqual(log.values.filter { $0 == "completed" }.count, 1)
            XCTAssertTrue(subscription.isDisposed)
        }
    }
}
