import Disposables
import Foundation
import Signals
import TestSupport
import XCTest

final class LifetimeTests: LeakCheckedTestCase {
    func testEnded_completesWhenTheTokenGoes_andAtOnceForALateSubscriber() {
        let (lifetime, made) = Lifetime.make()
        var token: Lifetime.Token? = consume made
        let early = lifetime.ended.map { 0 }.record()
        XCTAssertFalse(lifetime.hasEnded)
        XCTAssertEqual(early.events, [])
        token = nil
        XCTAssertNil(token)
        XCTAssertTrue(lifetime.hasEnded)
        XCTAssertEqual(early.events, [.completed])
        XCTAssertEqual(lifetime.ended.map { 0 }.record().events, [.completed])
    }

    func testObserveEnded_runsOnceAtTheEnd_orAtOnceAfterIt_andCancelsWhenDisposed() {
        let log = Recorder<String>()
        let (lifetime, made) = Lifetime.make()
        var token: Lifetime.Token? = consume made
        let first = lifetime.observeEnded { log.record("first") }
        let cancelled = lifetime.observeEnded { log.record("cancelled") }
        XCTAssertNotNil(first)
        cancelled?.dispose()
        XCTAssertEqual(log.values, [])
        token = nil
        XCTAssertNil(token)
        XCTAssertEqual(log.values, ["first"])
        XCTAssertNil(lifetime.observeEnded { log.record("late") }, "an ended lifetime runs the action at once and returns nil")
        XCTAssertEqual(log.values, ["first", "late"])
    }

    func testHasEnded_isTrueWhileTheObserversRun() {
        let (lifetime, made) = Lifetime.make()
        var token: Lifetime.Token? = consume made
        let seen = Recorder<Bool>()
        lifetime.observeEnded { seen.record(lifetime.hasEnded) }
        token = nil
        XCTAssertNil(token)
        XCTAssertEqual(seen.values, [true])
    }

    func testAdd_andPlusEquals_disposeAtTheEnd_orAtOnceAfterIt() {
        let (lifetime, made) = Lifetime.make()
        var token: Lifetime.Token? = consume made
        let added = Disposable()
        let appended = Disposable()
        lifetime.add(added)
        lifetime += appended
        XCTAssertNil(lifetime.add(nil))
        XCTAssertFalse(added.isDisposed)
        XCTAssertFalse(appended.isDisposed)
        token = nil
        XCTAssertNil(token)
        XCTAssertTrue(added.isDisposed)
        XCTAssertTrue(appended.isDisposed)
        let late = Disposable()
        XCTAssertNil(lifetime += late)
        XCTAssertTrue(late.isDisposed)
    }

    func testAdd_cancelledLetsGoOfTheDisposableWithoutDisposingIt() {
        let (lifetime, token) = Lifetime.make()
        let (added, reference) = trackingLifetime { watched in Disposable { withExtendedLifetime(watched) {} } }
        let cancel = lifetime.add(added)
        cancel?.dispose()
        XCTAssertFalse(added.isDisposed)
        _ = consume added
        XCTAssertFalse(reference.isAlive, "the lifetime let go of the disposable")
        withExtendedLifetime(token) {}
    }

    func testEmpty_hasEnded() {
        XCTAssertTrue(Lifetime.empty.hasEnded)
        XCTAssertEqual(Lifetime.empty.ended.map { 0 }.record().events, [.completed])
    }

    func testTheEndedLifetime_letsGoOfItsObservers_andTheOwner() {
        let log = Recorder<String>()
        var owner: Owner? = Owner()
        let ownerReference = WeakReference(owner!)
        let (_, captured) = trackingLifetime { watched in
            owner!.lifetime.observeEnded { withExtendedLifetime(watched) { log.record("ended") } }
        }
        owner = nil
        XCTAssertFalse(ownerReference.isAlive, "the lifetime does not keep its owner")
        XCTAssertEqual(log.values, ["ended"])
        XCTAssertFalse(captured.isAlive, "the observer's captures are released at the end")
    }

    func testAnObserverThatReleasesAnotherToken_endsThatLifetimeNested_withoutADeadlock() {
        let log = Recorder<String>()
        let (outer, outerToken) = Lifetime.make()
        let (inner, innerToken) = Lifetime.make()
        let outerHolder = TokenHolder(consume outerToken)
        let holder = TokenHolder(consume innerToken)
        inner.observeEnded { log.record("inner") }
        outer.observeEnded {
            log.record("outer")
            holder.release()
            // Observing again, inside the end, runs at once.
            outer.observeEnded { log.record("outer again") }
        }
        withWatchdog("an observer releasing another lifetime's token") {
            outerHolder.release()
        }
        XCTAssertEqual(log.values, ["outer", "inner", "outer again"])
        XCTAssertTrue(inner.hasEnded)
    }

    func testTheTokenReleasedOnAnotherThread_endsTheLifetimeThere() {
        let (lifetime, token) = Lifetime.make()
        let holder = TokenHolder(token)
        _ = consume token
        let endedOnMain = Recorder<Bool>()
        lifetime.observeEnded { endedOnMain.record(Thread.isMainThread) }
        onAPlainThread { holder.release() }
        XCTAssertTrue(eventually { lifetime.hasEnded && endedOnMain.values.count == 1 })
        XCTAssertEqual(endedOnMain.values, [false])
    }
}

/// An owner that keeps its lifetime's token.
private final class Owner: Sendable {
    let lifetime: Lifetime
    private let token: Lifetime.Token

    init() {
        (lifetime, token) = Lifetime.make()
    }
}
