import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// Shape 4 of "disposal never waits": a subscription through `deliver(on:)` a background scheduler
/// whose callback does `DispatchQueue.main.sync {}`, disposed from the main thread while that
/// callback waits for the main queue. dispose() returns at once, and none of the values still
/// queued on the scheduler starts a callback afterwards.
final class DeliverOnDisposalTests: LeakCheckedTestCase {
    private func check(_ scheduler: Scheduler, file: StaticString = #filePath, line: UInt = #line) {
        let shape = "deliver(on: \(scheduler.name)), its callback inside DispatchQueue.main.sync, disposed from the main thread"
        let watchdog = Watchdog(shape, file: file, line: line)
        defer { watchdog.cancel() }
        let (signal, input) = Signal<Int, Never>.pipe()
        let entered = Flag()
        let disposeReturned = Flag()
        let lateCallbacks = Counter()
        let returned = Counter()
        let (subscription, token) = trackingLifetime { token in
            signal.deliver(on: scheduler).subscribe(next: { _ in
                if disposeReturned.isSet { lateCallbacks.increment() }
                withExtendedLifetime(token) {}
                entered.set()
                DispatchQueue.main.sync {}
                returned.increment()
            })
        }
        // 1 enters the callback; 2 and 3 wait on the scheduler behind it.
        for value in 1...3 { input.sendNext(value) }
        guard pollWithoutRunningTheMainQueue({ entered.isSet }) else {
            return XCTFail("\(shape): the callback never started", file: file, line: line)
        }
        subscription.dispose()
        disposeReturned.set()
        input.sendNext(4)
        XCTAssertTrue(eventually { returned.value >= 1 }, "\(shape): the callback under way never returned", file: file, line: line)
        XCTAssertTrue(eventually { !token.isAlive }, "\(shape): the subscription's closure is still alive 10 s after its callback returned", file: file, line: line)
        XCTAssertEqual(lateCallbacks.value, 0, "\(shape): callbacks started after dispose() returned", file: file, line: line)
        XCTAssertEqual(returned.value, 1, "\(shape)", file: file, line: line)
    }

    /// Shape 4: `deliver(on: Scheduler.background())`, the callback inside
    /// `DispatchQueue.main.sync {}`, disposed from the main thread.
    func testDeliverOnABackgroundScheduler_callbackSyncingOntoMain_disposedFromMain_neverWaits() {
        check(.background(name: "deliver(on:) background"))
    }

    /// Shape 4: `deliver(on: QueueScheduler(name:))` (a serial queue of its own), the callback
    /// inside `DispatchQueue.main.sync {}`, disposed from the main thread.
    func testDeliverOnAQueueScheduler_callbackSyncingOntoMain_disposedFromMain_neverWaits() {
        check(QueueScheduler(name: "deliver(on:) queue scheduler"))
    }

    /// Shape 4, one operator further: `deliver(on: Scheduler.background()).map { … }`, the map's
    /// subscriber inside `DispatchQueue.main.sync {}`, disposed from the main thread.
    func testDeliverOnThenMap_callbackSyncingOntoMain_disposedFromMain_neverWaits() {
        let shape = "deliver(on: background).map, its callback inside DispatchQueue.main.sync, disposed from the main thread"
        let watchdog = Watchdog(shape)
        defer { watchdog.cancel() }
        let (signal, input) = Signal<Int, Never>.pipe()
        let entered = Flag()
        let disposeReturned = Flag()
        let lateCallbacks = Counter()
        let (subscription, token) = trackingLifetime { token in
            signal.deliver(on: .background()).map { $0 * 10 }.subscribe(next: { _ in
                if disposeReturned.isSet { lateCallbacks.increment() }
                withExtendedLifetime(token) {}
                entered.set()
                DispatchQueue.main.sync {}
            })
        }
        for value in 1...3 { input.sendNext(value) }
        XCTAssertTrue(pollWithoutRunningTheMainQueue { entered.isSet })
        subscription.dispose()
        disposeReturned.set()
        XCTAssertTrue(eventually { !token.isAlive }, "\(shape): the closure is still alive")
        XCTAssertEqual(lateCallbacks.value, 0, "\(shape): callbacks started after dispose() returned")
    }
}
