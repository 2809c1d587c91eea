import Disposables
import Foundation
import Schedulers
import Sequences
import Signals
import Synchronization
import TestSupport
import XCTest

/// `signal(on: .immediate)` sends a list's elements in bursts (the subscriber's delivery lock
/// taken once for many elements), from a collection walked directly or from evaluated nodes;
/// these check that it still keeps every promise of a subscription.
final class SignalBridgeFastPathTests: LeakCheckedTestCase {
    /// The lists of `0..<count` a signal can walk: a collection nothing evaluated, the same list
    /// evaluated in full or in part, and one pulled from an iterator.
    private func lists(_ count: Int) -> [(name: String, list: LazyList<Int>)] {
        let evaluated = LazyList(0..<count)
        _ = evaluated.array
        let halfEvaluated = LazyList(0..<count)
        var iterator = halfEvaluated.makeIterator()
        for _ in 0..<(count / 2) { _ = iterator.next() }
        return [
            ("collection", LazyList(0..<count)),
            ("evaluated", evaluated),
            ("half evaluated", halfEvaluated),
            ("iterator", LazyList(iterator: (0..<count).makeIterator())),
            ("array", LazyList(Array(0..<count))),
        ]
    }

    /// Subscribes through `shape` on a thread with no current scheduler, so that the walk runs on
    /// the subscription scheduler's background queue and `subscribe` returns its disposable at
    /// once; `done` runs once the walk has returned.
    private func subscribeInTheBackground(
        _ signal: Signal<Int, Never>,
        next: @escaping @Sendable (Int) -> Void
    ) -> (subscription: Disposable, walkEnded: DispatchSemaphore) {
        let box = DisposableBox()
        let ended = DispatchSemaphore(value: 0)
        onAPlainThread {
            box.disposable = signal.subscribe(next: next)
            // The subscription scheduler's queue is serial: this runs once the walk has returned.
            Scheduler.subscription.schedule { ended.signal() }
        }
        return (box.disposable!, ended)
    }

    func testEverySource_sendsItsElementsInOrderThenCompletes() {
        for count in [0, 1, 255, 256, 257, 513, 2_000] {
            for (name, list) in lists(count) {
                let expected: [Event<Int, Never>] = (0..<count).map { .next($0) } + [.completed]
                XCTAssertEqual(list.signal(on: .immediate).record().events, expected, "\(name), \(count)")
                XCTAssertEqual(list.signal(on: .immediate).map { $0 }.record().events, expected, "\(name), \(count), map")
                // Again: what the first walk evaluated is read as it is.
                XCTAssertEqual(list.signal(on: .immediate).record().events, expected, "\(name), \(count), again")
            }
        }
    }

    func testTakeThreeOfAnInfiniteList_terminates() {
        let evaluatedPrefix = LazyList(0...)
        var iterator = evaluatedPrefix.makeIterator()
        for _ in 0..<1_000 { _ = iterator.next() }
        let sources: [(String, LazyList<Int>)] = [
            ("infinite", LazyList(0...)),
            ("infinite, evaluated prefix", evaluatedPrefix),
            ("endless collection", LazyList(0..<Int.max)),
        ]
        for (name, list) in sources {
            for count in [3, 300, 1_500] {
                let events = Recorder<[Event<Int, Never>]>()
                let finished = DispatchSemaphore(value: 0)
                Thread {
                    Scheduler.immediate.performAsCurrentScheduler {
                        events.record(list.signal(on: .immediate).take(count).record().events)
                    }
                    finished.signal()
                }.start()
                XCTAssertEqual(finished.wait(timeout: .now() + 30), .success, "\(name), take(\(count)) did not terminate")
                XCTAssertEqual(events.values.first, (0..<count).map { .next($0) } + [.completed], "\(name), take(\(count))")
            }
        }
    }

    func testDisposingFromACallback_stopsAtOnce_andComputesNoFurtherElement() {
        // Through a subscriber whose disposable the callback holds (its sink forwards to it).
        let pulls = Counter()
        let received = Recorder<Int>()
        let list = LazyList((0..<1_000_000).lazy.map { value -> Int in pulls.increment(); return value })
        list.signal(on: .immediate).subscribe(subscriber(recordingInto: received, disposingAt: 5))
        XCTAssertEqual(received.values, Array(0...5))
        XCTAssertEqual(pulls.value, 6, "an element was computed after the disposal")

        // Through closures, with the disposable `subscribe` returned.
        let closurePulls = Counter()
        let closureReceived = Recorder<Int>()
        let subscriptionBox = DisposableBox()
        let closureList = LazyList((0..<1_000_000).lazy.map { value -> Int in closurePulls.increment(); return value })
        let (subscription, walkEnded) = subscribeInTheBackground(closureList.signal(on: .immediate)) { value in
            closureReceived.record(value)
            guard value == 5 else { return }
            // The test's thread stores the disposable as soon as `subscribe` returns.
            guard eventually({ subscriptionBox.disposable != nil }) else { return XCTFail("subscribe never returned") }
            subscriptionBox.disposable!.dispose()
        }
        subscriptionBox.disposable = subscription
        XCTAssertEqual(walkEnded.wait(timeout: .now() + 30), .success, "the walk did not end")
        XCTAssertEqual(closureReceived.values, Array(0...5))
        XCTAssertEqual(closurePulls.value, 6, "an element was computed after the disposal")
    }

    func testDisposingFromACallback_onEvaluatedNodes_stopsAtOnce() {
        let list = LazyList(0..<1_000)
        _ = list.array
        let received = Recorder<Int>()
        list.signal(on: .immediate).subscribe(subscriber(recordingInto: received, disposingAt: 300))
        XCTAssertEqual(received.values, Array(0...300))
    }

    func testDisposeFromAnotherThread_nothingIsDeliveredAfterItReturns_andTheWalkEnds() {
        let evaluatedPrefix = LazyList(0...)
        var iterator = evaluatedPrefix.makeIterator()
        for _ in 0..<100_000 { _ = iterator.next() }
        let sources: [(String, () -> LazyList<Int>)] = [
            ("endless collection", { LazyList(0..<Int.max) }),
            ("evaluated prefix", { evaluatedPrefix }),
            ("infinite", { LazyList(0...) }),
        ]
        for (name, makeList) in sources {
            for round in 0..<10 {
                let received = Counter()
                let disposeReturned = Atomic<Bool>(false)
                let lateDeliveries = Counter()
                let next: @Sendable (Int) -> Void = { _ in
                    if disposeReturned.load(ordering: .acquiring) { lateDeliveries.increment() }
                    received.increment()
                }
                let subscription: Disposable
                let walkEnded: DispatchSemaphore
                if round.isMultiple(of: 2) {
                    // Closures: the subscription scheduler runs the walk on its queue.
                    (subscription, walkEnded) = subscribeInTheBackground(makeList().signal(on: .immediate), next: next)
                } else {
                    // A subscriber, its sink forwarding to it, on a thread of its own.
                    let subscriber = Subscriber<Int, Never>(next: next)
                    let ended = DispatchSemaphore(value: 0)
                    let list = makeList()
                    Thread {
                        Scheduler.immediate.performAsCurrentScheduler {
                            list.signal(on: .immediate).subscribe(subscriber)
                        }
                        ended.signal()
                    }.start()
                    (subscription, walkEnded) = (subscriber.disposable, ended)
                }
                XCTAssertTrue(eventually { received.value >= 1_000 }, "\(name): got \(received.value) elements")
                subscription.dispose()
                disposeReturned.store(true, ordering: .releasing)
                let countAtReturn = received.value
                XCTAssertEqual(walkEnded.wait(timeout: .now() + 30), .success, "\(name): the walk did not end")
                // dispose() never waits: the one element past the final check when it was called
                // may still arrive, and nothing after it.
                XCTAssertLessThanOrEqual(received.value - countAtReturn, 1, name)
                XCTAssertLessThanOrEqual(lateDeliveries.value, 1, "\(name): elements were delivered after dispose() returned")
            }
        }
    }

    func testASubscriptionMadeFromACallback_runsItsOwnWalkInside() {
        let signal = LazyList(0..<600).signal(on: .immediate)
        let received = Recorder<String>()
        signal.subscribe(next: { outer in
            received.record("outer \(outer)")
            if outer == 1 {
                signal.subscribe(next: { inner in received.record("inner \(inner)") })
            }
        })
        let expected = ["outer 0", "outer 1"] + (0..<600).map { "inner \($0)" } + (2..<600).map { "outer \($0)" }
        XCTAssertEqual(received.values, expected)
    }

    func testWalksOfOneListFromSeveralThreads_eachGetEveryElementInOrder() {
        for _ in 0..<20 {
            let list = LazyList(0...)
            var iterator = list.makeIterator()
            for _ in 0..<500 { _ = iterator.next() }
            let results = Recorder<[Int]>()
            race(threads: 4) { _ in
                Scheduler.immediate.performAsCurrentScheduler {
                    results.record(list.signal(on: .immediate).take(2_000).record().values)
                }
            }
            XCTAssertEqual(results.values, Array(repeating: Array(0..<2_000), count: 4))
        }
    }

    /// A subscriber that records its values and disposes its own subscription from the callback
    /// of `last`.
    func subscriber(recordingInto received: Recorder<Int>, disposingAt last: Int) -> Subscriber<Int, Never> {
        let box = DisposableBox()
        let subscriber = Subscriber<Int, Never>(next: { value in
            received.record(value)
            if value == last { box.disposable?.dispose() }
        })
        box.disposable = subscriber.disposable
        return subscriber
    }
}
