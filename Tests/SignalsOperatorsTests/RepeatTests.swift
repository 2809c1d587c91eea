import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class RepeatTests: LeakCheckedTestCase {
    // MARK: repeat

    func testRepeat_resubscribesAfterEachCompletion() {
        let source = TestSource([1, 2])
        XCTAssertEqual(source.signal.repeat().take(5).record().events, [.next(1), .next(2), .next(1), .next(2), .next(1), .completed])
        XCTAssertEqual(source.subscriptions.value, 3)
    }

    func testRepeat_takeEndsItAndDisposesEverySubscription() {
        let source = TestSource([1])
        XCTAssertEqual(source.signal.repeat().take(3).record().events, [.next(1), .next(1), .next(1), .completed])
        XCTAssertEqual(source.subscriptions.value, 3)
        XCTAssertEqual(source.disposals.value, 3)
    }

    func testRepeat_errorAtTheStart() {
        let source = TestSource<Int>([], end: .error(.first))
        XCTAssertEqual(source.signal.repeat().record().events, [.error(.first)])
        XCTAssertEqual(source.subscriptions.value, 1)
    }

    func testRepeat_errorInALaterSubscriptionEndsIt() {
        let source = ScriptedSource { $0 <= 2 ? [.next(10), .completed] : [.error(.first)] }
        let recorder = source.signal.repeat().record()
        // Two subscriptions complete after their value; the third fails at once.
        XCTAssertEqual(recorder.events, [.next(10), .next(10), .error(.first)])
        XCTAssertEqual(source.subscriptions.value, 3)
    }

    func testRepeat_resubscribesAnAsynchronousSourceWhenItCompletes() {
        let source = PipedSource()
        let recorder = source.signal.repeat().record()
        source.send(.next(1))
        source.send(.completed)
        source.send(.next(2))
        XCTAssertEqual(recorder.events, [.next(1), .next(2)])
        XCTAssertEqual(source.subscriptions.value, 2)
        recorder.dispose()
        XCTAssertEqual(source.disposals.value, 2)
    }

    func testRepeat_disposalDuringASubscription() {
        let source = PipedSource()
        let recorder = source.signal.repeat().record()
        source.send(.next(1))
        recorder.dispose()
        source.send(.next(2))
        source.send(.completed)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.subscriptions.value, 1)
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(recorder.disposable.isDisposed)
    }

    func testRepeat_disposalFromAValueCallbackStopsBeforeTheNextSubscription() {
        let source = TestSource([1, 2])
        let values = Recorder<Int>()
        // A subscriber knows its disposable before the synchronous source sends anything.
        let box = DisposableBox()
        let subscriber = Subscriber<Int, TestError>(next: { value in
            values.record(value)
            // The source still sends its completion after this: no subscription follows.
            if value == 2 { box.disposable?.dispose() }
        })
        box.disposable = subscriber.disposable
        let subscription = source.signal.repeat().subscribe(subscriber)
        XCTAssertEqual(values.values, [1, 2])
        XCTAssertEqual(source.subscriptions.value, 1)
        XCTAssertTrue(subscription.isDisposed)
    }

    func testRepeat_disposalBetweenTwoSubscriptionsOfAnAsynchronousSource() {
        // The source completes, and the subscriber disposes before the next subscription sends.
        let source = PipedSource()
        let recorder = source.signal.repeat().record()
        source.send(.completed)
        XCTAssertEqual(source.subscriptions.value, 2)
        recorder.dispose()
        source.send(.next(1))
        source.send(.completed)
        XCTAssertEqual(recorder.events, [])
        XCTAssertEqual(source.subscriptions.value, 2)
        XCTAssertEqual(source.disposals.value, 2)
    }

    func testRepeat_aHundredThousandSynchronousRepetitionsOnASmallStackWithoutAHop() {
        // A million take about half a second in a debug build; the benchmarks time a million.
        let repetitions = 100_000
        let count = Counter()
        let completed = Counter()
        let offThread = Counter()
        onAPlainThread(stackSize: 256 * 1024) {
            QueueScheduler(name: "small stack").performAsCurrentScheduler {
                let subscribing = pthread_self()
                Signal<Int, Never>.return(1).repeat().take(repetitions).subscribe(next: { _ in
                    count.increment()
                    if pthread_equal(pthread_self(), subscribing) == 0 { offThread.increment() }
                }, completed: { completed.increment() })
                // Everything happened before subscribe returned.
                XCTAssertEqual(completed.value, 1)
            }
        }
        XCTAssertEqual(count.value, repetitions)
        XCTAssertEqual(offThread.value, 0)
    }

    func testRepeat_disposalFromAnotherThreadStopsASynchronousLoop() {
        let count = Counter()
        let box = DisposableBox()
        let subscriber = Subscriber<Int, Never>(next: { _ in count.increment() })
        box.disposable = subscriber.disposable
        let finished = DispatchSemaphore(value: 0)
        Thread {
            QueueScheduler(name: "looping").performAsCurrentScheduler {
                // Returns only once the loop has stopped.
                Signal<Int, Never>.return(1).repeat().subscribe(subscriber)
            }
            finished.signal()
        }.start()
        XCTAssertTrue(eventually { count.value >= 1_000 }, "the loop did not get going")
        box.disposable?.dispose()
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(subscriber.isDisposed)
    }

    func testRepeat_releasesEverythingAfterTake() {
        let (recorder, token) = trackingLifetime { token in
            Signal<Int, TestError> { subscriber in
                _ = token
                subscriber.sendNext(1)
                subscriber.sendCompleted()
                return nil
            }.repeat().take(2).record()
        }
        XCTAssertEqual(recorder.events, [.next(1), .next(1), .completed])
        XCTAssertFalse(token.isAlive)
    }

    func testRepeat_releasesEverythingAfterDisposal() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let (recorder, token) = trackingLifetime { token in
            pipe.map { _ = token; return $0 }.repeat().record()
        }
        input.sendNext(1)
        recorder.dispose()
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertFalse(token.isAlive)
    }

    // MARK: retry

    func testRetry_resubscribesAfterEachErrorAndForwardsCompletion() {
        let source = ScriptedSource { [.next(1), $0 <= 2 ? .error(.first) : .completed] }
        let recorder = source.signal.retry().record()
        // Two subscriptions fail after their value, the third completes after it.
        XCTAssertEqual(recorder.events, [.next(1), .next(1), .next(1), .completed])
        XCTAssertEqual(source.subscriptions.value, 3)
    }

    func testRetry_completionWithoutErrorIsUnchanged() {
        let source = TestSource([1, 2])
        XCTAssertEqual(source.signal.retry().record().events, [.next(1), .next(2), .completed])
        XCTAssertEqual(source.signal.retry(3).record().events, [.next(1), .next(2), .completed])
        XCTAssertEqual(source.subscriptions.value, 2)
    }

    func testRetry_emptySource() {
        XCTAssertEqual(TestSource<Int>([]).signal.retry(1).record().events, [.completed])
    }

    func testRetryCount_resubscribesAtMostCountTimesThenSendsTheError() {
        let source = TestSource([1], end: .error(.first))
        XCTAssertEqual(source.signal.retry(2).record().events, [.next(1), .next(1), .next(1), .error(.first)])
        XCTAssertEqual(source.subscriptions.value, 3)
        XCTAssertEqual(source.disposals.value, 3)
    }

    func testRetryCount_oneResubscription() {
        let source = TestSource<Int>([], end: .error(.second))
        XCTAssertEqual(source.signal.retry(1).record().events, [.error(.second)])
        XCTAssertEqual(source.subscriptions.value, 2)
    }

    func testRetryZero_retriesForeverLikeRetry() {
        let source = ScriptedSource { [.next(5), $0 <= 50 ? .error(.first) : .completed] }
        let recorder = source.signal.retry(0).record()
        XCTAssertEqual(recorder.values.count, 51)
        XCTAssertEqual(recorder.events.last, .completed)
        XCTAssertEqual(source.subscriptions.value, 51)
    }

    func testRetry_countsAcrossAsynchronousErrors() {
        let source = PipedSource()
        let recorder = source.signal.retry(1).record()
        source.send(.next(1))
        source.send(.error(.first))
        source.send(.next(2))
        source.send(.error(.second))
        source.send(.next(3))
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .error(.second)])
        XCTAssertEqual(source.subscriptions.value, 2)
        XCTAssertEqual(source.disposals.value, 2)
    }

    func testRetry_disposalDuringASubscription() {
        let source = PipedSource()
        let recorder = source.signal.retry().record()
        source.send(.error(.first))
        source.send(.next(1))
        recorder.dispose()
        source.send(.error(.first))
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.subscriptions.value, 2)
        XCTAssertEqual(source.disposals.value, 2)
    }

    func testRetry_disposalFromAValueCallbackStopsBeforeTheNextSubscription() {
        let source = TestSource([1], end: .error(.first))
        let values = Recorder<Int>()
        let box = DisposableBox()
        let subscriber = Subscriber<Int, TestError>(next: { value in
            values.record(value)
            box.disposable?.dispose()
        })
        box.disposable = subscriber.disposable
        source.signal.retry().subscribe(subscriber)
        XCTAssertEqual(values.values, [1])
        XCTAssertEqual(source.subscriptions.value, 1)
    }

    func testRetry_aHundredThousandSynchronousFailuresOnASmallStackWithoutAHop() {
        let source = ScriptedSource { $0 <= 100_000 ? [.error(.first)] : [.next(42), .completed] }
        let events = Recorder<Event<Int, TestError>>()
        let offThread = Counter()
        onAPlainThread(stackSize: 256 * 1024) {
            QueueScheduler(name: "small stack").performAsCurrentScheduler {
                let subscribing = pthread_self()
                source.signal.retry().subscribe(next: { value in
                    events.record(.next(value))
                    if pthread_equal(pthread_self(), subscribing) == 0 { offThread.increment() }
                }, error: { events.record(.error($0)) }, completed: { events.record(.completed) })
            }
        }
        XCTAssertEqual(events.values, [.next(42), .completed])
        XCTAssertEqual(source.subscriptions.value, 100_001)
        XCTAssertEqual(offThread.value, 0)
    }

    func testRetry_releasesEverythingAfterTheError() {
        let (recorder, token) = trackingLifetime { token in
            Signal<Int, TestError> { subscriber in
                _ = token
                subscriber.sendError(.first)
                return nil
            }.retry(3).record()
        }
        XCTAssertEqual(recorder.events, [.error(.first)])
        XCTAssertFalse(token.isAlive)
    }

    func testRetry_releasesEverythingAfterDisposal() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let (recorder, token) = trackingLifetime { token in
            pipe.map { _ = token; return $0 }.retry().record()
        }
        input.sendNext(1)
        recorder.dispose()
        XCTAssertFalse(token.isAlive)
    }
}

/// A cold signal whose `n`-th subscription (from 1) sends `script(n)` synchronously.
private final class ScriptedSource: Sendable {
    let subscriptions = Counter()
    let signal: Signal<Int, TestError>

    init(_ script: @escaping @Sendable (Int) -> [Event<Int, TestError>]) {
        let subscriptions = subscriptions
        signal = Signal { subscriber in
            subscriptions.increment()
            for event in script(subscriptions.value) { subscriber.sendEvent(event) }
            return nil
        }
    }
}

/// A cold signal whose subscriptions all listen to one hand-driven stream of events: each
/// subscription receives what `send(_:)` sends while it is subscribed, terminal events included.
private final class PipedSource: Sendable {
    let subscriptions = Counter()
    let disposals = Counter()
    let signal: Signal<Int, TestError>
    private let subscribers = SubscriberList()

    init() {
        let subscriptions = subscriptions
        let disposals = disposals
        let subscribers = subscribers
        signal = Signal { subscriber in
            subscriptions.increment()
            subscribers.list.withLock { $0.append(subscriber) }
            return Disposable { disposals.increment() }
        }
    }

    /// Sends `event` to every live subscription; a terminal event ends those subscriptions.
    func send(_ event: Event<Int, TestError>) {
        let live = subscribers.list.withLock { subscribers in
            subscribers.removeAll { $0.isDisposed }
            defer { if event.isFinished { subscribers.removeAll() } }
            return subscribers
        }
        for subscriber in live { subscriber.sendEvent(event) }
    }
}

private final class SubscriberList: Sendable {
    let list = Lock<[Subscriber<Int, TestError>]>([])
}
