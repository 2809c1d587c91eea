import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// `retry(_:delay:on:)` and `RetryDelay`, in virtual time.
final class RetryDelayTests: LeakCheckedTestCase {
    private typealias Events = [Stamped<Int, TestError>]

    // MARK: RetryDelay

    func testRetryDelay_constantIsTheSameEveryTime() {
        XCTAssertEqual((1...4).map { RetryDelay.constant(1.5).delay(beforeRetry: $0) }, [1.5, 1.5, 1.5, 1.5])
    }

    func testRetryDelay_exponentialGrowsByTheMultiplierUpToTheCap() {
        let delay = RetryDelay.exponential(initial: 1, multiplier: 3, maximum: 20)
        XCTAssertEqual((1...5).map { delay.delay(beforeRetry: $0) }, [1, 3, 9, 20, 20])
        XCTAssertEqual(RetryDelay.exponential(initial: 0.5).delay(beforeRetry: 4), 4, "doubles by default")
        XCTAssertEqual(RetryDelay.exponential(initial: 0.5).delay(beforeRetry: 2_000), .infinity, "no cap by default")
        XCTAssertEqual(RetryDelay.exponential(initial: 2, maximum: 1).delay(beforeRetry: 1), 1, "the cap holds from the first retry")
        XCTAssertEqual(RetryDelay.exponential(initial: 1, multiplier: 1).delay(beforeRetry: .max), 1)
        XCTAssertEqual(RetryDelay.exponential(initial: 0, multiplier: .infinity).delay(beforeRetry: 3), 0, "zero stays zero, never NaN")
        XCTAssertEqual(RetryDelay.exponential(initial: 1, multiplier: 2, maximum: 60).delay(beforeRetry: .max), 60, "an overflow is capped")
    }

    func testRetryDelay_isAHashableValue() {
        XCTAssertEqual(RetryDelay.exponential(initial: 1), .exponential(initial: 1, multiplier: 2, maximum: .infinity))
        XCTAssertNotEqual(RetryDelay.constant(1), .exponential(initial: 1, multiplier: 1))
        XCTAssertEqual(Set([RetryDelay.constant(1), .constant(1), .constant(2)]).count, 2)
    }

    // MARK: retry(_:delay:on:)

    func testRetryAfterDelay_resubscribesAfterTheDelayOnTheScheduler() {
        let scheduler = TestScheduler()
        let source = TimedScriptedSource(scheduler) { $0 <= 2 ? [.next($0), .error(.first)] : [.next($0), .completed] }
        let recorder = source.signal.retry(3, delay: .constant(2), on: scheduler).record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(2, .next(2)), at(4, .next(3)), at(4, .completed)] as Events)
        XCTAssertEqual(source.subscriptionTimes.values, [0, 2, 4])
    }

    func testRetryAfterDelay_exponentialBackOffGrowsToItsCapThenSendsTheLastError() {
        let scheduler = TestScheduler()
        let source = TimedScriptedSource(scheduler) { $0 <= 5 ? [.error(.first)] : [.error(.second)] }
        let recorder = source.signal
            .retry(5, delay: .exponential(initial: 1, multiplier: 3, maximum: 10), on: scheduler)
            .record(on: scheduler)
        scheduler.run()
        // Waits of 1, 3, 9, then 10 and 10 (capped): the sixth subscription's error is sent.
        XCTAssertEqual(source.subscriptionTimes.values, [0, 1, 4, 13, 23, 33])
        XCTAssertEqual(recorder.events, [at(33, .error(.second))] as Events)
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testRetryAfterDelay_succeedsAfterSomeFailuresWithRetriesToSpare() {
        let scheduler = TestScheduler()
        let source = TimedScriptedSource(scheduler) { $0 <= 2 ? [.error(.first)] : [.next(7), .completed] }
        let recorder = source.signal.retry(10, delay: .exponential(initial: 1), on: scheduler).record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(3, .next(7)), at(3, .completed)] as Events)
        XCTAssertEqual(source.subscriptionTimes.values, [0, 1, 3])
    }

    func testRetryAfterDelay_countZeroRetriesWithoutLimit() {
        let scheduler = TestScheduler()
        let source = TimedScriptedSource(scheduler) { $0 <= 50 ? [.error(.first)] : [.completed] }
        let recorder = source.signal.retry(0, delay: .constant(0.5), on: scheduler).record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(25, .completed)] as Events)
        XCTAssertEqual(source.subscriptionTimes.values.count, 51)
    }

    func testRetryAfterDelay_valuesAndCompletionPassWithoutWaiting() {
        let scheduler = TestScheduler()
        let source = TestSource([1, 2])
        let recorder = source.signal.retry(3, delay: .constant(5), on: scheduler).record(on: scheduler)
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(0, .next(2)), at(0, .completed)] as Events)
        XCTAssertTrue(scheduler.isEmpty)
        XCTAssertEqual(source.subscriptions.value, 1)
    }

    func testRetryAfterDelay_countsRetriesAcrossTheWholeSubscription() {
        // Values between two errors do not give the retries back.
        let scheduler = TestScheduler()
        let source = TimedScriptedSource(scheduler) { [.next($0), .error(.first)] }
        let recorder = source.signal.retry(2, delay: .constant(1), on: scheduler).record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(1, .next(2)), at(2, .next(3)), at(2, .error(.first))] as Events)
    }

    func testRetryAfterDelay_zeroDelayStillResubscribesOnTheScheduler() {
        let scheduler = TestScheduler()
        let source = TimedScriptedSource(scheduler) { $0 <= 1 ? [.error(.first)] : [.next(1), .completed] }
        let recorder = source.signal.retry(1, delay: .constant(0), on: scheduler).record(on: scheduler)
        XCTAssertEqual(source.subscriptionTimes.values, [0], "not resubscribed inside the failing call")
        scheduler.advance(by: 0)
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(0, .completed)] as Events)
    }

    func testRetryAfterDelay_disposalDuringTheWaitCancelsTheResubscription() {
        let scheduler = TestScheduler()
        let source = TimedScriptedSource(scheduler) { [.next($0), .error(.first)] }
        let recorder = source.signal.retry(3, delay: .constant(5), on: scheduler).record(on: scheduler)
        scheduler.advance(by: 2)
        recorder.dispose()
        XCTAssertTrue(scheduler.isEmpty, "the resubscription was not cancelled")
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(0, .next(1))] as Events)
        XCTAssertEqual(source.subscriptionTimes.values, [0])
    }

    func testRetryAfterDelay_disposalFromAValueCallbackStopsBeforeTheNextSubscription() {
        let scheduler = TestScheduler()
        let source = TimedScriptedSource(scheduler) { [.next($0), .error(.first)] }
        let box = DisposableBox()
        let values = Recorder<Int>()
        let subscriber = Subscriber<Int, TestError>(next: { value in
            values.record(value)
            if value == 2 { box.disposable?.dispose() }
        })
        box.disposable = subscriber.disposable
        source.signal.retry(0, delay: .constant(1), on: scheduler).subscribe(subscriber)
        scheduler.run()
        XCTAssertEqual(values.values, [1, 2])
        XCTAssertEqual(source.subscriptionTimes.values, [0, 1])
    }

    func testRetryAfterDelay_subscribesAgainOnTheScheduler() {
        let queue = QueueScheduler(name: "retry test")
        let onQueue = Recorder<Bool>()
        let subscriptions = Counter()
        let source = Signal<Int, TestError> { subscriber in
            subscriptions.increment()
            onQueue.record(Scheduler.current === queue)
            if subscriptions.value == 1 { subscriber.sendError(.first) } else { subscriber.sendCompleted() }
            return nil
        }
        let done = DispatchSemaphore(value: 0)
        source.retry(1, delay: .constant(0.001), on: queue).subscribe(completed: { done.signal() })
        XCTAssertTrue(done.waitForSignal())
        XCTAssertEqual(onQueue.values, [false, true])
    }

    func testRetryAfterDelay_aHundredThousandSynchronousFailuresOnImmediateOnASmallStack() {
        // Immediate runs each resubscription inside the failing call: the trampoline turns them
        // into turns of one loop.
        let failures = BuildKind.isDebug ? 20_000 : 100_000
        let subscriptions = Counter()
        let events = Recorder<Event<Int, TestError>>()
        let source = Signal<Int, TestError> { subscriber in
            subscriptions.increment()
            if subscriptions.value <= failures { subscriber.sendError(.first) } else { subscriber.sendNext(42); subscriber.sendCompleted() }
            return nil
        }
        onAPlainThread(stackSize: 256 * 1024) {
            QueueScheduler(name: "small stack").performAsCurrentScheduler {
                source.retry(0, delay: .constant(0), on: .immediate)
                    .subscribe(next: { events.record(.next($0)) }, error: { events.record(.error($0)) }, completed: { events.record(.completed) })
            }
        }
        XCTAssertEqual(events.values, [.next(42), .completed])
        XCTAssertEqual(subscriptions.value, failures + 1)
    }

    func testRetryAfterDelay_tenThousandFailuresInVirtualTime() {
        let scheduler = TestScheduler()
        let source = TimedScriptedSource(scheduler) { $0 <= 10_000 ? [.error(.first)] : [.next(1), .completed] }
        let recorder = source.signal.retry(0, delay: .constant(1), on: scheduler).record(on: scheduler)
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(10_000, .next(1)), at(10_000, .completed)] as Events)
    }

    func testRetryAfterDelay_releasesEverythingAfterTheErrorAndAfterDisposalDuringAWait() {
        let scheduler = TestScheduler()
        let (failed, failedToken) = trackingLifetime { token in
            Signal<Int, TestError> { subscriber in
                _ = token
                subscriber.sendError(.first)
                return nil
            }.retry(2, delay: .constant(1), on: scheduler).record(on: scheduler)
        }
        scheduler.run()
        XCTAssertEqual(failed.events, [at(2, .error(.first))] as Events)
        XCTAssertFalse(failedToken.isAlive)

        let (waiting, waitingToken) = trackingLifetime { token in
            Signal<Int, TestError> { subscriber in
                _ = token
                subscriber.sendError(.first)
                return nil
            }.retry(2, delay: .constant(1), on: scheduler).record(on: scheduler)
        }
        XCTAssertTrue(waitingToken.isAlive, "the source is held for the resubscription")
        waiting.dispose()
        XCTAssertFalse(waitingToken.isAlive, "disposal during the wait released it")
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testRetryAfterDelay_badInputStops() {
        let source = Signal<Int, TestError>.never
        let scheduler = TestScheduler()
        let cases: [(String, String, () -> Void)] = [
            ("negative count", "retry(_:delay:on:) needs a count of zero (no limit) or more, got -1", { _ = source.retry(-1, delay: .constant(1), on: scheduler) }),
            ("negative delay", "retry(_:delay:on:) needs a delay of zero or more, got -1.0", { _ = source.retry(1, delay: .constant(-1), on: scheduler) }),
            ("NaN delay", "retry(_:delay:on:) needs a delay of zero or more, got nan", { _ = source.retry(1, delay: .constant(.nan), on: scheduler) }),
            ("negative initial", "retry(_:delay:on:) needs an initial delay of zero or more, got -0.5", { _ = source.retry(1, delay: .exponential(initial: -0.5), on: scheduler) }),
            ("NaN initial", "retry(_:delay:on:) needs an initial delay of zero or more, got nan", { _ = source.retry(1, delay: .exponential(initial: .nan), on: scheduler) }),
            ("multiplier below 1", "retry(_:delay:on:) needs a multiplier of 1 or more, got 0.5", { _ = source.retry(1, delay: .exponential(initial: 1, multiplier: 0.5), on: scheduler) }),
            ("NaN multiplier", "retry(_:delay:on:) needs a multiplier of 1 or more, got nan", { _ = source.retry(1, delay: .exponential(initial: 1, multiplier: .nan), on: scheduler) }),
            ("negative maximum", "retry(_:delay:on:) needs a maximum delay of zero or more, got -1.0", { _ = source.retry(1, delay: .exponential(initial: 1, maximum: -1), on: scheduler) }),
            ("NaN maximum", "retry(_:delay:on:) needs a maximum delay of zero or more, got nan", { _ = source.retry(1, delay: .exponential(initial: 1, maximum: .nan), on: scheduler) }),
            ("retry zero", "RetryDelay.delay(beforeRetry:) counts retries from 1, got 0", { _ = RetryDelay.constant(1).delay(beforeRetry: 0) }),
        ]
        for (name, message, body) in cases {
            if let failure = expectStop(name, in: self, messageContains: message, body) {
                XCTFail(failure)
            }
        }
    }
}

/// A cold signal whose `n`-th subscription (from 1) sends `script(n)` synchronously, and which
/// records the virtual time of each subscription.
private final class TimedScriptedSource: Sendable {
    let subscriptionTimes = Recorder<TimeInterval>()
    let signal: Signal<Int, TestError>

    init(_ scheduler: TestScheduler, _ script: @escaping @Sendable (Int) -> [Event<Int, TestError>]) {
        let times = subscriptionTimes
        let count = Counter()
        signal = Signal { subscriber in
            times.record(elapsed(scheduler))
            count.increment()
            for event in script(count.value) { subscriber.sendEvent(event) }
            return nil
        }
    }
}
