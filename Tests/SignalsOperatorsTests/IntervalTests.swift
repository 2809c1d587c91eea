import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class IntervalTests: LeakCheckedTestCase {
    func testInterval_firstTickComesOneIntervalAfterSubscriptionAndSendsTheSchedulersDate() {
        let scheduler = TestScheduler()
        scheduler.advance(by: 0.5)
        let recording = scheduler.record(Signal.interval(1, on: scheduler))
        scheduler.advance(by: 3.2)
        // One frame per second from 0.5 s: each tick is the date it is sent at.
        let dates: [Character: Date] = ["a": 1.5, "b": 2.5, "c": 3.5].mapValues { TestScheduler.startDate.addingTimeInterval($0) }
        XCTAssertNil(recording.mismatch(expected: "-abc", values: dates))
        recording.dispose()
    }

    func testInterval_neverCompletes() {
        let scheduler = TestScheduler()
        let ended = Recorder<String>()
        let subscription = Signal.interval(1, on: scheduler, leeway: 0.1).subscribe(completed: { ended.record("completed") })
        scheduler.advance(by: 1000)
        XCTAssertEqual(ended.values, [])
        XCTAssertFalse(subscription.isDisposed)
        subscription.dispose()
    }

    func testInterval_disposalStopsIt() {
        let scheduler = TestScheduler()
        let ticks = Counter()
        let (subscription, token) = trackingLifetime { token in
            Signal.interval(1, on: scheduler).subscribe(next: { _ in _ = token; ticks.increment() })
        }
        scheduler.advance(by: 2)
        subscription.dispose()
        XCTAssertTrue(scheduler.isEmpty)
        XCTAssertFalse(token.isAlive)
        scheduler.advance(by: 10)
        XCTAssertEqual(ticks.value, 2)
        XCTAssertTrue(subscription.isDisposed)
    }

    func testInterval_eachSubscriptionHasItsOwnTimer() {
        let scheduler = TestScheduler()
        let signal = Signal.interval(2, on: scheduler)
        let first = scheduler.record(signal)
        scheduler.advance(by: 1)
        let second = scheduler.record(signal)
        scheduler.advance(by: 4)
        // Each recording counts from its own start: ticks at 2 and 4 s, then at 3 and 5 s.
        XCTAssertEqual(first.marbles { _ in "t" }, "--t-t")
        XCTAssertEqual(second.marbles { _ in "t" }, "--t-t")
        XCTAssertEqual(second.startDate, TestScheduler.startDate.addingTimeInterval(1))
        first.dispose()
        second.dispose()
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testInterval_anInfiniteIntervalSendsNothing() {
        let scheduler = TestScheduler()
        let ticks = Counter()
        let subscription = Signal.interval(.infinity, on: scheduler).subscribe(next: { _ in ticks.increment() })
        scheduler.run()
        scheduler.advance(by: 1e9)
        XCTAssertEqual(ticks.value, 0)
        subscription.dispose()
        XCTAssertTrue(scheduler.isEmpty)

        let queue = QueueScheduler(name: "interval forever")
        let queueTicks = Counter()
        let queueSubscription = Signal.interval(.infinity, on: queue).subscribe(next: { _ in queueTicks.increment() })
        let later = DispatchSemaphore(value: 0)
        queue.schedule(afterDelay: 0.01) { later.signal() }
        XCTAssertEqual(later.wait(timeout: .now() + 10), .success)
        queueSubscription.dispose()
        XCTAssertEqual(queueTicks.value, 0)
    }

    func testInterval_onAQueueScheduler() {
        let scheduler = QueueScheduler(name: "interval test")
        let dates = Signal.interval(0.001, on: scheduler).take(3).toArray()
        XCTAssertEqual(dates.count, 3)
        XCTAssertEqual(dates, dates.sorted())
    }
}
