import Disposables
import Signals
@testable import Subjects
import TestSupport
import XCTest

/// Subscriptions through subjects and multicast connections to a pipe whose input, signal and
/// disposable are let go of without a terminal event release what they captured.
final class SubjectLetGoTests: LeakCheckedTestCase {
    func testSubscriptionsThroughMulticasting_releaseWhatTheyCapturedWhenThePipeIsLetGoOf() {
        let forms: [(String, @Sendable (Signal<Int, Never>) -> Signal<Int, Never>)] = [
            ("publish().autoconnect()", { $0.publish().autoconnect() }),
            ("replayLazily()", { $0.replayLazily() }),
            ("replayLast()", { $0.replayLast() }),
            ("a Subject subscribed to it", { signal in
                let subject = Subject<Int, Never>()
                signal.subscribe(subject)
                return subject
            }),
            ("a ReplaySubject subscribed to it", { signal in
                let subject = ReplaySubject<Int, Never>()
                signal.subscribe(subject)
                return subject
            }),
        ]
        for (name, transform) in forms {
            XCTAssertFalse(letGoOfAPipe(through: transform).isAlive, "\(name): the subscriber's closure outlived the pipe")
        }
    }

    func testASubjectLetGoOf_releasesItsSubscribers() {
        let (_, token) = trackingLifetime { token in
            var subject: Subject<Int, Never>? = Subject()
            subject!.map { $0 + 1 }.materialize().subscribe(next: { _ in _ = token })
            subject!.sendNext(1)
            subject = nil
        }
        XCTAssertFalse(token.isAlive)
    }

    func testAChannelLetGoOf_releasesItsSubjectsAndTheirSubscribers() {
        weak var weakSubject: ReplaySubject<Int, any Error>?
        let (_, token) = trackingLifetime { token in
            var channel: Channel<Int>? = Channel()
            weakSubject = channel!.followingSubject
            channel!.followingTerminal.subscribe(next: { _ in _ = token })
            channel!.leadingTerminal.sendNext(1)
            channel = nil
        }
        XCTAssertNil(weakSubject)
        XCTAssertFalse(token.isAlive)
    }

    func testASubscriberSubscribedToAPipeWhoseInputIsGone_isHeldByNothing() {
        let (signal, _) = Signal<Int, Never>.pipe()
        let (_, token) = trackingLifetime { token in
            signal.subscribe(Subscriber<Int, Never>(next: { _ in _ = token }))
        }
        XCTAssertFalse(token.isAlive)
        let (_, subjectToken) = trackingLifetime { token in
            let subject = Subject<Int, Never>()
            subject.subscribe(next: { _ in _ = token })
            signal.subscribe(subject)
        }
        XCTAssertFalse(subjectToken.isAlive)
    }

    func testAutoconnectOfALetGoPipe_releasesWhatItCaptured_whileTheDisposableIsKept() {
        XCTAssertFalse(letGoOfAPipe(through: { $0.publish().autoconnect() }, keepingTheDisposable: true).isAlive)
    }
}
