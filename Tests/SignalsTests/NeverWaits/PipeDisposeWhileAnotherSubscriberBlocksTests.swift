import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// Shape 1 of "disposal never waits", over a pipe: two subscribers A and B of the same pipe; A's
/// callback runs on T1 and blocks until T2 signals; T2 ends B's subscription, then signals. It
/// must not hang (the watchdog ends the run if it does), B's callback never starts after T2's
/// dispose returned, and B's closure is freed once A's callback has returned.
final class PipeDisposeWhileAnotherSubscriberBlocksTests: LeakCheckedTestCase {
    private func check(
        _ sender: SenderThread,
        _ route: Route,
        _ holding: Holding = .itself,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let (signal, input) = Signal<Int, Never>.pipe()
        let shape = "pipe \(sender.rawValue), B \(route.name), \(holding.rawValue), T2 ends B while A blocks T1"
        let failures = disposalWhileAnotherSubscriberBlocks(
            shape, source: signal, send: { input.sendNext($0) }, sender: sender, route: route, holding: holding,
            file: file, line: line
        )
        for failure in failures { XCTFail(failure, file: file, line: line) }
    }

    /// Shape 1: the pipe's sender on a plain thread T1; B subscribed to the pipe directly.
    func testPlainThreadPipe_BDirect_disposedWhileABlocks_neverWaits() {
        check(.plainThread, .direct)
    }

    /// Shape 1: the pipe's sender on a plain thread T1; B reaching the pipe through `merge`.
    func testPlainThreadPipe_BThroughMerge_disposedWhileABlocks_neverWaits() {
        check(.plainThread, .merge)
    }

    /// Shape 1: the pipe's sender on a plain thread T1; B reaching the pipe through `flatten()`.
    func testPlainThreadPipe_BThroughFlatten_disposedWhileABlocks_neverWaits() {
        check(.plainThread, .flatten)
    }

    /// Shape 1: the pipe's sender on a plain thread T1; B reaching the pipe through `switchToLatest()`.
    func testPlainThreadPipe_BThroughSwitchToLatest_disposedWhileABlocks_neverWaits() {
        check(.plainThread, .switchToLatest)
    }

    /// Shape 1: the pipe's sender on a plain thread T1; B reaching the pipe through `combineLatest(with:)`.
    func testPlainThreadPipe_BThroughCombineLatest_disposedWhileABlocks_neverWaits() {
        check(.plainThread, .combineLatest)
    }

    /// Shape 1: the pipe's sender on a plain thread T1; B reaching the pipe through `zip(with:)`.
    func testPlainThreadPipe_BThroughZip_disposedWhileABlocks_neverWaits() {
        check(.plainThread, .zip)
    }

    /// Shape 1: the pipe's sender on a plain thread T1; B reaching the pipe through `take(until:)`.
    func testPlainThreadPipe_BThroughTakeUntil_disposedWhileABlocks_neverWaits() {
        check(.plainThread, .takeUntil)
    }

    /// Shape 1: the pipe's sender on a plain thread T1; B reaching the pipe through `deliver(on:)` a background scheduler.
    func testPlainThreadPipe_BThroughDeliverOn_disposedWhileABlocks_neverWaits() {
        check(.plainThread, .deliver(on: .background(name: "B's deliver(on:)")))
    }

    /// Shape 1: the pipe's sender on a plain thread T1; B reaching the pipe through `subscribe(on:)` a background scheduler.
    func testPlainThreadPipe_BThroughSubscribeOn_disposedWhileABlocks_neverWaits() {
        check(.plainThread, .subscribe(on: .background(name: "B's subscribe(on:)")))
    }

    /// Shape 1: the pipe's sender on a plain thread T1; B's disposable held in a `CompoundDisposable` that T2 disposes.
    func testPlainThreadPipe_BInACompoundDisposable_disposedWhileABlocks_neverWaits() {
        check(.plainThread, .direct, .compound)
    }

    /// Shape 1: the pipe's sender on a plain thread T1; B's disposable held in a `ScopedDisposable` owned by an object T2 releases.
    func testPlainThreadPipe_BInAScopedDisposable_ownerReleasedWhileABlocks_neverWaits() {
        check(.plainThread, .direct, .scopedInReleasedOwner)
    }

    /// Shape 1: the pipe's sender on the main thread (T1); B subscribed to the pipe directly.
    func testMainThreadPipe_BDirect_disposedWhileABlocks_neverWaits() {
        check(.mainThread, .direct)
    }

    /// Shape 1: the pipe's sender on the main thread (T1); B reaching the pipe through `merge`.
    func testMainThreadPipe_BThroughMerge_disposedWhileABlocks_neverWaits() {
        check(.mainThread, .merge)
    }

    /// Shape 1: the pipe's sender on the main thread (T1); B reaching the pipe through `flatten()`.
    func testMainThreadPipe_BThroughFlatten_disposedWhileABlocks_neverWaits() {
        check(.mainThread, .flatten)
    }

    /// Shape 1: the pipe's sender on the main thread (T1); B reaching the pipe through `switchToLatest()`.
    func testMainThreadPipe_BThroughSwitchToLatest_disposedWhileABlocks_neverWaits() {
        check(.mainThread, .switchToLatest)
    }

    /// Shape 1: the pipe's sender on the main thread (T1); B reaching the pipe through `combineLatest(with:)`.
    func testMainThreadPipe_BThroughCombineLatest_disposedWhileABlocks_neverWaits() {
        check(.mainThread, .combineLatest)
    }

    /// Shape 1: the pipe's sender on the main thread (T1); B reaching the pipe through `zip(with:)`.
    func testMainThreadPipe_BThroughZip_disposedWhileABlocks_neverWaits() {
        check(.mainThread, .zip)
    }

    /// Shape 1: the pipe's sender on the main thread (T1); B reaching the pipe through `take(until:)`.
    func testMainThreadPipe_BThroughTakeUntil_disposedWhileABlocks_neverWaits() {
        check(.mainThread, .takeUntil)
    }

    /// Shape 1: the pipe's sender on the main thread (T1); B reaching the pipe through `deliver(on:)` a background scheduler.
    func testMainThreadPipe_BThroughDeliverOn_disposedWhileABlocks_neverWaits() {
        check(.mainThread, .deliver(on: .background(name: "B's deliver(on:)")))
    }

    /// Shape 1: the pipe's sender on the main thread (T1); B reaching the pipe through `subscribe(on:)` a background scheduler.
    func testMainThreadPipe_BThroughSubscribeOn_disposedWhileABlocks_neverWaits() {
        check(.mainThread, .subscribe(on: .background(name: "B's subscribe(on:)")))
    }

    /// Shape 1: the pipe's sender on the main thread (T1); B's disposable held in a `CompoundDisposable` that T2 disposes.
    func testMainThreadPipe_BInACompoundDisposable_disposedWhileABlocks_neverWaits() {
        check(.mainThread, .direct, .compound)
    }

    /// Shape 1: the pipe's sender on the main thread (T1); B's disposable held in a `ScopedDisposable` owned by an object T2 releases.
    func testMainThreadPipe_BInAScopedDisposable_ownerReleasedWhileABlocks_neverWaits() {
        check(.mainThread, .direct, .scopedInReleasedOwner)
    }
}
