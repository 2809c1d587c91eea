import Disposables
import Foundation
import Signals
@testable import Subjects
import TestSupport
import XCTest

/// What a thread queues on a subject beyond its bound from inside a callback (where it never
/// waits) it pays for once its outermost send is over, from every thread context; and never inside
/// a subscribe: the blocking mode of the thread matrix for that wait.
final class SubjectDebtTests: LeakCheckedTestCase {
    private static let contexts: [MatrixContext] = [.mainThread, .plainThread, .globalQueue, .queueScheduler, .testScheduler, .task]

    /// A subject whose deliverer, on a thread of its own, blocks in its callback of -1 until
    /// `release` is set; with every value it received.
    private final class BlockedSubject: Sendable {
        let subject = Subject<Int, Never>()
        let received = Lock([Int]())
        let blocked = Flag()
        let release = Flag()
        private(set) nonisolated(unsafe) var deliverer = Flag()
        private let subscription = DisposableBox()

        init() {
            subscription.disposable = subject.subscribe(next: { [self] value in
                received.withLock { $0.append(value) }
                guard value == -1 else { return }
                blocked.set()
                _ = pollWithoutRunningTheMainQueue { release.isSet }
            })
            deliverer = startThread("the subject's deliverer, blocked in a callback") { [subject] in subject.sendNext(-1) }
        }

        /// Ends the subscription, which holds this object.
        func finish() {
            subscription.disposable?.dispose()
        }

        var count: Int { received.withLock { $0.count } }
        var values: [Int] { received.withLock { $0 } }
    }

    /// From every context, a pipe's `sendNext` whose callback forwards 100 values into a subject
    /// that another thread is delivering (blocked in a callback) does not return with them all
    /// queued: it waits, outside its delivery, until the subject's queue is back within the bound
    /// (64), so more than 100 - 64 of them have been delivered when it returns. The deliverer is
    /// released from another thread once the values are queued.
    func testForwardingSendFromEveryContext_returnsOnceTheSubjectsQueueIsWithinTheBound() {
        let watchdog = Watchdog("a forwarding send waiting for a subject's queue, from every context")
        defer { watchdog.cancel() }
        let bound = SerialInput<Int, Never>.bound
        for context in Self.contexts {
            let target = BlockedSubject()
            XCTAssertTrue(eventually { target.blocked.isSet }, "\(context)")
            let (forwarded, forward) = Signal<Int, Never>.pipe()
            let forwarding = forwarded.subscribe(next: { _ in
                for value in 0..<100 { target.subject.sendNext(value) }
            })
            let subject = target.subject
            let releaser = startThread("releases the deliverer once the values are queued") {
                _ = pollWithoutRunningTheMainQueue { subject.input.highWaterMark >= 100 }
                target.release.set()
            }
            let deliveredWhenReturned = Lock(0)
            let pending = context.start {
                forward.sendNext(1)
                let count = target.count
                deliveredWhenReturned.withLock { $0 = count }
            }
            XCTAssertTrue(pending.wait(), "\(context): the forwarding send did not return")
            let delivered = deliveredWhenReturned.withLock { $0 }
            // -1, then at least the values beyond the bound (the wait's own empty item counts).
            XCTAssertGreaterThanOrEqual(delivered, 1 + 100 - bound, "\(context): the send returned with its values still queued")
            XCTAssertTrue(eventually { target.count == 101 }, "\(context)")
            XCTAssertEqual(target.values, [-1] + Array(0..<100), "\(context)")
            spinMainRunLoop(untilAllSet: target.deliverer, releaser)
            forwarding.dispose()
            target.finish()
        }
    }

    /// From every context, subscribing to a `ReplaySubject` whose replay forwards 100 values into
    /// a subject that another thread is delivering (blocked in its callback until the subscribe
    /// has returned) returns without waiting for it: a replay's callbacks owe nothing. The values
    /// all arrive once the deliverer goes on.
    func testSubscribeFromEveryContext_replayForwardingBeyondTheBound_neverWaits() {
        let watchdog = Watchdog("a subscribe whose replay forwards beyond a subject's bound, from every context")
        defer { watchdog.cancel() }
        for context in Self.contexts {
            let target = BlockedSubject()
            XCTAssertTrue(eventually { target.blocked.isSet }, "\(context)")
            let replayed = ReplaySubject<Int, Never>()
            for value in 0..<100 { replayed.sendNext(value) }
            let subscription = DisposableBox()
            let subject = target.subject
            let pending = context.start {
                subscription.disposable = replayed.subscribe(next: { subject.sendNext($0) })
            }
            // The deliverer stays blocked until the subscribe has returned, or the wait gives up.
            let returned = pending.wait()
            target.release.set()
            XCTAssertTrue(returned, "\(context): subscribe waited for the subject's deliverer")
            if !returned { XCTAssertTrue(pending.wait(), "\(context): subscribe never returned") }
            XCTAssertTrue(eventually { target.count == 101 }, "\(context)")
            XCTAssertEqual(target.values, [-1] + Array(0..<100), "\(context)")
            spinMainRunLoop(untilAllSet: target.deliverer)
            subscription.disposable?.dispose()
            target.finish()
        }
    }
}
