import Disposables
import Foundation
import Signals
import Subjects
import TestSupport
import XCTest

/// Shape 6 of "disposal never waits", over subjects and a multicast signal: a producer thread
/// sends nonstop while the main thread subscribes and disposes 2,000 times. No callback of the
/// long-lived subscriber runs on the main thread (the disposing and subscribing thread delivers no
/// value of another subscription), every cycle completes, and every disposed subscription's
/// closure is freed. (The bound on a subject's queue is in `SubjectHighWaterMarkTests`.)
final class SubjectFloodTests: LeakCheckedTestCase {
    /// Shape 6: a `Subject` flooded from a producer thread while the main thread subscribes and
    /// disposes 2,000 times.
    func testSubjectFlood_mainThreadSubscribesAndDisposes_deliversNoOtherSubscriptionsValue() {
        let subject = Subject<Int, Never>()
        let failures = floodWhileTheMainThreadSubscribesAndDisposes(
            "a Subject flooded from a producer thread while the main thread subscribes and disposes",
            source: subject, send: { subject.sendNext($0) }
        )
        for failure in failures { XCTFail(failure) }
    }

    /// Shape 6: a `ReplaySubject(capacity: 16)` flooded from a producer thread while the main
    /// thread subscribes (each new subscription is replayed up to 16 values, on the main thread:
    /// its own) and disposes 2,000 times.
    func testReplaySubjectFlood_mainThreadSubscribesAndDisposes_deliversNoOtherSubscriptionsValue() {
        let subject = ReplaySubject<Int, Never>(capacity: 16)
        let failures = floodWhileTheMainThreadSubscribesAndDisposes(
            "a ReplaySubject(capacity: 16) flooded from a producer thread while the main thread subscribes and disposes",
            source: subject, send: { subject.sendNext($0) }
        )
        for failure in failures { XCTFail(failure) }
    }

    /// Shape 6: a `BehaviorSubject` flooded from a producer thread while the main thread
    /// subscribes and disposes 2,000 times.
    func testBehaviorSubjectFlood_mainThreadSubscribesAndDisposes_deliversNoOtherSubscriptionsValue() {
        let subject = BehaviorSubject<Int, Never>(value: 0)
        let failures = floodWhileTheMainThreadSubscribesAndDisposes(
            "a BehaviorSubject flooded from a producer thread while the main thread subscribes and disposes",
            source: subject, send: { subject.sendNext($0) }
        )
        for failure in failures { XCTFail(failure) }
    }

    /// Shape 6: `pipe.publish().autoconnect()`, the pipe flooded from a producer thread, while the
    /// main thread subscribes to the multicast signal and disposes 2,000 times (the long-lived
    /// subscriber keeps it connected).
    func testPublishAutoconnectFlood_mainThreadSubscribesAndDisposes_deliversNoOtherSubscriptionsValue() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let shared = signal.publish().autoconnect()
        let failures = floodWhileTheMainThreadSubscribesAndDisposes(
            "publish().autoconnect() of a pipe flooded from a producer thread while the main thread subscribes and disposes",
            source: shared, send: { input.sendNext($0) }
        )
        for failure in failures { XCTFail(failure) }
    }

    /// Shape 6: an `ObservableValue` set nonstop from a producer thread while the main thread
    /// subscribes to its `signal` (each new subscription gets the current value at once, on the
    /// main thread: its own) and disposes 2,000 times.
    func testObservableValueFlood_mainThreadSubscribesAndDisposes_deliversNoOtherSubscriptionsValue() {
        let cell = ObservableValue(0)
        let failures = floodWhileTheMainThreadSubscribesAndDisposes(
            "an ObservableValue set nonstop from a producer thread while the main thread subscribes and disposes",
            source: cell.signal, send: { cell.value = $0 }
        )
        for failure in failures { XCTFail(failure) }
    }
}
