import Disposables
import Signals
@testable import Subjects
import TestSupport
import XCTest

final class SubjectTests: LeakCheckedTestCase {
    func testSubject_everyCurrentSubscriberGetsEveryEvent() {
        let subject = Subject<Int, TestError>()
        subject.sendNext(0)
        let first = subject.record()
        subject.sendNext(1)
        let second = subject.record()
        subject.sendNext(2)
        subject.sendCompleted()
        XCTAssertEqual(first.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(second.events, [.next(2), .completed])
    }

    func testSubject_errorReachesEverySubscriberOnce() {
        let subject = Subject<Int, TestError>()
        let first = subject.record()
        let second = subject.record()
        subject.sendError(.first)
        subject.sendError(.second)
        subject.sendCompleted()
        XCTAssertEqual(first.events, [.error(.first)])
        XCTAssertEqual(second.events, [.error(.first)])
    }

    func testSubject_lateSubscriberGetsTheTerminalEventAtOnce_andSendsAfterItAreIgnored() {
        let subject = Subject<Int, TestError>()
        subject.sendCompleted()
        subject.sendNext(1)
        subject.sendError(.first)
        XCTAssertEqual(subject.record().events, [.completed])
    }

    func testSubject_lateSubscriberGetsTheErrorAtOnce() {
        let subject = Subject<Int, TestError>()
        subject.sendError(.second)
        subject.sendCompleted()
        XCTAssertEqual(subject.record().events, [.error(.second)])
        XCTAssertEqual(subject.record().events, [.error(.second)])
    }

    func testSubject_subscriberAddedDuringADeliveryDoesNotGetThatValue() {
        let subject = Subject<Int, Never>()
        let late = Recorder<Int>()
        let added = Counter()
        subject.subscribe(next: { _ in
            guard added.value == 0 else { return }
            added.increment()
            subject.subscribe(next: { late.record($0) })
        })
        subject.sendNext(1)
        subject.sendNext(2)
        XCTAssertEqual(late.values, [2])
        // The subscriber captured its own subject: end it, or the two keep each other alive.
        subject.sendCompleted()
    }

    func testSubject_subscriberRemovedDuringADeliveryGetsNothingAfter() {
        let subject = Subject<Int, Never>()
        let second = Recorder<Int>()
        let secondSubscription = DisposableBox()
        subject.subscribe(next: { _ in secondSubscription.disposable?.dispose() })
        secondSubscription.disposable = subject.subscribe(next: { second.record($0) })
        subject.sendNext(1)
        subject.sendNext(2)
        XCTAssertEqual(second.values, [])
    }

    func testSubject_reentrantSendsAreQueuedAndReachEverySubscriberInOrder() {
        let subject = Subject<Int, Never>()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        subject.subscribe(next: { value in
            first.record(value)
            if value < 3 { subject.sendNext(value + 1) }
        })
        subject.subscribe(next: { second.record($0) })
        subject.sendNext(1)
        XCTAssertEqual(first.values, [1, 2, 3])
        XCTAssertEqual(second.values, [1, 2, 3])
        // The subscriber captured its own subject: end it, or the two keep each other alive.
        subject.sendCompleted()
    }

    func testSubject_aReentrantBurstOfAHundredThousandSendsIsDelivered() {
        let subject = Subject<Int, Never>()
        let received = Counter()
        subject.subscribe(next: { value in
            received.increment()
            if value == 0 { for next in 1...100_000 { subject.sendNext(next) } }
        })
        subject.sendNext(0)
        XCTAssertEqual(received.value, 100_001)
        // The subscriber captured its own subject: end it, or the two keep each other alive.
        subject.sendCompleted()
    }

    func testSubject_reentrantCompletionComesAfterTheQueuedValues() {
        let subject = Subject<Int, Never>()
        subject.subscribe(next: { value in
            if value == 1 {
                subject.sendNext(2)
                subject.sendCompleted()
                subject.sendNext(3)
            }
        })
        let recorder = subject.record()
        subject.sendNext(1)
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
    }

    func testSubject_aCallbackMayWaitForAnotherThreadSendingToTheSameSubject() {
        let subject = Subject<Int, Never>()
        let received = Recorder<Int>()
        subject.subscribe(next: { value in
            received.record(value)
            guard value == 1 else { return }
            let sent = DispatchSemaphore(value: 0)
            Thread {
                subject.sendNext(2)
                sent.signal()
            }.start()
            // No lock of the subject's is held here, so the other thread's send does not wait.
            XCTAssertTrue(sent.waitForSignal(), "the other thread's send waited for this callback")
        })
        subject.sendNext(1)
        XCTAssertEqual(received.values, [1, 2])
        // The subscriber captured its own subject: end it, or the two keep each other alive.
        subject.sendCompleted()
    }

    func testSubject_disposalFromAnotherThreadWhileACallbackRuns_returnsAtOnce_andNothingFollows() {
        // dispose() never waits for the callback under way on another thread; nothing starts after
        // it returns, neither the value queued behind the callback nor a later one.
        let subject = Subject<Int, Never>()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let log = Recorder<String>()
        let subscription = subject.subscribe(next: { value in
            log.record("start \(value)")
            if value == 1 {
                entered.signal()
                _ = proceed.waitForSignal()
            }
            log.record("end \(value)")
        })
        let sent = DispatchSemaphore(value: 0)
        Thread {
            subject.sendNext(1)
            subject.sendNext(2)
            sent.signal()
        }.start()
        XCTAssertTrue(entered.waitForSignal())
        subscription.dispose()
        log.record("disposed")
        proceed.signal()
        XCTAssertEqual(sent.wait(timeout: .now() + 10), .success)
        subject.sendNext(3)
        XCTAssertEqual(log.values, ["start 1", "disposed", "end 1"])
    }

    func testSubject_sendsFromManyThreadsAreSerialized() {
        let subject = Subject<Int, Never>()
        let inside = Counter()
        let overlaps = Counter()
        let received = Counter()
        subject.subscribe(next: { _ in
            inside.increment()
            if inside.value > 1 { overlaps.increment() }
            received.increment()
            inside.decrement()
        })
        race(threads: 8) { _ in
            for value in 0..<1_000 { subject.sendNext(value) }
        }
        XCTAssertEqual(received.value, 8_000)
        XCTAssertEqual(overlaps.value, 0)
    }

    func testSubject_racingSubscribeSendAndDispose_deliverOncePerSubscriberInOrder_andNothingAfterDisposal() {
        for _ in 0..<1_000 {
            let subject = Subject<Int, Never>()
            race(threads: 8) { index in
                if index < 2 {
                    for value in 0..<20 { subject.sendNext(index * 100 + value) }
                    return
                }
                let received = Recorder<Int>()
                let disposed = Counter()
                let late = Counter()
                let subscription = subject.subscribe(next: { value in
                    if disposed.value > 0 { late.increment() }
                    received.record(value)
                })
                subject.sendNext(1_000 + index)
                subscription.dispose()
                disposed.increment()
                // dispose() never waits: the one callback past its final check may still start.
                XCTAssertLessThanOrEqual(late.value, 1, "delivered after disposal")
                let values = received.values
                XCTAssertEqual(Set(values).count, values.count, "delivered twice")
                for sender in 0..<2 {
                    let fromSender = values.filter { $0 / 100 == sender }
                    XCTAssertEqual(fromSender, fromSender.sorted(), "out of order")
                }
            }
        }
    }

    func testSubject_asASubscriber_forwardsEveryEventOfItsSource() {
        let subject = Subject<Int, TestError>()
        let recorder = subject.record()
        TestSource([1, 2]).signal.subscribe(subject)
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
    }

    func testSubject_terminalEventDisposesTheSubscriptionsItHolds() {
        let subject = Subject<Int, TestError>()
        let source = DrivenSource<TestError>()
        source.signal.subscribe(subject)
        XCTAssertEqual(source.disposals.value, 0)
        subject.sendCompleted()
        XCTAssertEqual(source.disposals.value, 1)
        source.input.sendNext(1)
        XCTAssertEqual(subject.record().events, [.completed])
    }

    func testSubject_doesNotKeepTheSubscriptionsOfSourcesOnceTheyEnd() {
        let subject = Subject<Int, Never>()
        let (_, token) = trackingLifetime { token in
            for _ in 0..<BuildKind.rounds(100_000, sanitized: 20_000) {
                Signal<Int, Never> { subscriber in
                    subscriber.sendNext(1)
                    return Disposable { _ = token }
                }.subscribe(subject).dispose()
            }
        }
        XCTAssertFalse(token.isAlive)
        XCTAssertLessThanOrEqual(subject.input.disposable.childCount, 1, "only the subject's own gate may be kept")
        let recorder = subject.record()
        subject.sendNext(2)
        XCTAssertEqual(recorder.values, [2])
    }

    func testSubject_releasesSubscribersAfterTheTerminalEvent_andAfterDisposal() {
        let subject = Subject<Int, Never>()
        let (disposable, disposedToken) = trackingLifetime { token in
            subject.subscribe(next: { _ in _ = token })
        }
        let (_, completedToken) = trackingLifetime { token in
            subject.subscribe(next: { _ in _ = token })
        }
        disposable.dispose()
        XCTAssertFalse(disposedToken.isAlive)
        XCTAssertTrue(completedToken.isAlive)
        subject.sendCompleted()
        XCTAssertFalse(completedToken.isAlive)
    }

    func testSubject_releasedWithoutEnding_letsGoOfItsSubscribersAndKeptValues() {
        weak var weakSubject: ReplaySubject<LifetimeToken, Never>?
        weak var weakKept: LifetimeToken?
        let (_, token) = trackingLifetime { token in
            let subject = ReplaySubject<LifetimeToken, Never>()
            weakSubject = subject
            subject.subscribe(next: { _ in _ = token })
            let kept = LifetimeToken()
            weakKept = kept
            subject.sendNext(kept)
        }
        XCTAssertNil(weakSubject)
        XCTAssertNil(weakKept)
        XCTAssertFalse(token.isAlive)
    }

    func testSubject_isReleasedOnceNothingReferencesIt() {
        weak var weakSubject: Subject<Int, Never>?
        do {
            let subject = Subject<Int, Never>()
            weakSubject = subject
            subject.subscribe(next: { _ in })
            subject.sendNext(1)
        }
        XCTAssertNil(weakSubject)
    }
}
