import Disposables
import Foundation
import Signals
import TestSupport
import XCTest

final class TakeDuringTests: LeakCheckedTestCase {
    func testTakeDuring_sendsValuesUntilTheLifetimeEnds_thenDisposesTheSourceAndCompletes() {
        let log = Recorder<String>()
        let source = DrivenSource<TestError> { log.record("source disposed") }
        let (lifetime, made) = Lifetime.make()
        var token: Lifetime.Token? = consume made
        source.signal.take(during: lifetime).subscribe(next: { log.record("\($0)") }, completed: { log.record("completed") })
        source.input.sendNext(1)
        source.input.sendNext(2)
        token = nil
        XCTAssertNil(token)
        source.input.sendNext(3)
        XCTAssertEqual(log.values, ["1", "2", "source disposed", "completed"])
    }

    func testTakeDuring_anEndedLifetimeCompletesAtOnce_withoutSubscribingTheSource() {
        let source = TestSource([1, 2])
        XCTAssertEqual(source.signal.take(during: Lifetime.empty).record().events, [.completed])
        XCTAssertEqual(source.subscriptions.value, 0)
    }

    func testTakeDuring_theSourceEventsPassThrough() {
        let (lifetime, token) = Lifetime.make()
        XCTAssertEqual(TestSource([1, 2]).signal.take(during: lifetime).record().events, [.next(1), .next(2), .completed])
        XCTAssertEqual(TestSource([1], end: .error(.second)).signal.take(during: lifetime).record().events, [.next(1), .error(.second)])
        withExtendedLifetime(token) {}
    }

    func testTakeDuring_disposalDisposesTheSource_andTheLifetimeLetsGoOfTheSubscription() {
        let (lifetime, token) = Lifetime.make()
        let source = DrivenSource<TestError>()
        let (recorder, captured) = trackingLifetime { watched in
            source.signal.take(during: lifetime).subscribe(next: { _ in withExtendedLifetime(watched) {} })
        }
        source.input.sendNext(1)
        recorder.dispose()
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertFalse(captured.isAlive, "the subscriber's captures are released at disposal, while the lifetime goes on")
        withExtendedLifetime(token) {}
    }

    func testTakeDuring_anOwnersSubscriptionEndsWithIt_andNothingKeepsEither() {
        let source = DrivenSource<TestError>()
        let log = Recorder<Int>()
        var owner: Watcher? = Watcher(source.signal, log)
        let ownerReference = WeakReference(owner!)
        source.input.sendNext(1)
        owner = nil
        XCTAssertFalse(ownerReference.isAlive)
        XCTAssertEqual(source.disposals.value, 1)
        source.input.sendNext(2)
        XCTAssertEqual(log.values, [1])
    }

    func testTakeDuring_theTokenReleasedOnAnotherThreadWhileValuesAreSent() {
        let rounds = BuildKind.raceRounds(optimized: 200, debug: 50, sanitized: 20)
        for _ in 0..<rounds {
            let (lifetime, token) = Lifetime.make()
            let holder = TokenHolder(token)
            _ = consume token
            let source = DrivenSource<TestError>()
            let recorder = source.signal.take(during: lifetime).record()
            let released = startThread("releasing the token") { holder.release() }
            var sent = 0
            while !lifetime.hasEnded, sent < 100_000 {
                source.input.sendNext(sent)
                sent += 1
            }
            XCTAssertTrue(eventually { released.isSet && recorder.events.last == .completed })
            let values = recorder.values
            XCTAssertEqual(values, Array(0..<values.count), "values arrive in order, none after the end")
            XCTAssertEqual(source.disposals.value, 1)
        }
    }
}

/// An owner whose subscription lasts as long as it does.
private final class Watcher: Sendable {
    private let token: Lifetime.Token

    init(_ values: Signal<Int, TestError>, _ log: Recorder<Int>) {
        let lifetime: Lifetime
        (lifetime, token) = Lifetime.make()
        values.take(during: lifetime).subscribe(next: { log.record($0) })
    }
}
