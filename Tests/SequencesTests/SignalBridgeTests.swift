import Disposables
import Dispatch
import Foundation
import Schedulers
import Sequences
import Signals
import TestSupport
import XCTest

/// The bridges between lists and signals: `signal()`/`signal(on:)` (one element per scheduler
/// step, disposal stops the walk) and `Signal.lazyList` (one subscription, made when the list is,
/// into a buffer; `head` waits; an error ends the list), under `TestScheduler` and from the main
/// thread, a plain `Thread` and a `QueueScheduler` block, released early.
final class SignalBridgeTests: LeakCheckedTestCase {
    // MARK: - signal(on:)

    func testSignalOn_sendsOneElementPerSchedulerStep() {
        let scheduler = TestScheduler()
        let evaluated = Counter()
        let list = LazyList([1, 2, 3]).map { value -> Int in evaluated.increment(); return value }
        let recorder = list.signal(on: scheduler).record()
        XCTAssertEqual(recorder.events, [])
        XCTAssertEqual(evaluated.value, 0, "nothing is evaluated before the first step")
        XCTAssertTrue(scheduler.step())
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(evaluated.value, 1, "one element per step")
        XCTAssertTrue(scheduler.step())
        XCTAssertEqual(recorder.events, [.next(1), .next(2)])
        XCTAssertTrue(scheduler.step())
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3)])
        XCTAssertTrue(scheduler.step())
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3), .completed])
        XCTAssertFalse(scheduler.step(), "nothing is left scheduled")
    }

    func testSignalOn_otherWorkRunsBetweenElements() {
        // RAC's "should only evaluate one value per scheduling": a block scheduled from a value's
        // callback runs before the next value.
        let scheduler = TestScheduler()
        let log = Recorder<String>()
        LazyList([1, 2]).signal(on: scheduler).subscribe(next: { value in
            log.record("value \(value)")
            scheduler.schedule { log.record("after \(value)") }
        }, completed: { log.record("completed") })
        scheduler.stepAll()
        XCTAssertEqual(log.values, ["value 1", "after 1", "value 2", "after 2", "completed"])
    }

    func testSignalOn_emptyListCompletesOnTheFirstStep() {
        let scheduler = TestScheduler()
        let recorder = LazyList<Int>.empty.signal(on: scheduler).record()
        scheduler.step()
        XCTAssertEqual(recorder.events, [.completed])
    }

    func testSignalOn_disposalStopsTheWalk() {
        let scheduler = TestScheduler()
        let evaluated = Counter()
        let recorder = LazyList(0...).map { value -> Int in evaluated.increment(); return value }
            .signal(on: scheduler).record()
        scheduler.step(2)
        recorder.dispose()
        scheduler.stepAll()
        XCTAssertEqual(recorder.events, [.next(0), .next(1)])
        XCTAssertEqual(evaluated.value, 2)
    }

    func testSignalOnImmediate_walksSynchronouslyAndStopsWhenDisposedInACallback() {
        XCTAssertEqual(LazyList([1, 2, 3]).signal(on: .immediate).toArray(), [1, 2, 3])
        XCTAssertEqual(LazyList(0...).signal(on: .immediate).take(3).toArray(), [0, 1, 2], "an infinite list ends with take")
        let evaluated = Counter()
        let infinite = LazyList(head: { 0 }, tail: { countedList(evaluated, from: 1) })
        XCTAssertEqual(infinite.signal(on: .immediate).take(2).toArray(), [0, 1])
        XCTAssertLessThanOrEqual(evaluated.value, 2, "the walk stops right after the disposal")
    }

    func testSignalOnImmediate_walksEvaluatedAndUnevaluatedParts() {
        let list = LazyList(0..<10)
        _ = list.take(4).array   // the first four nodes are evaluated, the rest not
        XCTAssertEqual(list.signal(on: .immediate).toArray(), Array(0..<10))
        XCTAssertEqual(list.signal(on: .immediate).toArray(), Array(0..<10), "a second subscription sees the same")
        XCTAssertEqual(list.array, Array(0..<10))
    }

    func testSignal_usesABackgroundScheduler() {
        let onMain = Recorder<Bool>()
        let values = LazyList([1, 2, 3]).signal().doNext { _ in onMain.record(Thread.isMainThread) }.toArray()
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertEqual(onMain.values, [false, false, false])
    }

    func testSignal_fromEveryThreadContext() {
        let expected = Array(0..<100)
        @Sendable func check(_ context: String) {
            XCTAssertEqual(LazyList(0..<100).signal().toArray(), expected, context)
            XCTAssertEqual(LazyList(0..<100).signal(on: .immediate).toArray(), expected, context)
            XCTAssertEqual(LazyList(iterator: (0..<100).makeIterator()).signal(on: Scheduler.background()).toArray(), expected, context)
        }
        inEveryThreadContext(check)
    }

    func testSignal_releasedEarly_letsGoOfTheList() {
        let scheduler = QueueScheduler(name: "release")
        let (taken, listReference) = { () -> ([Int]?, WeakReference<LazyList<Int>>) in
            let list = LazyList(0...).map { $0 * 2 }
            return (list.signal(on: scheduler).take(3).toArray(), WeakReference(list))
        }()
        XCTAssertEqual(taken, [0, 2, 4])
        // The walk stops on the scheduler; wait for it to have let go.
        let settled = expectation(description: "scheduler drained")
        scheduler.schedule { settled.fulfill() }
        wait(for: [settled], timeout: 30)
        XCTAssertFalse(listReference.isAlive)
    }

    // MARK: - Signal.lazyList

    func testLazyList_ofASignal() {
        XCTAssertEqual(Signal<Int, Never>.return(1).concat(.return(2)).lazyList.array, [1, 2])
        XCTAssertEqual(Signal<Int, Never>.empty.lazyList.array, [])
        XCTAssertTrue(Signal<Int, Never>.empty.lazyList.isEmpty)
    }

    func testLazyList_subscribesOnceWhenMade() {
        let subscriptions = Counter()
        let signal = Signal<Int, Never> { subscriber in
            subscriptions.increment()
            subscriber.sendNext(1)
            subscriber.sendNext(2)
            subscriber.sendCompleted()
            return nil
        }
        let list = signal.lazyList
        XCTAssertEqual(list.array, [1, 2])
        XCTAssertEqual(list.array, [1, 2])
        XCTAssertEqual(list.tail.array, [2])
        XCTAssertEqual(subscriptions.value, 1)
    }

    func testLazyList_anErrorEndsTheList() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let list = signal.lazyList
        input.sendNext(1)
        input.sendError(.first)
        XCTAssertEqual(list.array, [1])
    }

    func testLazyList_headWaitsForAValueOrTheEnd() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let list = signal.lazyList
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
            input.sendNext(7)
            input.sendCompleted()
        }
        XCTAssertEqual(list.head, 7, "head waited for the value")
        XCTAssertTrue(list.tail.isEmpty, "and the tail for the completion")

        let (silent, silentInput) = Signal<Int, Never>.pipe()
        let empty = silent.lazyList
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { silentInput.sendCompleted() }
        XCTAssertTrue(empty.isEmpty)
    }

    func testLazyList_valuesSentBeforeTheyArePulledAreKept() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let list = signal.lazyList
        for value in 0..<5_000 { input.sendNext(value) }
        input.sendCompleted()
        XCTAssertEqual(list.array, Array(0..<5_000))
    }

    func testLazyList_releasedEarly_disposesItsSubscription() {
        let disposed = Counter()
        let neverEnding = Signal<Int, Never> { subscriber in
            subscriber.sendNext(1)
            return Disposable { disposed.increment() }
        }
        do {
            let list = neverEnding.lazyList
            XCTAssertEqual(list.head, 1)
        }
        XCTAssertEqual(disposed.value, 1, "releasing the list disposes the subscription")

        let (signal, input) = Signal<Int, Never>.pipe()
        let watched: WeakReference<LazyList<Int>>
        do {
            let list = signal.lazyList
            watched = WeakReference(list)
        }
        XCTAssertFalse(watched.isAlive)
        input.sendNext(1)   // nothing is buffered for a list that is gone
    }

    func testLazyList_fromEveryThreadContext() {
        let signal = Signal<Int, Never> { subscriber in
            for value in 0..<50 { subscriber.sendNext(value) }
            subscriber.sendCompleted()
            return nil
        }
        @Sendable func check(_ context: String) {
            XCTAssertEqual(signal.lazyList.array, Array(0..<50), context)
            XCTAssertEqual(signal.lazyList.map { $0 * 2 }.signal(on: .immediate).toArray(), (0..<50).map { $0 * 2 }, context)
        }
        inEveryThreadContext(check)
    }

    func testLazyList_pulledFromEightThreads() {
        for _ in 0..<20 {
            let (signal, input) = Signal<Int, Never>.pipe()
            let list = signal.lazyList
            let seen = Recorder<[Int]>()
            DispatchQueue.global().async {
                for value in 0..<200 { input.sendNext(value) }
                input.sendCompleted()
            }
            race(threads: 8) { _ in seen.record(list.array) }
            XCTAssertEqual(seen.values, Array(repeating: Array(0..<200), count: 8))
        }
    }

    /// Runs `check` on the main thread, on a plain `Thread` and inside a `QueueScheduler` block,
    /// naming each.
    func inEveryThreadContext(_ check: @escaping @Sendable (String) -> Void) {
        check("main thread")
        onAPlainThread { check("plain thread") }
        let done = expectation(description: "queue block ran")
        QueueScheduler(name: "contexts").schedule {
            check("queue scheduler block")
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
    }
}
