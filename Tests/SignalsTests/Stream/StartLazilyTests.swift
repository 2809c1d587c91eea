import Disposables
import Schedulers
import Signals
import TestSupport
import XCTest

final class StartLazilyTests: LeakCheckedTestCase {
    func testStartLazily_runsOnceAtTheFirstSubscriptionAndReplays() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let signal = Signal<Int, TestError>.startLazily(on: scheduler) { subscriber in
            runs.increment()
            subscriber.sendNext(1)
            subscriber.sendNext(2)
            subscriber.sendCompleted()
        }
        scheduler.run()
        XCTAssertEqual(runs.value, 0)
        let first = signal.record()
        scheduler.run()
        let second = signal.record()
        scheduler.run()
        XCTAssertEqual(runs.value, 1)
        XCTAssertEqual(first.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(second.events, [.next(1), .next(2), .completed])
    }

    func testStartEagerly_runsAtOnceAndReplaysToLaterSubscribers() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let signal = Signal<Int, TestError>.startEagerly(on: scheduler) { subscriber in
            runs.increment()
            subscriber.sendNext(1)
            subscriber.sendError(.first)
        }
        scheduler.run()
        XCTAssertEqual(runs.value, 1)
        let recorder = signal.record()
        scheduler.run()
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
    }

    func testStartLazily_liveSubscriberGetsLaterValues() {
        let scheduler = TestScheduler()
        let box = SubscriberBox<Int, TestError>()
        let signal = Signal<Int, TestError>.startLazily(on: scheduler) { subscriber in
            box.subscriber = subscriber
            subscriber.sendNext(1)
        }
        let recorder = signal.record()
        scheduler.run()
        box.subscriber?.sendNext(2)
        box.subscriber?.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
    }

    func testStartLazily_disposedSubscriberGetsNothingMore() {
        let scheduler = TestScheduler()
        let box = SubscriberBox<Int, TestError>()
        let signal = Signal<Int, TestError>.startLazily(on: scheduler) { box.subscriber = $0 }
        let recorder = signal.record()
        scheduler.run()
        box.subscriber?.sendNext(1)
        recorder.dispose()
        box.subscriber?.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(1)])
        // The box, captured by the signal's block, holds the block's subscriber.
        box.subscriber = nil
    }
}
