import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

/// `share(replay:)`: the exact events of one connection, its reconnection after every subscriber
/// left or the source ended (with a fresh subject each time), disposal, and memory. The tests run
/// on the main thread, where a subscription runs at once; the races are in ShareStressTests and
/// the thread contexts in ThreadMatrixTests.
final class ShareTests: LeakCheckedTestCase {
    // MARK: One connection

    func testShare_passesValuesAndCompletion_subscribingTheSourceOnce() {
        let source = TestSource([1, 2, 3])
        XCTAssertEqual(source.signal.share().record().events, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(source.subscriptions.value, 1)
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testShare_passesTheError() {
        let source = TestSource([1], end: .error(.second))
        XCTAssertEqual(source.signal.share().record().events, [.next(1), .error(.second)])
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.share().record().events, [.error(.first)])
    }

    func testShare_completesAnEmptySource() {
        XCTAssertEqual(TestSource<Int>([]).signal.share(replay: 1).record().events, [.completed])
    }

    func testShare_laterSubscribersJoinTheConnection_andGetOnlyWhatComesAfter() {
        let source = DrivenSource<TestError>()
        let shared = source.signal.share()
        let first = shared.record()
        source.input.sendNext(1)
        let second = shared.record()
        source.input.sendNext(2)
        source.input.sendCompleted()
        XCTAssertEqual(first.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(second.events, [.next(2), .completed])
        XCTAssertEqual(source.subscriptions.value, 1)
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testShareReplay_laterSubscribersGetTheLatestValuesFirst() {
        let source = DrivenSource<TestError>()
        let shared = source.signal.share(replay: 2)
        let first = shared.record()
        for value in 1...3 { source.input.sendNext(value) }
        let second = shared.record()
        source.input.sendNext(4)
        XCTAssertEqual(first.values, [1, 2, 3, 4])
        XCTAssertEqual(second.values, [2, 3, 4])
        XCTAssertEqual(source.subscriptions.value, 1)
        first.dispose()
        second.dispose()
    }

    // MARK: Connecting again

    func testShare_aSynchronousSourceRunsAgainForEachSubscriberThatComesAfterTheEnd() {
        let subscriptions = Counter()
        let shared = Signal<Int, TestError> { subscriber in
            subscriptions.increment()
            subscriber.sendNext(1)
            subscriber.sendCompleted()
            return nil
        }.share()
        XCTAssertEqual(shared.record().events, [.next(1), .completed])
        XCTAssertEqual(shared.record().events, [.next(1), .completed])
        XCTAssertEqual(subscriptions.value, 2)
        XCTAssertEqual(Signal<Int, TestError>.return(1).share(replay: 1).record().events, [.next(1), .completed])
    }

    func testShare_connectsAgainAfterEverySubscriberLeft_throughAFreshSubject() {
        let source = DrivenSource<TestError>()
        let shared = source.signal.share(replay: 1)
        let first = shared.record()
        let second = shared.record()
        source.input.sendNext(1)
        first.dispose()
        XCTAssertEqual(source.disposals.value, 0, "one subscriber is left")
        source.input.sendNext(2)
        second.dispose()
        XCTAssertEqual(source.disposals.value, 1, "the last one out disposes the source's subscription")
        source.input.sendNext(3)   // to no connection

        let third = shared.record()
        XCTAssertEqual(source.subscriptions.value, 2)
        // Nothing of the first connection: not its kept 2.
        XCTAssertEqual(third.events, [])
        source.input.sendNext(4)
        source.input.sendCompleted()
        XCTAssertEqual(first.events, [.next(1)])
        XCTAssertEqual(second.events, [.next(1), .next(2)])
        XCTAssertEqual(third.events, [.next(4), .completed])
        XCTAssertEqual(source.disposals.value, 2)
    }

    func testShare_connectsAgainAfterTheSourceEnded_withoutItsTerminalEventOrValues() {
        let source = DrivenSource<TestError>()
        let shared = source.signal.share(replay: 3)
        let first = shared.record()
        source.input.sendNext(1)
        source.input.sendError(.first)
        XCTAssertEqual(first.events, [.next(1), .error(.first)])

        // DrivenSource's pipe ended with its error: the next connection gets it again, at once,
        // from the source itself (a resubscription), not from the old subject.
        let second = shared.record()
        XCTAssertEqual(source.subscriptions.value, 2)
        XCTAssertEqual(second.events, [.error(.first)])

        let counter = Counter()
        let fresh = Signal<Int, TestError> { subscriber in
            counter.increment()
            subscriber.sendNext(counter.value * 10)
            if counter.value == 1 { subscriber.sendError(.second) }
            return nil
        }.share(replay: 1)
        XCTAssertEqual(fresh.record().events, [.next(10), .error(.second)])
        let again = fresh.record()
        XCTAssertEqual(again.events, [.next(20)], "a fresh subject: neither the 10 kept nor the error")
        again.dispose()
    }

    func testShare_aSubscriberFromInsideTheTerminalEventStartsTheNextConnection() {
        let source = DrivenSource<TestError>()
        let shared = source.signal.share()
        let late = Recorder<EventRecorder<Int, TestError>>()
        let first = shared.subscribe(completed: { late.record(shared.record()) })
        source.input.sendCompleted()
        XCTAssertTrue(first.isDisposed)
        XCTAssertEqual(source.subscriptions.value, 2, "the subscriber made inside the completion connected again")
        // The pipe has completed, so the new connection completes at once.
        XCTAssertEqual(late.values.map(\.events), [[.completed]])
    }

    // MARK: Disposal

    func testShare_disposingInsideTheFirstValueStopsASynchronousSource() {
        let limited = SelfLimitingSource()
        let values = Counter()
        let disposable = limited.signal.repeat().share().subscribeDisposingInFirstValue(counting: values)
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertEqual(values.value, 1)
        XCTAssertEqual(limited.subscriptions.value, 1, "the repeat stopped at its first subscription")
    }

    func testShare_disposingInsideTheFirstValueOfTwoSubscribersKeepsTheOther() {
        let source = DrivenSource<TestError>()
        let shared = source.signal.share()
        let values = Counter()
        shared.subscribeDisposingInFirstValue(counting: values)
        let other = shared.record()
        source.input.sendNext(1)
        source.input.sendNext(2)
        XCTAssertEqual(values.value, 1)
        XCTAssertEqual(other.values, [1, 2])
        XCTAssertEqual(source.disposals.value, 0)
        other.dispose()
        XCTAssertEqual(source.disposals.value, 1)
        source.input.sendNext(3)
        XCTAssertEqual(other.values, [1, 2], "nothing after disposal")
    }

    func testShare_disposedBeforeTheSourceSendsNothingMore() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.share(replay: 1).record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 1)
    }

    // MARK: Memory

    func testShare_onceEverySubscriberLeftNothingOfTheConnectionIsAlive() {
        let work = Lock<WeakReference<LifetimeToken>?>(nil)
        let (pipe, input) = Signal<Int, TestError>.pipe()
        // After the pipe, whose input is counted while it lives.
        let before = SignalDiagnostics.liveSubscriptionCount
        let shared = Signal<Int, TestError> { subscriber in
            let token = LifetimeToken()
            work.withLock { $0 = WeakReference(token) }
            let inner = pipe.subscribe(subscriber)
            return Disposable {
                _ = token
                inner.dispose()
            }
        }.share(replay: 1)
        // In a function of its own, so that the recorders, which hold their disposables, are
        // gone before the count is read.
        func subscribeTwiceThenLeave() {
            let first = shared.record()
            let second = shared.record()
            input.sendNext(1)
            XCTAssertEqual(work.withLock { $0?.isAlive }, true)
            first.dispose()
            second.dispose()
            XCTAssertEqual(first.events, [.next(1)])
        }
        subscribeTwiceThenLeave()
        XCTAssertEqual(work.withLock { $0?.isAlive }, false, "the source's subscription was let go of")
        XCTAssertEqual(SignalDiagnostics.liveSubscriptionCount, before, "no subscription is left alive while the shared signal is kept")
        withExtendedLifetime(shared) {}
        input.sendCompleted()
    }

    func testShare_letGoOfWhileSubscribed_freesEverythingOnceTheSourceEnds() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let (recorder, token) = trackingLifetime { token -> EventRecorder<Int, TestError> in
            // The shared signal is let go of as this closure returns; its subscription runs on.
            pipe.map { _ = token; return $0 }.share().record()
        }
        input.sendNext(1)
        XCTAssertTrue(token.isAlive)
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
        XCTAssertFalse(token.isAlive)
    }

    func testShare_letGoOfWhileSubscribedToAHotSourceThatIsLetGoOfToo_freesEverything() {
        let (recorder, token) = trackingLifetime { token -> EventRecorder<Int, TestError> in
            let (pipe, input) = Signal<Int, TestError>.pipe()
            let recorder = pipe.map { _ = token; return $0 }.share(replay: 1).record()
            input.sendNext(1)
            return recorder
        }
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertFalse(token.isAlive, "nothing holds the connection once its source cannot send")
    }

    func testShare_letGoOfBeforeItsLastSubscriberLeaves_stillDisposesTheSourcesSubscription() {
        // A source that keeps nothing of its subscriber: once the shared signal is let go of, only
        // the subscriber's disposable is left to end the connection.
        let disposals = Counter()
        var shared: Signal<Int, TestError>? = Signal<Int, TestError> { _ in
            Disposable { disposals.increment() }
        }.share(replay: 1)
        weak let weakShared = shared
        let first = shared!.subscribe(next: { _ in })
        let second = shared!.subscribe(next: { _ in })
        shared = nil
        XCTAssertNil(weakShared)
        first.dispose()
        XCTAssertEqual(disposals.value, 0, "one subscriber is still there")
        second.dispose()
        XCTAssertEqual(disposals.value, 1, "the last one out disposed the source's subscription")
    }

    // MARK: Names

    func testShare_isNamedAfterItsSource() {
        SignalDebug.isEnabled = true
        defer { SignalDebug.isEnabled = false }
        XCTAssertEqual(Signal<Int, Never>.never.named("source").share(replay: 2).name, "[source] -shareReplay: 2")
        XCTAssertEqual(Signal<Int, Never>.never.named("source").share().name, "[source] -shareReplay: 0")
    }

    /// A subscriber joins at once, on the thread that subscribes, a replaying connection too: from
    /// a plain thread or a global queue, where a replay subject's own subscription goes through
    /// `Scheduler.subscription`, the values a hot source sends after `subscribe` has returned all
    /// reach it (a hostile review saw `[3]` of `[1, 2, 3]` in 35 of 50 runs on a global queue).
    func testShare_firstSubscriberOnAPlainThreadOrAGlobalQueue_getsEverythingSentAfterSubscribeReturned() {
        for replay in [0, 1, 2] {
            for onAGlobalQueue in [false, true] {
                for _ in 0..<20 {
                    let (pipe, input) = Signal<Int, Never>.pipe()
                    let shared = pipe.share(replay: replay)
                    let recorder = Lock<EventRecorder<Int, Never>?>(nil)
                    let done = Flag()
                    let body: @Sendable () -> Void = {
                        let recording = shared.record()
                        for value in 1...3 { input.sendNext(value) }
                        recorder.withLock { $0 = recording }
                        done.set()
                    }
                    if onAGlobalQueue { DispatchQueue.global().async(execute: body) } else { _ = startThread("subscriber", body) }
                    XCTAssertTrue(pollWithoutRunningTheMainQueue { done.isSet })
                    let recording = recorder.withLock { $0! }
                    XCTAssertEqual(recording.values, [1, 2, 3], "replay \(replay), \(onAGlobalQueue ? "a global queue" : "a plain thread")")
                    recording.dispose()
                }
            }
        }
    }
}
