import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class IntervalTests: XCTestCase {
    func testInterval_firstTickComesOneIntervalAfterSubscriptionAndSendsTheSchedulersDate() {
        let scheduler = TestScheduler()
        scheduler.advance(by: 0.5)
        let ticks = Recorder<(time: TimeInterval, date: Date)>()
        let subscription = Signal.interval(1, on: scheduler).subscribe(next: { ticks.record((elapsed(scheduler), $0)) })
        scheduler.advance(by: 3.2)
        XCTAssertEqual(ticks.values.map(\.time), [1.5, 2.5, 3.5])
        XCTAssertEqual(ticks.values.map(\.date), [1.5, 2.5, 3.5].map { TestScheduler.startDate.addingTimeInterval($0) })
        subscription.dispose()
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
        let first = Recorder<TimeInterval>()
        let second = Recorder<TimeInterval>()
        let a = signal.subscribe(next: { _ in first.record(elapsed(scheduler)) })
        scheduler.advance(by: 1)
        let b = signal.subscribe(next: { _ in second.record(elapsed(scheduler)) })
        scheduler.advance(by: 4)
        XCTAssertEqual(first.values, [2, 4])
        XCTAssertEqual(second.values, [3, 5])
        a.dispose()
        b.dispose()
    }

    func testInterval_onAQueueScheduler() {
        let scheduler = QueueScheduler(name: "interval test")
        let dates = Signal.interval(0.001, on: scheduler).take(3).toArray()
        XCTAssertEqual(dates?.count, 3)
        XCTAssertEqual(dates, dates?.sorted())
    }
}
