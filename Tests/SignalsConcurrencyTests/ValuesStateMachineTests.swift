import Disposables
@testable import Signals
import TestSupport
import XCTest

/// `ValuesStateMachine` without threads: a waiter is a plain `String`.
final class ValuesStateMachineTests: LeakCheckedTestCase {
    private typealias Machine = ValuesStateMachine<Int, TestError, String>

    private func value(_ action: Machine.NextAction) -> Int?? {
        if case let .deliver(.success(value)) = action { return value }
        return nil
    }

    func testNext_subscribesOnceThenWaits() {
        var machine = Machine(policy: .unbounded)
        guard case .subscribe = machine.next() else { return XCTFail("did not subscribe first") }
        guard case .wait = machine.next() else { return XCTFail("did not wait") }
    }

    func testReceive_goesToTheWaiterElseToTheBuffer() {
        var machine = Machine(policy: .unbounded)
        _ = machine.next()
        XCTAssertNil(machine.suspend("waiter"))
        let first = machine.receive(1)
        XCTAssertEqual(first.resume, "waiter")
        XCTAssertEqual(first.value, 1)
        let second = machine.receive(2)
        XCTAssertNil(second.resume)
        XCTAssertNil(second.value)
        XCTAssertEqual(value(machine.next()), .some(2))
    }

    func testEnd_comesAfterTheBufferedValuesThenNilForEver() {
        var machine = Machine(policy: .unbounded)
        _ = machine.next()
        _ = machine.receive(1)
        _ = machine.receive(end: .failure(.first))
        XCTAssertEqual(value(machine.next()), .some(1))
        guard case .deliver(.failure(.first)) = machine.next() else { return XCTFail("no error") }
        XCTAssertEqual(value(machine.next()), .some(nil))
        XCTAssertTrue(machine.isFinished)
    }

    func testEnd_resumesAWaiterAndReleasesTheSubscription() {
        var machine = Machine(policy: .unbounded)
        _ = machine.next()
        let upstream = Disposable()
        XCTAssertNil(machine.attach(upstream))
        XCTAssertNil(machine.suspend("waiter"))
        let end = machine.receive(end: .success(()))
        XCTAssertEqual(end.resume, "waiter")
        XCTAssertTrue(end.subscription === upstream)
        // Nothing after the end.
        XCTAssertEqual(machine.receive(3).value, 3)
        XCTAssertNil(machine.receive(end: .failure(.second)).resume)
    }

    func testPolicies_keepTheNewestOrTheOldest() {
        var newest = ValuesStateMachine<Int, TestError, String>(policy: .bufferingNewest(2))
        var oldest = ValuesStateMachine<Int, TestError, String>(policy: .bufferingOldest(2))
        _ = newest.next()
        _ = oldest.next()
        var evicted: [Int] = []
        var refused: [Int] = []
        for item in 1...4 {
            if let dropped = newest.receive(item).value { evicted.append(dropped) }
            if let dropped = oldest.receive(item).value { refused.append(dropped) }
        }
        XCTAssertEqual(evicted, [1, 2])
        XCTAssertEqual(refused, [3, 4])
        XCTAssertEqual([value(newest.next()), value(newest.next())], [.some(3), .some(4)])
        XCTAssertEqual([value(oldest.next()), value(oldest.next())], [.some(1), .some(2)])
    }

    func testCancelWaiter_hasTheWaiterResumedOnceAndLeavesTheSubscriptionForCancel() {
        var machine = Machine(policy: .unbounded)
        _ = machine.next()
        let upstream = Disposable()
        _ = machine.attach(upstream)
        XCTAssertNil(machine.suspend("waiter"))
        XCTAssertEqual(machine.cancelWaiter(), "waiter")
        XCTAssertNil(machine.cancelWaiter())
        // A value racing the cancellation finds no waiter.
        XCTAssertNil(machine.receive(1).resume)
        let cancellation = machine.cancel()
        XCTAssertNil(cancellation.waiter)
        XCTAssertTrue(cancellation.subscription === upstream)
        XCTAssertNil(machine.cancel().subscription)
        XCTAssertEqual(value(machine.next()), .some(nil))
    }

    func testCancel_dropsTheBufferAndDisposesALateSubscription() {
        var machine = Machine(policy: .unbounded)
        _ = machine.next()
        _ = machine.receive(1)
        _ = machine.receive(2)
        XCTAssertEqual(machine.cancel().dropped.count, 2)
        XCTAssertEqual(value(machine.next()), .some(nil))
        let late = Disposable()
        XCTAssertTrue(machine.attach(late) === late)
        // A suspension after cancellation returns at once.
        XCTAssertEqual(try? machine.suspend("waiter")?.get(), .some(nil))
    }
}
