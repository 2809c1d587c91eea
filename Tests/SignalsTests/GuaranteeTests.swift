import Disposables
import Foundation
import Schedulers
import Signals
import Synchronization
import TestSupport
import XCTest

/// The promises of delivery and disposal, each tried the way a hostile user would: one test per
/// failure found in the core, each reproducing it first.
final class GuaranteeTests: LeakCheckedTestCase {
    // MARK: 1. A deferred signal subscribed off a scheduler keeps its inner subscription.

    func testDefer_offAScheduler_disposalReachesTheInnerSubscription() {
        let (pipe, input) = Signal<Int, Never>.pipe()
        let lateValues = Counter()
        onAPlainThread {
            for _ in 0..<20_000 {
                let made = DispatchSemaphore(value: 0)
                let disposed = Atomic<Bool>(false)
                let subscription = Signal<Int, Never>.defer {
                    made.signal()
                    return pipe
                }.subscribe(next: { _ in if disposed.load(ordering: .acquiring) { lateValues.increment() } })
                guard made.waitForSignal() else { return XCTFail("the deferred block never ran") }
                subscription.dispose()
                disposed.store(true, ordering: .releasing)
            }
        }
        input.sendNext(1)
        XCTAssertEqual(lateValues.value, 0, "an inner subscription outlived dispose()")
    }

    // MARK: 2. Nothing reaches a subscriber after it disposed from inside a callback.

    func testTake_disposingInsideTheLastValueStopsWhatFollowsInTheSameEvent() {
        let operators: [(String, (Signal<Int, Never>) -> Signal<Int, Never>)] = [
            ("take", { $0.take(1) }),
            ("take then concat", { $0.take(1).concat(.return(9)) }),
            ("take then map", { $0.take(1).map { $0 } }),
        ]
        for (name, apply) in operators {
            let (pipe, input) = Signal<Int, Never>.pipe()
            let log = Recorder<String>()
            let box = DisposableBox()
            box.disposable = apply(pipe).subscribe(next: { value in
                log.record("next \(value)")
                box.disposable?.dispose()
                log.record("dispose() returned")
            }, completed: { log.record("completed") })
            input.sendNext(0)
            input.sendNext(1)
            XCTAssertEqual(log.values, ["next 0", "dispose() returned"], name)
        }
    }

    func testReturnOffAScheduler_disposingInsideTheValueStopsCompletion() {
        let log = Recorder<String>()
        let box = DisposableBox()
        let stored = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        onAPlainThread {
            box.disposable = Signal<Int, Never>.return(1).map { $0 }.subscribe(next: { value in
                _ = stored.waitForSignal()
                log.record("next \(value)")
                box.disposable?.dispose()
                log.record("dispose() returned")
                finished.signal()
            }, completed: { log.record("completed") })
            stored.signal()
        }
        XCTAssertTrue(finished.waitForSignal())
        // Whatever was still to come has had its chance: the subscription scheduler is serial.
        let drained = DispatchSemaphore(value: 0)
        onAPlainThread { Signal<Int, Never>.empty.subscribe(completed: { drained.signal() }) }
        XCTAssertTrue(drained.waitForSignal())
        XCTAssertEqual(log.values, ["next 1", "dispose() returned"])
    }

    // MARK: 3. A sink is attached before any event reaches it.

    func testPipe_subscriptionRacingSendsNeverLeaksATakeOne() {
        let (pipe, input) = Signal<Int, Never>.pipe()
        let sending = Atomic<Bool>(true)
        let senders = DispatchGroup()
        for _ in 0..<2 {
            senders.enter()
            Thread {
                while sending.load(ordering: .relaxed) { input.sendNext(1) }
                senders.leave()
            }.start()
        }
        // The window between registering a subscriber and attaching it is a few instructions wide:
        // 4 threads make 160,000 subscriptions while 2 others send, so that some land in it.
        let tokens = Recorder<WeakReference<LifetimeToken>>()
        let values = Counter()
        race(times: 4, threads: 4) { _ in
            for _ in 0..<10_000 {
                let (_, token) = trackingLifetime { token in
                    pipe.map { value -> Int in _ = token; return value }.take(1).subscribe(next: { _ in values.increment() })
                }
                tokens.record(token)
            }
        }
        sending.store(false, ordering: .relaxed)
        XCTAssertTrue(senders.waitForAll(), "the senders did not stop")
        input.sendNext(2)   // every take(1) has its value now
        XCTAssertEqual(values.value, 160_000)
        input.sendNext(3)
        XCTAssertEqual(values.value, 160_000, "a completed take(1) still receives")
        XCTAssertEqual(tokens.values.filter(\.isAlive).count, 0, "completed take(1) subscriptions stayed registered")
    }

    // MARK: 4. Two subscribers sending to each other from two threads neither deadlock nor crash.

    func testPipes_forwardingIntoEachOtherFromTwoThreads() {
        for _ in 0..<1_000 {
            let (first, firstInput) = Signal<Int, Never>.pipe()
            let (second, secondInput) = Signal<Int, Never>.pipe()
            let received = Counter()
            first.subscribe(next: { value in
                received.increment()
                if value < 6 { secondInput.sendNext(value + 1) }
            })
            second.subscribe(next: { value in
                received.increment()
                if value < 6 { firstInput.sendNext(value + 1) }
            })
            race(threads: 2) { index in
                (index == 0 ? firstInput : secondInput).sendNext(0)
            }
            // Each send starts a chain of seven deliveries (0 through 6), all done when the sends return.
            XCTAssertEqual(received.value, 14)
            // Each pipe's subscriber holds the other pipe's input: end them, or they keep each other alive.
            firstInput.sendCompleted()
            secondInput.sendCompleted()
        }
    }

    func testPipes_completingEachOtherFromTwoThreads() {
        for _ in 0..<1_000 {
            let (first, firstInput) = Signal<Int, Never>.pipe()
            let (second, secondInput) = Signal<Int, Never>.pipe()
            let completions = Counter()
            first.subscribe(next: { _ in secondInput.sendCompleted() }, completed: { completions.increment() })
            second.subscribe(next: { _ in firstInput.sendCompleted() }, completed: { completions.increment() })
            race(threads: 2) { index in
                (index == 0 ? firstInput : secondInput).sendNext(0)
            }
            // Whichever completion came first may have stopped the other send: end both by hand,
            // and each pipe has completed exactly once.
            XCTAssertGreaterThanOrEqual(completions.value, 1)
            firstInput.sendCompleted()
            secondInput.sendCompleted()
            XCTAssertEqual(completions.value, 2)
        }
    }

    // MARK: 5. Releasing a long chain of concatenations does not recurse.

    func testConcatChain_releasingAHundredThousandCallsOnASmallStack() {
        let completed = Counter()
        onAPlainThread(stackSize: 512 * 1024) {
            QueueScheduler(name: "small stack").performAsCurrentScheduler {
                var signal = Signal<Int, Never>.return(0)
                for value in 1..<100_000 {
                    signal = signal.concat(.return(value))
                }
                let count = Counter()
                signal.subscribe(next: { _ in count.increment() }, completed: { completed.increment() })
                XCTAssertEqual(count.value, 100_000)
            }
        }
        XCTAssertEqual(completed.value, 1)
    }

    func testStartWithChain_releasingTwentyThousandCallsOnASmallStack() {
        let values = Recorder<Int>()
        onAPlainThread(stackSize: 256 * 1024) {
            QueueScheduler(name: "small stack").performAsCurrentScheduler {
                var signal = Signal<Int, Never>.return(-1)
                for value in 0..<20_000 {
                    signal = signal.startWith(value)
                }
                let collected = Counter()
                signal.subscribe(next: { value in
                    collected.increment()
                    if collected.value <= 3 { values.record(value) }
                })
            }
        }
        XCTAssertEqual(values.values, [19_999, 19_998, 19_997])
    }

    // MARK: 6. Disposal frees everything the subscription captured.

    func testKeptSubscriptions_releaseTheUsersClosuresOnDisposal() {
        let (pipe, input) = Signal<Int, Never>.pipe()
        let scheduler = TestScheduler()
        let makers: [(String, () -> Signal<Int, Never>)] = [
            ("concat", { pipe.concat(.never) }),
            ("startWith", { pipe.startWith(0) }),
            ("startLazily", { Signal<Int, Never>.startLazily(on: scheduler) { _ in } }),
            ("startLazily, not yet started", { Signal<Int, Never>.startLazily(on: TestScheduler()) { _ in } }),
        ]
        for (name, make) in makers {
            let (subscription, token) = trackingLifetime { token in
                make().map { value -> Int in _ = token; return value }.subscribe(next: { _ in _ = token })
            }
            scheduler.run()
            input.sendNext(1)
            subscription.dispose()
            scheduler.run()
            XCTAssertFalse(token.isAlive, "\(name): the kept disposable holds the closures")
            withExtendedLifetime(subscription) {}
        }
    }

    func testSubscriberHeldByInFlightWork_releasesTheChainOnDisposal() {
        let box = SubscriberBox<Int, Never>()
        let signal = Signal<Int, Never> { subscriber in
            box.subscriber = subscriber   // in-flight work (a timer, a callback) keeps the subscriber
            return nil
        }
        let (subscription, token) = trackingLifetime { token in
            signal.map { value -> Int in _ = token; return value }.subscribe(next: { _ in _ = token })
        }
        subscription.dispose()
        XCTAssertFalse(token.isAlive)
        withExtendedLifetime(box) {}
    }

    func testFlattenStateAndQueuedSignals_releasedOnDisposalWhileTheSourceIsHeld() {
        let box = SubscriberBox<Signal<Int, Never>, Never>()
        let outer = Signal<Signal<Int, Never>, Never> { subscriber in
            box.subscriber = subscriber
            return nil
        }
        let (subscription, token) = trackingLifetime { token -> Disposable in
            let disposable = outer.flatten(maxConcurrent: 1).subscribe(next: { _ in _ = token })
            box.subscriber?.sendNext(.never)
            for _ in 0..<3 {
                box.subscriber?.sendNext(Signal<Int, Never>.never.map { value -> Int in _ = token; return value })
            }
            return disposable
        }
        subscription.dispose()
        XCTAssertFalse(token.isAlive)
        withExtendedLifetime(box) {}
    }

    // MARK: 8. No callback starts after dispose() returns.

    func testPipe_noCallbackAfterDisposeReturnsWhileSendsRace() {
        let late = callbacksAfterDisposeReturned { signal in
            let (pipe, input) = Signal<Int, Never>.pipe()
            return (signal(pipe), input)
        }
        XCTAssertLessThanOrEqual(late, 1)
    }

    func testCreatedSignal_noCallbackAfterDisposeReturnsWhileSendsRace() {
        let late = callbacksAfterDisposeReturned { signal in
            let box = SubscriberBox<Int, Never>()
            let subscription = signal(Signal { subscriber in
                box.subscriber = subscriber
                return nil
            })
            return (subscription, box.subscriber!)
        }
        XCTAssertLessThanOrEqual(late, 1)
    }

    /// Over 1,000 rounds, one thread sends 500 values while another disposes the subscription once
    /// a delivery is under way; counts the callbacks that ran after `dispose()` returned.
    ///
    /// `subscribe` subscribes the signal given through a slow `map` (which widens the window in
    /// which a delivery has started but the subscriber's callback has not) and returns the
    /// subscription with the subscriber to send to.
    private func callbacksAfterDisposeReturned(
        _ subscribe: (_ prepare: (Signal<Int, Never>) -> Disposable) -> (Disposable, Subscriber<Int, Never>)
    ) -> Int {
        // The most callbacks of one round that started after dispose() returned: one may, the
        // callback past its final check when dispose() was called (dispose() never waits).
        var mostLate = 0
        for _ in 0..<1_000 {
            let late = Counter()
            let disposed = Atomic<Bool>(false)
            let delivering = Atomic<Int>(0)
            let (subscription, input) = subscribe { signal in
                signal.map { value in
                    delivering.add(1, ordering: .releasing)
                    return busyWork(value)
                }.subscribe(next: { _ in
                    if disposed.load(ordering: .acquiring) { late.increment() }
                })
            }
            race(threads: 2) { index in
                if index == 0 {
                    for value in 0..<500 { input.sendNext(value) }
                } else {
                    XCTAssertTrue(eventually { delivering.load(ordering: .acquiring) > 0 }, "no delivery started")
                    subscription.dispose()
                    disposed.store(true, ordering: .releasing)
                }
            }
            mostLate = max(mostLate, late.value)
        }
        return mostLate
    }

    // MARK: 9. A reentrant burst costs time linear in its size.

    func testReentrantBurst_isLinear() {
        let growth = timeGrowth(quadrupling: 50_000) { count in
            let box = SubscriberBox<Int, Never>()
            let received = Counter()
            Signal<Int, Never> { subscriber in
                box.subscriber = subscriber
                return nil
            }.subscribe(next: { value in
                received.increment()
                if value == -1 {
                    for next in 0..<count { box.subscriber?.sendNext(next) }
                }
            })
            let seconds = secondsTaken { box.subscriber?.sendNext(-1) }
            XCTAssertEqual(received.value, count + 1)
            // The subscriber captured its own source: end it, or the two keep each other alive.
            box.subscriber = nil
            return seconds
        }
        XCTAssertLessThan(growth.ratio, 9, growth.description)
    }

    // MARK: 10. A subscription that has ended reports itself disposed.

    func testEndedSubscriptions_reportIsDisposed() {
        let scheduler = TestScheduler()
        let (pipe, input) = Signal<Int, Never>.pipe()
        let box = SubscriberBox<Int, Never>()
        let lazy = Signal<Int, Never>.startLazily(on: scheduler) { box.subscriber = $0 }
        let created = Signal<Int, Never> { subscriber in
            box.subscriber = subscriber
            return nil
        }
        let onPipe = pipe.subscribe()
        let mapped = pipe.map { $0 }.subscribe()
        input.sendCompleted()
        XCTAssertTrue(onPipe.isDisposed, "pipe")
        XCTAssertTrue(mapped.isDisposed, "map on a pipe")

        let replayed = lazy.subscribe()
        scheduler.run()
        box.subscriber?.sendCompleted()
        scheduler.run()
        XCTAssertTrue(replayed.isDisposed, "startLazily")

        let direct = created.subscribe()
        box.subscriber?.sendCompleted()
        XCTAssertTrue(direct.isDisposed, "Signal { }")
    }
}

/// Returns `value` after a few microseconds of work.
private func busyWork(_ value: Int) -> Int {
    var result = value
    for step in 0..<1_000 { result = result &* 31 &+ step }
    return result == .min ? 0 : value
}
