import Disposables
import Foundation
import Schedulers
import Signals
import Synchronization
import TestSupport
import XCTest

/// How a thread that is delivering an event deals with subscribers that another thread is
/// delivering to: it never waits for them, and still keeps order and delivers everything.
final class DeliveryTests: XCTestCase {
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
                release.wait()
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
        entered.wait()
        outerInput.sendNext(0)
        log.record("outer send returned")
        other.wait()
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

    func testDisposeFromAnotherThread_waitsForTheCallbackUnderWay() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Recorder<String>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let subscription = signal.subscribe(next: { _ in
            entered.signal()
            release.wait()
            log.record("callback returned")
        })
        let sent = DispatchSemaphore(value: 0)
        Thread {
            input.sendNext(1)
            sent.signal()
        }.start()
        entered.wait()
        let disposing = DispatchSemaphore(value: 0)
        let disposed = DispatchSemaphore(value: 0)
        Thread {
            disposing.signal()
            subscription.dispose()
            log.record("dispose() returned")
            disposed.signal()
        }.start()
        disposing.wait()
        release.signal()
        disposed.wait()
        sent.wait()
        XCTAssertEqual(log.values, ["callback returned", "dispose() returned"])
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

    func testDisposeWhileATerminalEventIsOnItsWay_returnsAfterIt() {
        // The terminal event disposes the subscription first (as in RAC 2.5), so a dispose()
        // from another thread finds it disposed already: it must still wait for the event.
        let log = Recorder<String>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let box = SubscriberBox<Int, Never>()
        let subscription = Signal<Int, Never> { subscriber in
            box.subscriber = subscriber
            return Disposable {
                entered.signal()
                release.wait()
            }
        }.subscribe(completed: { log.record("completed") })
        let completing = DispatchSemaphore(value: 0)
        Thread {
            box.subscriber?.sendCompleted()
            completing.signal()
        }.start()
        entered.wait()
        let disposed = DispatchSemaphore(value: 0)
        Thread {
            subscription.dispose()
            log.record("dispose() returned")
            disposed.signal()
        }.start()
        // dispose() must not return while the terminal event waits: give it the chance to.
        let returnedEarly = disposed.wait(timeout: .now() + 0.2) == .success
        release.signal()
        if !returnedEarly { disposed.wait() }
        completing.wait()
        XCTAssertEqual(log.values, ["completed", "dispose() returned"])
        box.subscriber = nil
    }

    func testDisposeOfAPipeSubscriptionWhileItsTerminalEventIsOnItsWay_returnsAfterIt() {
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
            let values = log.values
            if values.count == 2 { XCTAssertEqual(values, ["completed", "dispose() returned"]) }
        }
    }
}
