import Signals
import Subjects
import TestSupport
import XCTest

final class BehaviorSubjectTests: LeakCheckedTestCase {
    func testBehavior_sendsTheInitialValueOnSubscription() {
        let subject = BehaviorSubject<Int, TestError>(value: 0)
        XCTAssertEqual(subject.record().events, [.next(0)])
    }

    func testBehavior_sendsTheLatestValueThenLiveValues() {
        let subject = BehaviorSubject<Int, TestError>(value: 0)
        subject.sendNext(1)
        subject.sendNext(2)
        let recorder = subject.record()
        subject.sendNext(3)
        subject.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(2), .next(3), .completed])
    }

    func testBehavior_afterTheEndSendsOnlyTheTerminalEvent() {
        let subject = BehaviorSubject<Int, TestError>(value: 0)
        subject.sendNext(1)
        subject.sendError(.first)
        XCTAssertEqual(subject.record().events, [.error(.first)])
    }

    func testBehavior_everySubscriberGetsTheCurrentValueOnce() {
        let subject = BehaviorSubject<Int, Never>(value: 5)
        let first = subject.record()
        let second = subject.record()
        subject.sendNext(6)
        XCTAssertEqual(first.values, [5, 6])
        XCTAssertEqual(second.values, [5, 6])
    }

    func testBehavior_disposalStopsDelivery_andReleasesTheSubscriber() {
        let subject = BehaviorSubject<Int, Never>(value: 0)
        let received = Recorder<Int>()
        let (subscription, token) = trackingLifetime { token in
            subject.subscribe(next: { _ = token; received.record($0) })
        }
        subscription.dispose()
        subject.sendNext(1)
        XCTAssertEqual(received.values, [0])
        XCTAssertFalse(token.isAlive)
    }
}
