import Disposables
import Signals
import Subjects
import TestSupport
import XCTest

final class MulticastConnectionTests: LeakCheckedTestCase {
    func testPublish_subscribesTheSourceOnlyOnConnect_andSharesIt() {
        let source = TestSource([1, 2])
        let connection = source.signal.publish()
        let first = connection.signal.record()
        let second = connection.signal.record()
        XCTAssertEqual(source.subscriptions.value, 0)
        connection.connect()
        XCTAssertEqual(source.subscriptions.value, 1)
        XCTAssertEqual(first.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(second.events, [.next(1), .next(2), .completed])
    }

    func testConnect_subscribesOnceWhenEightThreadsRace_andAlwaysReturnsTheSameDisposable() {
        for _ in 0..<200 {
            // A pipe is subscribed on the calling thread, with no scheduler hop, unlike a created
            // signal on a thread without a current scheduler.
            let (pipe, _) = Signal<Int, TestError>.pipe()
            let disposables = Lock<[ObjectIdentifier]>([])
            let subscriptions = Counter()
            let counted = pipe.initially { subscriptions.increment() }.multicast(Subject())
            race(threads: 8) { _ in
                let disposable = counted.connect()
                disposables.withLock { $0.append(ObjectIdentifier(disposable)) }
            }
            XCTAssertEqual(subscriptions.value, 1)
            XCTAssertEqual(Set(disposables.withLock { $0 }).count, 1)
        }
    }

    func testConnect_disposingTheConnectionEndsTheSourceSubscriptionWithoutEndingTheSubject() {
        let source = DrivenSource<TestError>()
        let connection = source.signal.publish()
        let recorder = connection.signal.record()
        let disposable = connection.connect()
        source.input.sendNext(1)
        disposable.dispose()
        XCTAssertEqual(source.disposals.value, 1)
        source.input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertTrue(connection.connect() === disposable)
    }

    func testMulticast_sendsThroughTheGivenSubject() {
        let subject = ReplaySubject<Int, TestError>(capacity: 1)
        let connection = TestSource([1, 2]).signal.multicast(subject)
        connection.connect()
        XCTAssertEqual(connection.signal.record().events, [.next(2), .completed])
    }

    func testReplay_connectsAtOnceAndReplaysEverything() {
        let source = TestSource([1, 2, 3])
        let replayed = source.signal.replay()
        XCTAssertEqual(source.subscriptions.value, 1)
        XCTAssertEqual(replayed.record().events, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(replayed.record().events, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(source.subscriptions.value, 1)
    }

    func testReplayForms_nameWhatTheyMakeAfterTheirSourceWhenDebugging() {
        SignalDebug.isEnabled = true
        defer { SignalDebug.isEnabled = false }
        let source = TestSource([1]).signal.named("numbers")
        XCTAssertEqual(source.replay().name, "[numbers] -replay")
        XCTAssertEqual(source.replayLast().name, "[numbers] -replayLast")
        XCTAssertEqual(source.replayLazily().name, "[numbers] -replayLazily")
    }

    func testReplayLast_replaysTheLatestValue() {
        let source = DrivenSource<TestError>()
        let replayed = source.signal.replayLast()
        source.input.sendNext(1)
        source.input.sendNext(2)
        let recorder = replayed.record()
        source.input.sendNext(3)
        XCTAssertEqual(recorder.events, [.next(2), .next(3)])
    }

    func testReplayLazily_subscribesTheSourceOnItsFirstSubscriptionOnly() {
        let source = TestSource([1, 2])
        let replayed = source.signal.replayLazily()
        XCTAssertEqual(source.subscriptions.value, 0)
        XCTAssertEqual(replayed.record().events, [.next(1), .next(2), .completed])
        XCTAssertEqual(replayed.record().events, [.next(1), .next(2), .completed])
        XCTAssertEqual(source.subscriptions.value, 1)
    }

    func testReplayVariants_neverDisposeTheSource() {
        let source = DrivenSource<TestError>()
        let replayed = source.signal.replay()
        replayed.subscribe().dispose()
        XCTAssertEqual(source.disposals.value, 0)
    }

    func testAutoconnect_connectsOnTheFirstSubscriber_andDisconnectsWhenTheLastLeaves() {
        let source = DrivenSource<TestError>()
        let signal = source.signal.publish().autoconnect()
        XCTAssertEqual(source.disposals.value, 0)
        let first = signal.record()
        let second = signal.record()
        source.input.sendNext(1)
        first.dispose()
        XCTAssertEqual(source.disposals.value, 0)
        source.input.sendNext(2)
        second.dispose()
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(first.events, [.next(1)])
        XCTAssertEqual(second.events, [.next(1), .next(2)])
    }

    func testAutoconnect_doesNotReconnect_aLaterSubscriberOfAPublishGetsNothing() {
        let source = DrivenSource<TestError>()
        let subscriptions = Counter()
        let signal = Signal<Int, TestError> { subscriber in
            subscriptions.increment()
            return source.signal.subscribe(subscriber)
        }.publish().autoconnect()
        signal.subscribe().dispose()
        let later = signal.record()
        source.input.sendNext(1)
        XCTAssertEqual(subscriptions.value, 1)
        XCTAssertEqual(later.events, [])
    }

    func testAutoconnect_aLaterSubscriberGetsTheTerminalEventOfASourceThatEnded() {
        let signal = TestSource([1]).signal.publish().autoconnect()
        XCTAssertEqual(signal.record().events, [.next(1), .completed])
        XCTAssertEqual(signal.record().events, [.completed])
    }

    func testAutoconnect_aSubscriptionEndedByItsTerminalEventCountsOut() {
        let source = DrivenSource<TestError>()
        let signal = source.signal.publish().autoconnect()
        let taker = signal.take(1).record()
        source.input.sendNext(1)
        XCTAssertEqual(taker.events, [.next(1), .completed])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testAutoconnect_releasesSubscribersAndTheSourceSubscription() {
        let source = DrivenSource<TestError>()
        let signal = source.signal.publish().autoconnect()
        let (subscription, token) = trackingLifetime { token in
            signal.subscribe(next: { _ in _ = token })
        }
        subscription.dispose()
        XCTAssertFalse(token.isAlive)
        XCTAssertEqual(source.disposals.value, 1)
    }
}
