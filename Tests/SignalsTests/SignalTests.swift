import Disposables
import Foundation
import Schedulers
@testable import Signals
import TestSupport
import XCTest

final class SignalTests: LeakCheckedTestCase {
    func testCreate_sendsValuesThenCompletes() {
        let source = TestSource([1, 2, 3])
        let recorder = source.signal.record()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testCreate_isColdAndRunsPerSubscription() {
        let source = TestSource([1])
        _ = source.signal.record()
        _ = source.signal.record()
        XCTAssertEqual(source.subscriptions.value, 2)
    }

    func testCreate_errorEndsTheSubscription() {
        let recorder = TestSource([1], end: .error(.first)).signal.record()
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
    }

    func testCreate_nothingAfterATerminalEvent() {
        let signal = Signal<Int, TestError> { subscriber in
            subscriber.sendNext(1)
            subscriber.sendCompleted()
            subscriber.sendNext(2)
            subscriber.sendError(.first)
            subscriber.sendCompleted()
            return nil
        }
        XCTAssertEqual(signal.record().events, [.next(1), .completed])
    }

    func testCreate_terminalEventDisposesBeforeReachingTheSubscriber() {
        let log = Recorder<String>()
        let signal = Signal<Int, Never> { subscriber in
            subscriber.disposable.add(Disposable { log.record("disposed") })
            subscriber.sendCompleted()
            return nil
        }
        signal.subscribe(completed: { log.record("completed") })
        XCTAssertEqual(log.values, ["disposed", "completed"])
    }

    func testDispose_runsTheCreateBlocksDisposableAndStopsEvents() {
        let source = DrivenSource<Never>()
        let input = source.input
        let recorder = source.signal.record()
        input.sendNext(1)
        recorder.dispose()
        input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(recorder.disposable.isDisposed)
    }

    func testSubscribe_everyClosureIsOptional() {
        let values = Recorder<Int>()
        let completions = Counter()
        let errors = Recorder<TestError>()
        TestSource([1, 2]).signal.subscribeNext { values.record($0) }
        TestSource([3]).signal.subscribeCompleted { completions.increment() }
        TestSource<Int>([], end: .error(.second)).signal.subscribeError { errors.record($0) }
        TestSource([4]).signal.subscribe()
        XCTAssertEqual(values.values, [1, 2])
        XCTAssertEqual(completions.value, 1)
        XCTAssertEqual(errors.values, [.second])
    }

    func testSubscribe_returnsADisposedDisposableWhenAlreadyFinished() {
        XCTAssertTrue(Signal<Int, Never>.return(1).subscribe().isDisposed)
        XCTAssertTrue(TestSource([1]).signal.subscribe().isDisposed)
    }

    func testSubscribeSubscriber_receivesTheSubscriptionAndEvents() {
        let values = Recorder<Int>()
        let subscriber = Subscriber<Int, TestError>(next: { values.record($0) })
        let disposable = TestSource([1, 2]).signal.subscribe(subscriber)
        XCTAssertEqual(values.values, [1, 2])
        XCTAssertTrue(subscriber.isDisposed)
        XCTAssertTrue(disposable.isDisposed)
    }

    func testSubscribeSubscriber_terminatedSubscriberStillRunsTheBlockAndDisposesAtOnce() {
        let subscriber = Subscriber<Int, TestError>()
        subscriber.sendCompleted()
        let source = TestSource([1], end: nil)
        let disposable = source.signal.subscribe(subscriber)
        XCTAssertEqual(source.subscriptions.value, 1)
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(disposable.isDisposed)
    }

    func testSubscription_runsInlineOnTheMainThread() {
        let log = Recorder<String>()
        let signal = Signal<Int, Never> { subscriber in
            log.record("block")
            return nil
        }
        signal.subscribe()
        log.record("after")
        XCTAssertEqual(log.values, ["block", "after"])
    }

    func testSubscription_goesToABackgroundSchedulerWhenNoneIsCurrent() {
        let seen = Recorder<Bool>()
        subscribeFromAPlainThread(Signal<Int, Never> { subscriber in
            seen.record(runsOnABackgroundScheduler)
            subscriber.sendCompleted()
            return nil
        })
        XCTAssertEqual(seen.values, [true])
    }

    func testSerialization_concurrentSendersNeverOverlap() {
        let inside = Counter()
        let overlaps = Counter()
        let received = Counter()
        let box = SubscriberBox<Int, Never>()
        let signal = Signal<Int, Never> { subscriber in
            box.subscriber = subscriber
            return nil
        }
        signal.subscribe(next: { _ in
            inside.increment()
            if inside.value != 1 { overlaps.increment() }
            received.increment()
            inside.decrement()
        })
        let subscriber = box.subscriber!
        race(threads: 4) { _ in
            for value in 0..<2_000 { subscriber.sendNext(value) }
        }
        XCTAssertEqual(overlaps.value, 0)
        XCTAssertEqual(received.value, 8_000)
    }

    func testSerialization_sendCompletedFromAnotherThreadWaitsForTheCurrentValue() {
        let log = Recorder<String>()
        let box = SubscriberBox<Int, Never>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Signal<Int, Never> { subscriber in
            box.subscriber = subscriber
            return nil
        }.subscribe(next: { _ in
            entered.signal()
            _ = release.waitForSignal()
            log.record("next done")
        }, completed: { log.record("completed") })
        let subscriber = box.subscriber!
        let sent = DispatchSemaphore(value: 0)
        Thread { subscriber.sendNext(1); sent.signal() }.start()
        XCTAssertTrue(entered.waitForSignal())
        let completing = DispatchSemaphore(value: 0)
        Thread {
            subscriber.sendCompleted()
            log.record("sendCompleted returned")
            completing.signal()
        }.start()
        release.signal()
        XCTAssertTrue(sent.waitForSignal())
        XCTAssertTrue(completing.waitForSignal())
        XCTAssertEqual(log.values, ["next done", "completed", "sendCompleted returned"])
    }

    func testReentrancy_sendFromInsideACallbackIsQueuedInOrder() {
        let log = Recorder<String>()
        let box = SubscriberBox<Int, Never>()
        Signal<Int, Never> { subscriber in
            box.subscriber = subscriber
            return nil
        }.subscribe(next: { value in
            log.record("begin \(value)")
            if value == 1 { box.subscriber?.sendNext(2) }
            log.record("end \(value)")
        })
        box.subscriber?.sendNext(1)
        XCTAssertEqual(log.values, ["begin 1", "end 1", "begin 2", "end 2"])
        // The subscriber captured its own source: end it, or the two keep each other alive.
        box.subscriber = nil
    }

    func testReentrancy_disposingFromInsideACallbackStopsDelivery() {
        let (pipe, input) = Signal<Int, Never>.pipe()
        let values = Recorder<Int>()
        let box = DisposableBox()
        box.disposable = pipe.map { $0 }.subscribe(next: { value in
            values.record(value)
            box.disposable?.dispose()
        })
        input.sendNext(1)
        input.sendNext(2)
        XCTAssertEqual(values.values, [1])
    }

    func testReentrancy_subscribingFromInsideACallback() {
        let values = Recorder<Int>()
        TestSource([1, 2]).signal.subscribe(next: { outer in
            TestSource([outer * 10]).signal.subscribe(next: { values.record($0) })
        })
        XCTAssertEqual(values.values, [10, 20])
    }

    func testMemory_nothingOutlivesACompletedSubscription() {
        weak var weakSignal: Signal<Int, TestError>?
        let (result, token) = trackingLifetime { token -> EventRecorder<Int, TestError> in
            let signal = TestSource([1, 2]).signal.map { value -> Int in _ = token; return value }
            weakSignal = signal
            return signal.record()
        }
        XCTAssertEqual(result.values, [1, 2])
        XCTAssertNil(weakSignal)
        XCTAssertFalse(token.isAlive)
    }

    func testMemory_nothingOutlivesADisposedSubscription() {
        let (pipe, input) = Signal<Int, Never>.pipe()
        let (disposable, token) = trackingLifetime { token in
            pipe.map { value -> Int in _ = token; return value }.subscribe(next: { _ in _ = token })
        }
        input.sendNext(1)
        XCTAssertTrue(token.isAlive)
        disposable.dispose()
        XCTAssertFalse(token.isAlive)
    }

    func testNamed_keepsTheNameOnlyWhenDebugging() {
        let signal = Signal<Int, Never>.never
        SignalDebug.isEnabled = false
        signal.named("quiet")
        XCTAssertNil(signal.name)
        SignalDebug.isEnabled = true
        defer { SignalDebug.isEnabled = false }
        XCTAssertEqual(signal.named("loud").name, "loud")
    }

    func testNamed_operatorsNameWhatTheyMakeAfterTheirSourceWhenDebugging() {
        SignalDebug.isEnabled = true
        defer { SignalDebug.isEnabled = false }
        let source = Signal<Int, Never>.never.named("numbers")
        XCTAssertEqual(source.map { $0 }.name, "[numbers] -map:")
        XCTAssertEqual(source.filter { _ in true }.take(2).name, "[[numbers] -filter:] -take: 2")
        XCTAssertEqual(source.flattenMap { Signal<Int, Never>.return($0) }.name, "[numbers] -flattenMap:")
        // The two-input forms that are made by a static one name theirs after this signal too.
        XCTAssertEqual(source.merge(.never).name, "[numbers] -merge:")
        XCTAssertEqual(source.zip(with: Signal<Int, Never>.never).name, "[numbers] -zipWith:")
    }

    func testNamed_operatorsLeaveNamesUnbuiltWhenNotDebugging() {
        SignalDebug.isEnabled = false
        XCTAssertNil(Signal<Int, Never>.never.map { $0 }.name)
    }
}

/// A place to keep the subscriber a create block was handed.
final class SubscriberBox<Value, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Subscriber<Value, Failure>?

    var subscriber: Subscriber<Value, Failure>? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

final class SubscriberTests: LeakCheckedTestCase {
    func testDidSubscribe_subscriptionThatEndsIsLetGo() {
        let subscriber = Subscriber<Int, TestError>()
        weak var weakSubscription: CompoundDisposable?
        do {
            let subscription = CompoundDisposable()
            weakSubscription = subscription
            subscriber.didSubscribe(with: subscription)
            subscription.dispose()
        }
        XCTAssertNil(weakSubscription)
        XCTAssertFalse(subscriber.isDisposed)
    }

    func testDidSubscribe_subscriberEndingDisposesTheSubscription() {
        let subscriber = Subscriber<Int, TestError>()
        let subscription = CompoundDisposable()
        subscriber.didSubscribe(with: subscription)
        subscriber.sendCompleted()
        XCTAssertTrue(subscription.isDisposed)
    }

    func testDidSubscribe_unendedSubscriptionIsReleasedWithTheSubscriber() {
        weak var weakSubscription: CompoundDisposable?
        do {
            let subscriber = Subscriber<Int, TestError>()
            let subscription = CompoundDisposable()
            weakSubscription = subscription
            subscriber.didSubscribe(with: subscription)
        }
        XCTAssertNil(weakSubscription)
    }
}
