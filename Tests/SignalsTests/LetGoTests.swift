import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// What happens when a hot signal's input is let go of while subscriptions to it are live, and
/// while work for it is put off on another thread.
final class LetGoTests: LeakCheckedTestCase {
    /// Defect 1: releasing a subscriber from inside `DeliveryContext.runDeferred` appended to the
    /// list of retired objects while that list was being emptied: a double free in every
    /// optimized build (CI's release run catches it).
    func testPipeForwardingIntoAPipe_letGoOfAfterASend_freesOnce() {
        for _ in 0..<100 {
            var (signal, input): (Signal<Int, Never>?, Subscriber<Int, Never>?) = Signal<Int, Never>.pipe()
            let (forwarded, forwardedInput) = Signal<Int, Never>.pipe()
            let received = Recorder<Int>()
            forwarded.subscribe(next: { received.record($0) })
            signal!.subscribe(next: { forwardedInput.sendNext($0) })
            input!.sendNext(1)
            signal = nil
            input = nil
            XCTAssertEqual(received.values, [1])
        }
    }

    func testSubscribersReleasedWhileRetiredObjectsAreReleased_fromEveryThread() {
        let subscribe: @Sendable () -> Void = {
            Signal<Int, Never> { subscriber in
                subscriber.sendNext(1)
                return nil
            }.materialize().subscribe(next: { _ in })
            let (signal, input) = Signal<Int, Never>.pipe()
            signal.take(last: 1).collect().subscribe(next: { _ in })
            input.sendNext(1)
        }
        for _ in 0..<50 {
            subscribe()
            onAPlainThread(subscribe)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                subscribe()
                done.signal()
            }
            XCTAssertTrue(done.waitForSignal())
        }
    }

    /// Defect 2: a subscription through an operator whose output holds its own upstream
    /// subscription (a cycle through the output's disposable) was never freed once the pipe's
    /// input, the signal and the disposable were let go of without a terminal event.
    func testSubscriptionsToALetGoPipe_releaseWhatTheyCaptured() {
        let operators: [(String, @Sendable (Signal<Int, Never>) -> Signal<Int, Never>)] = [
            ("map", { $0.map { $0 + 1 } }),
            ("materialize", { $0.materialize().map { _ in 0 } }),
            ("take(last:)", { $0.take(last: 1) }),
            ("deliver(on:)", { $0.deliver(on: .immediate) }),
            ("catch", { $0.catch(to: .empty) }),
            ("merge", { Signal.merge([$0, .never]) }),
            ("merge of one", { Signal.merge([$0]) }),
            ("flattenMap", { $0.flattenMap { Signal.return($0) } }),
            ("switchToLatest", { $0.map { Signal<Int, Never>.return($0) }.switchToLatest() }),
            ("zip", { Signal.zip($0, Signal<Int, Never>.return(1)).map { $0.0 } }),
            ("combineLatest", { Signal.combineLatest($0, Signal<Int, Never>.return(1)).map { $0.0 } }),
            ("concat", { $0.concat(.return(1)) }),
            ("take(until:)", { $0.take(until: Signal<Void, Never>.never) }),
        ]
        for (name, transform) in operators {
            XCTAssertFalse(letGoOfAPipe(through: transform).isAlive, "\(name): the subscriber's closure outlived the pipe")
        }
    }

    /// Defect 3: a send put off because another thread was delivering on the pipe was lost when
    /// that thread let go of the pipe's input before the put-off send ran.
    func testSendPutOffForABusyPipe_isDeliveredWhenTheInputIsLetGoOfMeanwhile() {
        for _ in 0..<20 {
            let received = Recorder<Int>()
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let dropped = DispatchSemaphore(value: 0)
            let box = Lock<Subscriber<Int, Never>?>(nil)
            do {
                let (busy, busyInput) = Signal<Int, Never>.pipe()
                busy.subscribe(next: { value in
                    received.record(value)
                    if value == 0 {
                        entered.signal()
                        _ = release.waitForSignal()
                    }
                })
                box.withLock { $0 = busyInput }
            }
            let (trigger, triggerInput) = Signal<Int, Never>.pipe()
            trigger.subscribe(next: { _ in
                // Put off: another thread is delivering on `busy`, and this one is inside a delivery.
                box.withLock { $0 }?.sendNext(1)
                release.signal()
                _ = dropped.waitForSignal()
            })
            let owner = DispatchSemaphore(value: 0)
            Thread {
                box.withLock { $0 }!.sendNext(0)
                box.withLock { $0 = nil }
                dropped.signal()
                owner.signal()
            }.start()
            XCTAssertTrue(entered.waitForSignal())
            onAPlainThread { triggerInput.sendNext(0) }
            XCTAssertTrue(owner.waitForSignal())
            XCTAssertEqual(received.values, [0, 1])
        }
    }
}

/// Found by trying to break the fixes above as a hostile user would.
final class LetGoReviewTests: LeakCheckedTestCase {
    /// Signals whose subscription held the hot signal it was subscribed to, through the list of
    /// the signals a concat still had to subscribe to.
    func testConcatenationsOfALetGoPipe_releaseWhatTheyCaptured() {
        let operators: [(String, @Sendable (Signal<Int, Never>) -> Signal<Int, Never>)] = [
            ("concat", { $0.concat(.empty) }),
            ("startWith", { $0.startWith(0) }),
            ("then", { $0.then { Signal<Int, Never>.never } }),
            ("Signal.concat", { Signal.concat([$0, .empty]) }),
        ]
        for (name, transform) in operators {
            XCTAssertFalse(letGoOfAPipe(through: transform).isAlive, "\(name): the subscriber's closure outlived the pipe")
        }
    }

    /// A junction held by its subscription's disposable kept the chain below once its inputs
    /// were gone.
    func testJunctionsWhoseInputsAreGone_releaseWhatTheyCaptured_whileTheDisposableIsKept() {
        let operators: [(String, @Sendable (Signal<Int, Never>) -> Signal<Int, Never>)] = [
            ("zip", { Signal.zip($0, $0).map { $0.0 } }),
            ("combineLatest", { Signal.combineLatest($0, $0).map { $0.0 } }),
            ("sample", { $0.sample($0) }),
            ("take(until:)", { $0.take(until: Signal<Int, Never>.never) }),
        ]
        for (name, transform) in operators {
            let token = letGoOfAPipe(through: transform, keepingTheDisposable: true)
            XCTAssertFalse(token.isAlive, "\(name): the closure outlived the inputs")
        }
    }

    /// A subscriber turned away by an ended pipe had its sink emptied without the input's lock,
    /// racing a disposal from another thread: a double release in optimized builds.
    func testSubscribingToAnEndedPipeWhileAnotherThreadEndsTheSubscription_neverReleasesTwice() {
        let (ended, endedInput) = Signal<Int, Never>.pipe()
        endedInput.sendCompleted()
        for _ in 0..<300 {
            let (trigger, fire) = Signal<Int, Never>.pipe()
            let completions = Counter()
            race(threads: 2) { index in
                if index == 0 {
                    let scheduler = TestScheduler()
                    scheduler.schedule {
                        ended.take(until: trigger).subscribe(completed: { completions.increment() })
                    }
                    scheduler.run()
                } else {
                    fire.sendNext(1)
                }
            }
            XCTAssertEqual(completions.value, 1)
        }
    }
}
