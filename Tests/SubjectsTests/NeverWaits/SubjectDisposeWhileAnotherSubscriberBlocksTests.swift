import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

extension Route {
    /// `source.publish().autoconnect()`: B's subscription is the only one of the multicast, so
    /// disposing it disconnects it from the source too.
    static let publishAutoconnect = Route("through publish().autoconnect()") { Routed($0.publish().autoconnect()) }

    /// `source.replayLazily()`.
    static let replayLazily = Route("through replayLazily()") { Routed($0.replayLazily()) }

    /// `source.publish().autoconnect()`, which A subscribes to as well (first): A blocks inside
    /// the multicast's own delivery, and B's dispose leaves it connected.
    static let publishAutoconnectSharedWithA = Route("through publish().autoconnect(), shared with A") {
        Routed($0.publish().autoconnect(), sharedWithA: true)
    }

    /// `source.replayLazily()`, which A subscribes to as well (first): A blocks inside the replay
    /// subject's own delivery.
    static let replayLazilySharedWithA = Route("through replayLazily(), shared with A") {
        Routed($0.replayLazily(), sharedWithA: true)
    }
}

/// Shape 1 of "disposal never waits", over subjects, multicast signals and `ObservableValue`: two
/// subscribers A and B of the same hot source; A's callback runs on T1 and blocks until T2
/// signals; T2 ends B's subscription, then signals. It must not hang (the watchdog ends the run if
/// it does), B's callback never starts after T2's dispose returned, and B's closure is freed once
/// A's callback has returned.
final class SubjectDisposeWhileAnotherSubscriberBlocksTests: LeakCheckedTestCase {
    private enum Source: String {
        case subject = "a Subject"
        case replaySubject = "a ReplaySubject"
        case behaviorSubject = "a BehaviorSubject(value: 0)"
        case pipe = "a pipe"
        case observableValue = "an ObservableValue's signal"
    }

    private func check(
        _ source: Source,
        _ route: Route,
        _ holding: Holding = .itself,
        sender: SenderThread = .plainThread,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let signal: Signal<Int, Never>
        let send: @Sendable (Int) -> Void
        switch source {
        case .subject:
            let subject = Subject<Int, Never>()
            (signal, send) = (subject, { subject.sendNext($0) })
        case .replaySubject:
            let subject = ReplaySubject<Int, Never>()
            (signal, send) = (subject, { subject.sendNext($0) })
        case .behaviorSubject:
            let subject = BehaviorSubject<Int, Never>(value: 0)
            (signal, send) = (subject, { subject.sendNext($0) })
        case .pipe:
            let (pipe, input) = Signal<Int, Never>.pipe()
            (signal, send) = (pipe, { input.sendNext($0) })
        case .observableValue:
            let cell = ObservableValue(0)
            (signal, send) = (cell.signal, { cell.value = $0 })
        }
        let shape = "\(source.rawValue) \(sender.rawValue), B \(route.name), \(holding.rawValue), T2 ends B while A blocks T1"
        let failures = disposalWhileAnotherSubscriberBlocks(
            shape, source: signal, send: send, sender: sender, route: route, holding: holding, file: file, line: line
        )
        for failure in failures { XCTFail(failure, file: file, line: line) }
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; B subscribed directly.
    func testSubject_BDirect_disposedWhileABlocks_neverWaits() {
        check(.subject, .direct)
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; B reaching it through `merge`.
    func testSubject_BThroughMerge_disposedWhileABlocks_neverWaits() {
        check(.subject, .merge)
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; B reaching it through `flatten()`.
    func testSubject_BThroughFlatten_disposedWhileABlocks_neverWaits() {
        check(.subject, .flatten)
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; B reaching it through `switchToLatest()`.
    func testSubject_BThroughSwitchToLatest_disposedWhileABlocks_neverWaits() {
        check(.subject, .switchToLatest)
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; B reaching it through `combineLatest(with:)`.
    func testSubject_BThroughCombineLatest_disposedWhileABlocks_neverWaits() {
        check(.subject, .combineLatest)
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; B reaching it through `zip(with:)`.
    func testSubject_BThroughZip_disposedWhileABlocks_neverWaits() {
        check(.subject, .zip)
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; B reaching it through `take(until:)`.
    func testSubject_BThroughTakeUntil_disposedWhileABlocks_neverWaits() {
        check(.subject, .takeUntil)
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; B reaching it through `deliver(on:)` a background scheduler.
    func testSubject_BThroughDeliverOn_disposedWhileABlocks_neverWaits() {
        check(.subject, .deliver(on: .background(name: "B's deliver(on:)")))
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; B reaching it through `subscribe(on:)` a background scheduler.
    func testSubject_BThroughSubscribeOn_disposedWhileABlocks_neverWaits() {
        check(.subject, .subscribe(on: .background(name: "B's subscribe(on:)")))
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; B reaching it through `publish().autoconnect()`.
    func testSubject_BThroughPublishAutoconnect_disposedWhileABlocks_neverWaits() {
        check(.subject, .publishAutoconnect)
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; B reaching it through `replayLazily()`.
    func testSubject_BThroughReplayLazily_disposedWhileABlocks_neverWaits() {
        check(.subject, .replayLazily)
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; B's disposable held in a `CompoundDisposable` that T2 disposes.
    func testSubject_BInACompoundDisposable_disposedWhileABlocks_neverWaits() {
        check(.subject, .direct, .compound)
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; B's disposable held in a `ScopedDisposable` owned by an object T2 releases.
    func testSubject_BInAScopedDisposable_ownerReleasedWhileABlocks_neverWaits() {
        check(.subject, .direct, .scopedInReleasedOwner)
    }

    /// Shape 1: a `ReplaySubject` sent on a plain thread T1; B subscribed directly.
    func testReplaySubject_BDirect_disposedWhileABlocks_neverWaits() {
        check(.replaySubject, .direct)
    }

    /// Shape 1: a `ReplaySubject` sent on a plain thread T1; B reaching it through `merge`.
    func testReplaySubject_BThroughMerge_disposedWhileABlocks_neverWaits() {
        check(.replaySubject, .merge)
    }

    /// Shape 1: a `ReplaySubject` sent on a plain thread T1; B reaching it through `flatten()`.
    func testReplaySubject_BThroughFlatten_disposedWhileABlocks_neverWaits() {
        check(.replaySubject, .flatten)
    }

    /// Shape 1: a `ReplaySubject` sent on a plain thread T1; B reaching it through `switchToLatest()`.
    func testReplaySubject_BThroughSwitchToLatest_disposedWhileABlocks_neverWaits() {
        check(.replaySubject, .switchToLatest)
    }

    /// Shape 1: a `ReplaySubject` sent on a plain thread T1; B reaching it through `combineLatest(with:)`.
    func testReplaySubject_BThroughCombineLatest_disposedWhileABlocks_neverWaits() {
        check(.replaySubject, .combineLatest)
    }

    /// Shape 1: a `ReplaySubject` sent on a plain thread T1; B reaching it through `zip(with:)`.
    func testReplaySubject_BThroughZip_disposedWhileABlocks_neverWaits() {
        check(.replaySubject, .zip)
    }

    /// Shape 1: a `ReplaySubject` sent on a plain thread T1; B reaching it through `take(until:)`.
    func testReplaySubject_BThroughTakeUntil_disposedWhileABlocks_neverWaits() {
        check(.replaySubject, .takeUntil)
    }

    /// Shape 1: a `ReplaySubject` sent on a plain thread T1; B reaching it through `deliver(on:)` a background scheduler.
    func testReplaySubject_BThroughDeliverOn_disposedWhileABlocks_neverWaits() {
        check(.replaySubject, .deliver(on: .background(name: "B's deliver(on:)")))
    }

    /// Shape 1: a `ReplaySubject` sent on a plain thread T1; B reaching it through `subscribe(on:)` a background scheduler.
    func testReplaySubject_BThroughSubscribeOn_disposedWhileABlocks_neverWaits() {
        check(.replaySubject, .subscribe(on: .background(name: "B's subscribe(on:)")))
    }

    /// Shape 1: a `ReplaySubject` sent on a plain thread T1; B reaching it through `publish().autoconnect()`.
    func testReplaySubject_BThroughPublishAutoconnect_disposedWhileABlocks_neverWaits() {
        check(.replaySubject, .publishAutoconnect)
    }

    /// Shape 1: a `ReplaySubject` sent on a plain thread T1; B reaching it through `replayLazily()`.
    func testReplaySubject_BThroughReplayLazily_disposedWhileABlocks_neverWaits() {
        check(.replaySubject, .replayLazily)
    }

    /// Shape 1: a `ReplaySubject` sent on a plain thread T1; B's disposable held in a `CompoundDisposable` that T2 disposes.
    func testReplaySubject_BInACompoundDisposable_disposedWhileABlocks_neverWaits() {
        check(.replaySubject, .direct, .compound)
    }

    /// Shape 1: a `ReplaySubject` sent on a plain thread T1; B's disposable held in a `ScopedDisposable` owned by an object T2 releases.
    func testReplaySubject_BInAScopedDisposable_ownerReleasedWhileABlocks_neverWaits() {
        check(.replaySubject, .direct, .scopedInReleasedOwner)
    }

    /// Shape 1: a `BehaviorSubject` sent on a plain thread T1; B subscribed directly.
    func testBehaviorSubject_BDirect_disposedWhileABlocks_neverWaits() {
        check(.behaviorSubject, .direct)
    }

    /// Shape 1: a `BehaviorSubject` sent on a plain thread T1; B reaching it through `merge`.
    func testBehaviorSubject_BThroughMerge_disposedWhileABlocks_neverWaits() {
        check(.behaviorSubject, .merge)
    }

    /// Shape 1: a `BehaviorSubject` sent on a plain thread T1; B reaching it through `flatten()`.
    func testBehaviorSubject_BThroughFlatten_disposedWhileABlocks_neverWaits() {
        check(.behaviorSubject, .flatten)
    }

    /// Shape 1: a `BehaviorSubject` sent on a plain thread T1; B reaching it through `switchToLatest()`.
    func testBehaviorSubject_BThroughSwitchToLatest_disposedWhileABlocks_neverWaits() {
        check(.behaviorSubject, .switchToLatest)
    }

    /// Shape 1: a `BehaviorSubject` sent on a plain thread T1; B reaching it through `combineLatest(with:)`.
    func testBehaviorSubject_BThroughCombineLatest_disposedWhileABlocks_neverWaits() {
        check(.behaviorSubject, .combineLatest)
    }

    /// Shape 1: a `BehaviorSubject` sent on a plain thread T1; B reaching it through `zip(with:)`.
    func testBehaviorSubject_BThroughZip_disposedWhileABlocks_neverWaits() {
        check(.behaviorSubject, .zip)
    }

    /// Shape 1: a `BehaviorSubject` sent on a plain thread T1; B reaching it through `take(until:)`.
    func testBehaviorSubject_BThroughTakeUntil_disposedWhileABlocks_neverWaits() {
        check(.behaviorSubject, .takeUntil)
    }

    /// Shape 1: a `BehaviorSubject` sent on a plain thread T1; B reaching it through `deliver(on:)` a background scheduler.
    func testBehaviorSubject_BThroughDeliverOn_disposedWhileABlocks_neverWaits() {
        check(.behaviorSubject, .deliver(on: .background(name: "B's deliver(on:)")))
    }

    /// Shape 1: a `BehaviorSubject` sent on a plain thread T1; B reaching it through `subscribe(on:)` a background scheduler.
    func testBehaviorSubject_BThroughSubscribeOn_disposedWhileABlocks_neverWaits() {
        check(.behaviorSubject, .subscribe(on: .background(name: "B's subscribe(on:)")))
    }

    /// Shape 1: a `BehaviorSubject` sent on a plain thread T1; B reaching it through `publish().autoconnect()`.
    func testBehaviorSubject_BThroughPublishAutoconnect_disposedWhileABlocks_neverWaits() {
        check(.behaviorSubject, .publishAutoconnect)
    }

    /// Shape 1: a `BehaviorSubject` sent on a plain thread T1; B reaching it through `replayLazily()`.
    func testBehaviorSubject_BThroughReplayLazily_disposedWhileABlocks_neverWaits() {
        check(.behaviorSubject, .replayLazily)
    }

    /// Shape 1: a `BehaviorSubject` sent on a plain thread T1; B's disposable held in a `CompoundDisposable` that T2 disposes.
    func testBehaviorSubject_BInACompoundDisposable_disposedWhileABlocks_neverWaits() {
        check(.behaviorSubject, .direct, .compound)
    }

    /// Shape 1: a `BehaviorSubject` sent on a plain thread T1; B's disposable held in a `ScopedDisposable` owned by an object T2 releases.
    func testBehaviorSubject_BInAScopedDisposable_ownerReleasedWhileABlocks_neverWaits() {
        check(.behaviorSubject, .direct, .scopedInReleasedOwner)
    }

    /// Shape 1: a pipe sent on a plain thread T1; B reaching it through `publish().autoconnect()`.
    func testPlainThreadPipe_BThroughPublishAutoconnect_disposedWhileABlocks_neverWaits() {
        check(.pipe, .publishAutoconnect, sender: .plainThread)
    }

    /// Shape 1: a pipe sent on a plain thread T1; B reaching it through `replayLazily()`.
    func testPlainThreadPipe_BThroughReplayLazily_disposedWhileABlocks_neverWaits() {
        check(.pipe, .replayLazily, sender: .plainThread)
    }

    /// Shape 1: a pipe sent on the main thread (T1); B reaching it through `publish().autoconnect()`.
    func testMainThreadPipe_BThroughPublishAutoconnect_disposedWhileABlocks_neverWaits() {
        check(.pipe, .publishAutoconnect, sender: .mainThread)
    }

    /// Shape 1: a pipe sent on the main thread (T1); B reaching it through `replayLazily()`.
    func testMainThreadPipe_BThroughReplayLazily_disposedWhileABlocks_neverWaits() {
        check(.pipe, .replayLazily, sender: .mainThread)
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; A and B both subscribed to one
    /// `publish().autoconnect()` of it.
    func testSubject_AAndBThroughOnePublishAutoconnect_disposedWhileABlocks_neverWaits() {
        check(.subject, .publishAutoconnectSharedWithA)
    }

    /// Shape 1: a `Subject` sent on a plain thread T1; A and B both subscribed to one
    /// `replayLazily()` of it.
    func testSubject_AAndBThroughOneReplayLazily_disposedWhileABlocks_neverWaits() {
        check(.subject, .replayLazilySharedWithA)
    }

    /// Shape 1: a pipe sent on a plain thread T1; A and B both subscribed to one
    /// `publish().autoconnect()` of it.
    func testPlainThreadPipe_AAndBThroughOnePublishAutoconnect_disposedWhileABlocks_neverWaits() {
        check(.pipe, .publishAutoconnectSharedWithA)
    }

    /// Shape 1: a pipe sent on the main thread (T1); A and B both subscribed to one
    /// `publish().autoconnect()` of it.
    func testMainThreadPipe_AAndBThroughOnePublishAutoconnect_disposedWhileABlocks_neverWaits() {
        check(.pipe, .publishAutoconnectSharedWithA, sender: .mainThread)
    }

    /// Shape 1: a pipe sent on a plain thread T1; A and B both subscribed to one `replayLazily()`
    /// of it.
    func testPlainThreadPipe_AAndBThroughOneReplayLazily_disposedWhileABlocks_neverWaits() {
        check(.pipe, .replayLazilySharedWithA)
    }

    /// Shape 1: a pipe sent on the main thread (T1); A and B both subscribed to one
    /// `replayLazily()` of it.
    func testMainThreadPipe_AAndBThroughOneReplayLazily_disposedWhileABlocks_neverWaits() {
        check(.pipe, .replayLazilySharedWithA, sender: .mainThread)
    }

    /// Shape 1: an `ObservableValue` set on a plain thread T1; A and B subscribed to its `signal`.
    func testObservableValueSetOnAPlainThread_BSubscribedToItsSignal_disposedWhileABlocks_neverWaits() {
        check(.observableValue, .direct)
    }

    /// Shape 1: an `ObservableValue` set on the main thread (T1); A and B subscribed to its
    /// `signal`.
    func testObservableValueSetOnTheMainThread_BSubscribedToItsSignal_disposedWhileABlocks_neverWaits() {
        check(.observableValue, .direct, sender: .mainThread)
    }

    /// Shape 1: an `ObservableValue` set on a plain thread T1; B's subscription to its `signal`
    /// held in a `ScopedDisposable` owned by an object T2 releases.
    func testObservableValueSetOnAPlainThread_BInAScopedDisposable_ownerReleasedWhileABlocks_neverWaits() {
        check(.observableValue, .direct, .scopedInReleasedOwner)
    }

    // MARK: bind(to:)

    /// Shape 1 with B a `bind(to:)`: A subscribed to a cell's `signal` blocks T1 (which set the
    /// cell) until T2 has disposed `cell.bind(to: mirror)`; the mirror is not set after that
    /// dispose returned, and the binding does not keep the mirror.
    private func checkBinding(_ sender: SenderThread, file: StaticString = #filePath, line: UInt = #line) {
        let shape = "ObservableValue \(sender.rawValue), B is bind(to:), T2 disposes the binding while A blocks T1"
        let watchdog = Watchdog(shape, file: file, line: line)
        defer { watchdog.cancel() }
        let cell = ObservableValue(0)
        var mirror: ObservableValue<Int>? = ObservableValue(-1)
        let mirrorReference = WeakReference(mirror!)
        let aEntered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let a = cell.signal.subscribe(next: { value in
            guard value == 1 else { return }
            aEntered.signal()
            release.wait()
        })
        let binding = cell.bind(to: mirror!)
        XCTAssertEqual(mirror!.value, 0, "\(shape): the binding did not set the mirror at once", file: file, line: line)
        let disposeReturned = Flag()
        let lateSets = Counter()
        let watcher = mirror!.signal.subscribe(next: { _ in
            if disposeReturned.isSet { lateSets.increment() }
        })
        let t2Finished = startThread("T2: disposes the binding") {
            aEntered.wait()
            binding.dispose()
            disposeReturned.set()
            release.signal()
        }
        switch sender {
        case .plainThread:
            let t1Finished = startThread("T1: sets the cell") {
                cell.value = 1
                cell.value = 2
            }
            spinMainRunLoop(untilAllSet: t1Finished, t2Finished)
        case .mainThread:
            cell.value = 1
            cell.value = 2
            spinMainRunLoop(untilAllSet: t2Finished)
        }
        XCTAssertEqual(lateSets.value, 0, "\(shape): the binding set the mirror after dispose() returned", file: file, line: line)
        XCTAssertEqual(mirror!.value, 0, "\(shape): the binding set the mirror after dispose() returned", file: file, line: line)
        watcher.dispose()
        mirror = nil
        XCTAssertTrue(eventually { !mirrorReference.isAlive }, "\(shape): something keeps the mirror", file: file, line: line)
        a.dispose()
    }

    /// Shape 1: an `ObservableValue` set on a plain thread T1, A subscribed to its `signal`, B is
    /// `cell.bind(to: mirror)`, disposed by T2 while A blocks.
    func testObservableValueSetOnAPlainThread_BIsABindTo_disposedWhileABlocks_neverWaits() {
        checkBinding(.plainThread)
    }

    /// Shape 1: an `ObservableValue` set on the main thread (T1), A subscribed to its `signal`, B
    /// is `cell.bind(to: mirror)`, disposed by T2 while A blocks.
    func testObservableValueSetOnTheMainThread_BIsABindTo_disposedWhileABlocks_neverWaits() {
        checkBinding(.mainThread)
    }
}
