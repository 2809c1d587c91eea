import Disposables
import Foundation
import Schedulers
import Signals
import Synchronization
import TestSupport
import XCTest

/// `Subscriber.sendNexts`: values sent in bursts that own the delivery lock for many values keep
/// every promise of a `sendNext` per value.
final class BurstTests: LeakCheckedTestCase {
    /// A place for a create block to leave its subscriber, for the callbacks and other threads.
    private final class SubscriberBox: Sendable {
        private let stored = Lock<Subscriber<Int, Never>?>(nil)
        var subscriber: Subscriber<Int, Never>? {
            get { stored.withLock { $0 } }
            set { stored.withLock { $0 = newValue } }
        }
    }

    /// A signal that sends `0..<count` (`nil`: without end) through `sendNexts`, counting the
    /// values it computes, then completes; it leaves its subscriber in `box` before the first
    /// value and signals `ended` once `sendNexts` has returned.
    private func burstSignal(
        count: Int?,
        pulls: Counter = Counter(),
        box: SubscriberBox = SubscriberBox(),
        ended: DispatchSemaphore? = nil
    ) -> Signal<Int, Never> {
        Signal { subscriber in
            box.subscriber = subscriber
            var next = 0
            let finished = subscriber.sendNexts { burst in
                burst.send {
                    if let count, next == count { return nil }
                    pulls.increment()
                    defer { next += 1 }
                    return next
                }
            }
            if finished { subscriber.sendCompleted() }
            ended?.signal()
            return nil
        }
    }

    /// The ways a subscriber can sit below the gate: a closure sink (called through its value
    /// handler) or an operator's sink (called through `receive`).
    private let shapes: [(name: String, apply: (Signal<Int, Never>) -> Signal<Int, Never>)] = [
        ("closures", { $0 }),
        ("map", { $0.map { $0 } }),
    ]

    func testBursts_deliverEveryValueInOrderThenComplete() {
        for shape in shapes {
            for count in [0, 1, 255, 256, 257, 512, 1_000] {
                let pulls = Counter()
                let events = shape.apply(burstSignal(count: count, pulls: pulls)).record().events
                XCTAssertEqual(events, (0..<count).map { .next($0) } + [.completed], "\(shape.name), \(count)")
                XCTAssertEqual(pulls.value, count, "\(shape.name), \(count)")
            }
        }
    }

    func testDisposingFromACallback_stopsTheBurstAtOnce() {
        for shape in shapes {
            let pulls = Counter()
            let box = SubscriberBox()
            let received = Recorder<Int>()
            shape.apply(burstSignal(count: nil, pulls: pulls, box: box)).subscribe(next: { value in
                received.record(value)
                if value == 5 { box.subscriber!.disposable.dispose() }
            })
            XCTAssertEqual(received.values, Array(0...5), shape.name)
            XCTAssertEqual(pulls.value, 6, "\(shape.name): a value was computed after the disposal")
        }
    }

    func testDisposingFromACallback_letsGoOfTheClosuresAfterTheBurst() {
        for shape in shapes {
            let box = SubscriberBox()
            let (_, token) = trackingLifetime { token in
                shape.apply(burstSignal(count: nil, box: box)).subscribe(next: { value in
                    _ = token
                    if value == 300 { box.subscriber!.disposable.dispose() }
                })
            }
            XCTAssertFalse(token.isAlive, shape.name)
            let (_, completedToken) = trackingLifetime { token in
                shape.apply(burstSignal(count: 600)).subscribe(next: { _ in _ = token })
            }
            XCTAssertFalse(completedToken.isAlive, shape.name)
        }
    }

    func testDisposeFromAnotherThread_nothingIsDeliveredAfterItReturns_andTheLoopEnds() {
        for shape in shapes {
            for _ in 0..<20 {
                let box = SubscriberBox()
                let ended = DispatchSemaphore(value: 0)
                let received = Counter()
                let disposeReturned = Atomic<Bool>(false)
                let lateDeliveries = Counter()
                let signal = shape.apply(burstSignal(count: nil, box: box, ended: ended))
                Thread {
                    Scheduler.immediate.performAsCurrentScheduler {
                        signal.subscribe(next: { _ in
                            if disposeReturned.load(ordering: .acquiring) { lateDeliveries.increment() }
                            received.increment()
                        })
                    }
                }.start()
                XCTAssertTrue(eventually { received.value >= 1_000 }, "\(shape.name): got \(received.value) values")
                box.subscriber!.disposable.dispose()
                disposeReturned.store(true, ordering: .releasing)
                let countAtReturn = received.value
                XCTAssertEqual(ended.wait(timeout: .now() + 10), .success, "\(shape.name): the loop did not end")
                // dispose() never waits: the one value past the final check when it was called may
                // still arrive, and nothing after it.
                XCTAssertLessThanOrEqual(received.value - countAtReturn, 1, shape.name)
                XCTAssertLessThanOrEqual(lateDeliveries.value, 1, "\(shape.name): values were delivered after dispose() returned")
            }
        }
    }

    func testReentrantSends_areDeliveredInOrderBeforeTheNextValue() {
        for shape in shapes {
            let box = SubscriberBox()
            let received = Recorder<Int>()
            shape.apply(burstSignal(count: 600, box: box)).subscribe(next: { value in
                received.record(value)
                if value < 10_000 { box.subscriber!.sendNext(10_000 + value) }
            })
            XCTAssertEqual(received.values, (0..<600).flatMap { [$0, 10_000 + $0] }, shape.name)
        }
    }

    func testAReentrantCompletion_endsTheBurstAfterTheValueUnderWay() {
        for shape in shapes {
            let box = SubscriberBox()
            let pulls = Counter()
            let events = Recorder<Event<Int, Never>>()
            shape.apply(burstSignal(count: nil, pulls: pulls, box: box)).subscribe(
                next: { value in
                    events.record(.next(value))
                    if value == 300 {
                        box.subscriber!.sendNext(-1)
                        box.subscriber!.sendCompleted()
                        box.subscriber!.sendNext(-2)
                    }
                },
                completed: { events.record(.completed) }
            )
            XCTAssertEqual(events.values, (0...300).map { .next($0) } + [.next(-1), .completed], shape.name)
            XCTAssertEqual(pulls.value, 301, shape.name)
        }
    }

    func testSendNextsFromInsideItsOwnDelivery_isQueuedBehindTheValueUnderWay() {
        let box = SubscriberBox()
        let received = Recorder<Int>()
        let returned = Recorder<Bool>()
        burstSignal(count: 3, box: box).subscribe(next: { value in
            received.record(value)
            guard value == 0 else { return }
            var next = 100
            returned.record(box.subscriber!.sendNexts { burst in
                burst.send {
                    if next == 103 { return nil }
                    defer { next += 1 }
                    return next
                }
            })
        })
        XCTAssertEqual(received.values, [0, 100, 101, 102, 1, 2])
        XCTAssertEqual(returned.values, [true])
    }

    func testSendNextsFromInsideADelivery_toASubscriberAnotherThreadDelivers_isPutOffInOrder() {
        let box = SubscriberBox()
        let log = Recorder<String>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let busy = Signal<Int, Never> { subscriber in
            box.subscriber = subscriber
            return nil
        }
        busy.subscribe(next: { value in
            log.record("busy got \(value)")
            if value == 0 {
                entered.signal()
                _ = release.waitForSignal()
            }
        })
        let (outer, outerInput) = Signal<Int, Never>.pipe()
        outer.subscribe(next: { _ in
            // `busy` is delivering on another thread: these do not wait, they are put off.
            var next = 1
            let finished = box.subscriber!.sendNexts { burst in
                burst.send {
                    if next == 4 { return nil }
                    defer { next += 1 }
                    return next
                }
            }
            log.record("outer callback returned \(finished)")
            release.signal()
        })
        let other = DispatchSemaphore(value: 0)
        Thread {
            box.subscriber!.sendNext(0)
            other.signal()
        }.start()
        XCTAssertTrue(entered.waitForSignal())
        outerInput.sendNext(0)
        log.record("outer send returned")
        XCTAssertTrue(other.waitForSignal())
        XCTAssertEqual(log.values, [
            "busy got 0", "outer callback returned true", "busy got 1", "busy got 2", "busy got 3", "outer send returned",
        ])
    }
}
