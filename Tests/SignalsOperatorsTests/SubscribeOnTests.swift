import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class SubscribeOnTests: LeakCheckedTestCase {
    func testSubscribeOn_runsTheSubscriptionOnTheScheduler() {
        let scheduler = TestScheduler()
        let current = Recorder<Bool>()
        let signal = Signal<Int, TestError> { subscriber in
            current.record(Scheduler.current === scheduler)
            subscriber.sendNext(1)
            subscriber.sendCompleted()
            return nil
        }
        let recorder = signal.subscribe(on: scheduler).record()
        XCTAssertEqual(current.values, [])
        XCTAssertEqual(recorder.events, [])
        scheduler.run()
        XCTAssertEqual(current.values, [true])
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }

    func testSubscribeOn_doesNotMoveTheEvents() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let onMain = Recorder<Bool>()
        let recorder = source.signal.subscribe(on: scheduler)
            .doNextForTest { _ in onMain.record(Thread.isMainThread && Scheduler.current !== scheduler) }
            .record()
        scheduler.run()
        source.input.sendNext(1)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(onMain.values, [true])
    }

    func testSubscribeOn_doesNotMoveDisposal() {
        let scheduler = TestScheduler()
        let log = Recorder<String>()
        let source = PipeSource { log.record(Scheduler.current === scheduler ? "disposed on the scheduler" : "disposed here") }
        let recorder = source.signal.subscribe(on: scheduler).record()
        scheduler.run()
        recorder.dispose()
        XCTAssertEqual(log.values, ["disposed here"])
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testSubscribeOn_disposalBeforeTheSubscriptionRunsCancelsIt() {
        let scheduler = TestScheduler()
        let source = TestSource([1])
        let (recorder, token) = trackingLifetime { token in
            source.signal.subscribe(on: scheduler).map { value -> Int in _ = token; return value }.record()
        }
        recorder.dispose()
        XCTAssertFalse(token.isAlive)
        scheduler.run()
        XCTAssertEqual(source.subscriptions.value, 0)
        XCTAssertEqual(recorder.events, [])
    }

    func testSubscribeOn_errorsAndEmptySources() {
        let scheduler = TestScheduler()
        let failed = TestSource<Int>([], end: .error(.first)).signal.subscribe(on: scheduler).record()
        let failedLater = TestSource([1], end: .error(.second)).signal.subscribe(on: scheduler).record()
        let empty = TestSource<Int>([]).signal.subscribe(on: scheduler).record()
        scheduler.run()
        XCTAssertEqual(failed.events, [.error(.first)])
        XCTAssertEqual(failedLater.events, [.next(1), .error(.second)])
        XCTAssertEqual(empty.events, [.completed])
    }

    func testSubscribeOn_mainQueue_disposalInsideTheFirstValueStopsARepeatingSource() {
        // A regression: the repeat loop ran on inside the main-queue block for ever.
        let source = SelfLimitingSource()
        let values = Counter()
        let box = DisposableBox()
        box.disposable = source.signal.repeat().subscribe(on: Scheduler.main).subscribe(next: { _ in
            values.increment()
            box.disposable?.dispose()
        })
        XCTAssertEqual(source.subscriptions.value, 0)
        // Queued after the subscription's block: it runs only once that block has returned.
        let later = expectation(description: "a later main-queue block ran")
        DispatchQueue.main.async { later.fulfill() }
        wait(for: [later], timeout: 10)
        XCTAssertEqual(values.value, 1)
        XCTAssertEqual(source.subscriptions.value, 1)
        XCTAssertTrue(box.disposable?.isDisposed ?? false)
    }

    func testSubscribeOn_background_disposalInsideTheFirstValueStopsARepeatingSource() {
        let scheduler = Scheduler.background()
        let source = SelfLimitingSource()
        let values = Counter()
        let subscription = source.signal.repeat().subscribe(on: scheduler).subscribeDisposingInFirstValue(counting: values)
        // The scheduler is serial: this runs once the subscription's block has returned.
        let later = DispatchSemaphore(value: 0)
        scheduler.schedule { later.signal() }
        XCTAssertEqual(later.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(values.value, 1)
        XCTAssertEqual(source.subscriptions.value, 1)
        XCTAssertTrue(subscription.isDisposed)
    }

    func testSubscribeOn_releasesTheChainAfterCompletion() {
        let scheduler = TestScheduler()
        let (subscription, token) = trackingLifetime { token in
            TestSource([1]).signal.subscribe(on: scheduler).subscribe(next: { _ in _ = token })
        }
        scheduler.run()
        XCTAssertTrue(subscription.isDisposed)
        XCTAssertFalse(token.isAlive)
    }
}
