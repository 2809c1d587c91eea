import Disposables
import Foundation
import Schedulers
import Signals
import Synchronization
import TestSupport
import XCTest

/// `SignalDiagnostics.liveSubscriptionCount`: a subscription counts from when it is made until it
/// is freed, whichever threads make and free it.
final class SignalDiagnosticsTests: LeakCheckedTestCase {
    private var live: Int { SignalDiagnostics.liveSubscriptionCount }

    func testCount_aCreatedSignalsSubscriptionCountsUntilDisposed() {
        let before = live
        let disposable = Signal<Int, Never> { _ in Disposable {} }.subscribe(next: { _ in })
        XCTAssertEqual(live, before + 1)
        disposable.dispose()
        XCTAssertEqual(live, before)
    }

    func testCount_aSubscriptionEndedByItsTerminalEventIsFreed() {
        let before = live
        let (signal, input) = Signal<Int, Never>.pipe()
        _ = signal.map { $0 + 1 }.subscribe(next: { _ in })
        XCTAssertGreaterThan(live, before)
        input.sendCompleted()
        XCTAssertEqual(live, before + 1, "the pipe's own input is alive while its sender is")
        _ = consume input
        _ = consume signal
        XCTAssertEqual(live, before)
    }

    func testCount_subscriptionsToAHotSignalCountEach() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let before = live
        let subscriptions = (0..<3).map { _ in signal.subscribe(next: { _ in }) }
        XCTAssertEqual(live, before + 3)
        subscriptions.forEach { $0.dispose() }
        XCTAssertEqual(live, before)
        withExtendedLifetime(input) {}
    }

    func testCount_aSubscriptionKeptAliveByACycleStaysCounted() {
        let before = live
        let box = DisposableBox()
        // The callback holds the subscription's own disposable: nothing ends it, so it stays.
        box.disposable = Signal<Int, Never>.never.subscribe(next: { _ in withExtendedLifetime(box) {} })
        let neverOnes = live - before
        let created = Signal<Int, Never> { _ in Disposable {} }.subscribe(next: { _ in withExtendedLifetime(box) {} })
        XCTAssertEqual(live, before + neverOnes + 1)
        created.dispose()
        box.disposable?.dispose()
        XCTAssertEqual(live, before)
    }

    /// Made on eight threads, freed on others, some of those threads gone by the time it is read:
    /// the sum is still exact. Each thread subscribes with a scheduler current, so its
    /// subscriptions are made before `subscribe` returns rather than on the background
    /// subscription scheduler.
    func testCount_sumsAcrossThreadsThatMakeFreeAndExit() {
        let before = live
        let made = Lock<[Disposable]>([])
        let threads = 8, each = 500
        race(threads: threads) { _ in
            QueueScheduler(name: "diagnostics").performAsCurrentScheduler {
                for _ in 0..<each {
                    let disposable = Signal<Int, Never> { _ in Disposable {} }.subscribe(next: { _ in })
                    made.withLock { $0.append(disposable) }
                }
            }
        }
        XCTAssertEqual(live, before + threads * each)
        let all = made.withLock { $0 }
        made.withLock { $0 = [] }
        race(threads: threads) { thread in
            for index in stride(from: thread, to: all.count, by: threads) { all[index].dispose() }
        }
        XCTAssertTrue(eventually { self.live == before }, "\(live - before) subscriptions still counted")
    }
}
