import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class DeliverOnTests: LeakCheckedTestCase {
    func testDeliverOn_schedulesEachEventSeparately() {
        let scheduler = TestScheduler()
        let recorder = TestSource([1, 2]).signal.deliver(on: scheduler).record()
        XCTAssertEqual(recorder.events, [])
        scheduler.step()
        XCTAssertEqual(recorder.events, [.next(1)])
        scheduler.step()
        XCTAssertEqual(recorder.events, [.next(1), .next(2)])
        scheduler.step()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testDeliverOn_deliversOnTheScheduler() {
        let scheduler = TestScheduler()
        let current = Recorder<Bool>()
        TestSource([1], end: .error(.first)).signal.deliver(on: scheduler).subscribe(
            next: { _ in current.record(Scheduler.current === scheduler) },
            error: { _ in current.record(Scheduler.current === scheduler) }
        )
        scheduler.run()
        XCTAssertEqual(current.values, [true, true])
    }

    func testDeliverOn_errorsAndEmptySources() {
        let scheduler = TestScheduler()
        let failed = TestSource<Int>([], end: .error(.first)).signal.deliver(on: scheduler).record()
        let failedLater = TestSource([1], end: .error(.second)).signal.deliver(on: scheduler).record()
        let empty = TestSource<Int>([]).signal.deliver(on: scheduler).record()
        scheduler.run()
        XCTAssertEqual(failed.events, [.error(.first)])
        XCTAssertEqual(failedLater.events, [.next(1), .error(.second)])
        XCTAssertEqual(empty.events, [.completed])
    }

    func testDeliverOn_keepsTheOrderOnAQueueScheduler() {
        let scheduler = QueueScheduler(name: "deliver test")
        let (signal, input) = Signal<Int, Never>.pipe()
        let values = Recorder<Int>()
        let onScheduler = Recorder<Bool>()
        let done = DispatchSemaphore(value: 0)
        signal.deliver(on: scheduler).subscribe(next: { value in
            values.record(value)
            onScheduler.record(Scheduler.current === scheduler)
        }, completed: { done.signal() })
        onAPlainThread {
            for value in 0..<1000 { input.sendNext(value) }
            input.sendCompleted()
        }
        XCTAssertTrue(done.waitForSignal())
        XCTAssertEqual(values.values, Array(0..<1000))
        XCTAssertEqual(Set(onScheduler.values), [true])
    }

    func testDeliverOn_disposalCancelsTheEventsWaitingAndReleasesThem() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.deliver(on: scheduler).record()
        source.input.sendNext(1)
        scheduler.run()
        source.input.sendNext(2)
        recorder.dispose()
        XCTAssertTrue(scheduler.isEmpty)
        source.input.sendNext(3)
        scheduler.run()
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 1)

        let (tokens, input) = Signal<LifetimeToken, Never>.pipe()
        let (subscription, waiting) = trackingLifetime { token in
            let subscription = tokens.deliver(on: scheduler).subscribe()
            input.sendNext(token)
            return subscription
        }
        XCTAssertTrue(waiting.isAlive)
        subscription.dispose()
        XCTAssertFalse(waiting.isAlive)
    }

    func testDeliverOn_disposalInsideTheFirstValueStopsARepeatingSourceStillLooping() {
        for scheduler in [Scheduler.main, Scheduler.background()] {
            let subscriptions = Counter()
            let disposed = DispatchSemaphore(value: 0)
            // Sends 1 and completes, synchronously; the first subscription completes only once its
            // value has been disposed of on `scheduler`, so the loop is running then. From the
            // hundredth on it does not complete, so a loop nothing stops ends there.
            let source = Signal<Int, TestError> { subscriber in
                subscriptions.increment()
                subscriber.sendNext(1)
                if subscriptions.value == 1 { _ = disposed.wait(timeout: .now() + 10) }
                if subscriptions.value < 100 { subscriber.sendCompleted() }
                return nil
            }
            let values = Counter()
            let loopEnded = expectation(description: "the repeat loop ended")
            Thread {
                // With a scheduler current, the whole loop runs inside the subscribing call.
                QueueScheduler(name: "looping").performAsCurrentScheduler {
                    source.repeat().deliver(on: scheduler)
                        .subscribeDisposingInFirstValue(counting: values, afterDisposing: { disposed.signal() })
                }
                loopEnded.fulfill()
            }.start()
            // On the main thread, this runs the main queue, where `Scheduler.main` delivers.
            wait(for: [loopEnded], timeout: 10)
            XCTAssertEqual(values.value, 1, "\(scheduler)")
            XCTAssertEqual(subscriptions.value, 1, "\(scheduler)")
        }
    }

    func testDeliverOn_releasesTheChainAfterCompletion() {
        let scheduler = TestScheduler()
        let (subscription, token) = trackingLifetime { token in
            TestSource([1]).signal.deliver(on: scheduler).subscribe(next: { _ in _ = token })
        }
        scheduler.run()
        XCTAssertTrue(subscription.isDisposed)
        XCTAssertFalse(token.isAlive)
    }

    func testDeliverOnMainThread_deliversInlineOnTheMainThreadWhenNothingWaits() {
        let recorder = TestSource([1, 2]).signal.deliverOnMainThread().record()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
    }

    func testDeliverOnMainThread_deliversOnTheMainQueueFromOtherThreadsInOrder() {
        let source = PipeSource()
        let onMain = Recorder<Bool>()
        let completed = expectation(description: "completed")
        let recorder = source.signal.deliverOnMainThread()
            .doNextForTest { _ in onMain.record(Thread.isMainThread) }
            .record()
        let finished = source.signal.deliverOnMainThread().subscribe(completed: { completed.fulfill() })
        onAPlainThread { source.input.sendNext(1) }
        // Something is waiting for the main queue: a value sent on the main thread waits its turn.
        source.input.sendNext(2)
        XCTAssertEqual(recorder.events, [])
        onAPlainThread {
            source.input.sendNext(3)
            source.input.sendCompleted()
        }
        wait(for: [completed], timeout: 10)
        // The first subscription's events were queued before the second's completion.
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(onMain.values, [true, true, true])
        _ = finished
    }

    func testDeliverOnMainThread_disposalDropsWhatWaits() {
        let source = PipeSource()
        let recorder = source.signal.deliverOnMainThread().record()
        onAPlainThread { source.input.sendNext(1) }
        recorder.dispose()
        let drained = expectation(description: "main queue drained")
        DispatchQueue.main.async { drained.fulfill() }
        wait(for: [drained], timeout: 10)
        XCTAssertEqual(recorder.events, [])
        XCTAssertEqual(source.disposals.value, 1)
    }
}
