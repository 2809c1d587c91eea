import Disposables
import Foundation
import Observation
import Signals
import Subjects
import TestSupport
import XCTest

/// Writes to an `ObservableValue` from inside Swift Observation's `onChange`, attacked: loops
/// that re-track and write, several threads, cells writing each other, bindings, a cell let go
/// of inside `onChange`, and another thread inside its own notification.
final class ObservationWriteHostileTests: LeakCheckedTestCase {
    /// Re-tracks in `onChange` and writes the next value until `limit`: each write after the first
    /// is made from inside `onChange`.
    private static func followUntil(_ cell: ObservableValue<Int>, limit: Int, calls: Recorder<Int>) {
        withObservationTracking { _ = cell.value } onChange: {
            let value = cell.value
            calls.record(value)
            // The last call does not track again: a registration pending in the cell's registrar
            // would keep the cell (its closure holds it).
            guard value < limit else { return }
            followUntil(cell, limit: limit, calls: calls)
            cell.value = value + 1
        }
    }

    func testAnOnChangeThatReTracksAndWritesUntilALimit_isCalledOncePerWriteAndEnds() {
        let cell = ObservableValue(0)
        let published = Recorder<Int>()
        _ = cell.signal.subscribeNext { published.record($0) }
        let calls = Recorder<Int>()
        Self.followUntil(cell, limit: 100, calls: calls)
        cell.value = 1
        XCTAssertEqual(calls.values, Array(1...100))
        XCTAssertEqual(cell.value, 100)
        XCTAssertEqual(published.values.last, 100)
        XCTAssertEqual(published.values, published.values.sorted(), "published in the order written")
    }

    /// Thousands of writes from inside `onChange` loop, they do not nest: a thread with a small
    /// stack holds them.
    func testAnOnChangeWritingThousandsOfTimes_doesNotNest_onASmallStack() {
        let limit = BuildKind.isDebug || BuildKind.isSanitized ? 3_000 : 20_000
        let calls = Recorder<Int>()
        let last = Lock<Int?>(nil)
        let returned = onAThread(stackSize: 256 * 1024) {
            let cell = ObservableValue(0)
            Self.followUntil(cell, limit: limit, calls: calls)
            cell.value = 1
            last.withLock { $0 = cell.value }
        }
        XCTAssertTrue(returned)
        XCTAssertEqual(last.withLock { $0 }, limit)
        XCTAssertEqual(calls.values.count, limit)
    }

    /// Two cells whose `onChange`s write each other, re-tracking, until a limit: the writes
    /// bounce between them without nesting deeper and end.
    func testTwoCellsWritingEachOtherFromOnChange_endAtTheLimit() {
        let limit = 2_000
        let first = ObservableValue(0)
        let second = ObservableValue(0)
        let calls = Counter()
        let done = onAThread(stackSize: 256 * 1024) {
            @Sendable func trackFirst() {
                withObservationTracking { _ = first.value } onChange: {
                    calls.increment()
                    let value = first.value
                    guard value < limit else { return }
                    trackFirst()
                    second.value = value + 1
                }
            }
            @Sendable func trackSecond() {
                withObservationTracking { _ = second.value } onChange: {
                    calls.increment()
                    let value = second.value
                    guard value < limit else { return }
                    trackSecond()
                    first.value = value + 1
                }
            }
            trackFirst()
            trackSecond()
            first.value = 1
        }
        XCTAssertTrue(done)
        XCTAssertEqual(max(first.value, second.value), limit)
        XCTAssertEqual(calls.value, limit)
        // The registration the last call made holds both cells (its closure does): one more
        // write to each calls it, at the limit, and Observation lets it go.
        first.value = limit
        second.value = limit
    }

    /// Several threads write at once, and each `onChange` (on whatever thread) writes again: every
    /// write returns, and afterwards a new registration is told of a write once (no thread is left
    /// marked as notifying).
    func testWritesFromOnChangeOnSeveralThreadsAtOnce_allEnd_andLeaveNoThreadMarked() {
        let rounds = BuildKind.raceRounds(optimized: 200, debug: 60, sanitized: 20)
        withWatchdog("ObservableValue: writes from onChange on several threads") {
            for round in 0..<rounds {
                let cell = ObservableValue(0)
                for _ in 0..<3 {
                    // Weakly: a registration Observation keeps for good (below) would otherwise
                    // hold the cell that holds it, a cycle LeakSanitizer reports.
                    withObservationTracking { _ = cell.value } onChange: { [weak cell] in
                        if let cell, cell.value >= 0 { cell.value = -1 }
                    }
                }
                let group = DispatchGroup()
                for index in 0..<4 {
                    DispatchQueue.global().async(group: group) {
                        cell.value = index + 1
                        withObservationTracking { _ = cell.value } onChange: { [weak cell] in
                            if let cell, cell.value >= 0 { cell.value = -2 }
                        }
                        cell.value = index + 10
                    }
                }
                XCTAssertTrue(group.waitForAll(), "round \(round)")
                let after = Counter()
                withObservationTracking { _ = cell.value } onChange: { after.increment() }
                cell.value = 1_000
                XCTAssertEqual(after.value, 1, "round \(round)")
                // Swift's Observation now and then leaves a registration made while another thread
                // writes registered for good: it writes -2 from inside this write's onChange.
                XCTAssertTrue([1_000, -2].contains(cell.value), "round \(round): \(cell.value)")
            }
        }
    }

    /// A write through a binding made inside `onChange`: the bound cell's write flows back into
    /// the observed cell on this thread, from inside its `onChange`.
    func testAWriteInsideOnChangeThroughABinding_reachesBothCellsAndARegistrationMadeThere() {
        let cell = ObservableValue(0)
        let mirror = ObservableValue(0)
        let channelBinding = cell.channel
        let mirrorBinding = mirror.channel
        // Each cell's channel follows the other's.
        _ = channelBinding.subscribe(next: { mirrorBinding.sendNext($0) })
        _ = mirrorBinding.subscribe(next: { channelBinding.sendNext($0) })
        let retracked = Recorder<Int>()
        let fired = Counter()
        withObservationTracking { _ = cell.value } onChange: {
            fired.increment()
            withObservationTracking { _ = cell.value } onChange: { retracked.record(cell.value) }
            if cell.value == 1 { mirror.value = 10 }
        }
        cell.value = 1
        XCTAssertEqual(fired.value, 1)
        XCTAssertEqual(cell.value, 10)
        XCTAssertEqual(mirror.value, 10)
        XCTAssertEqual(retracked.values, [10])
    }

    /// A one-way binding whose source is written from inside the target's `onChange`.
    func testAWriteInsideOnChangeToTheSourceOfABindingIntoTheCell_isToldOfAfter() {
        let cell = ObservableValue(0)
        let source = ObservableValue(0)
        let binding = source.bind(to: cell)
        let retracked = Recorder<Int>()
        withObservationTracking { _ = cell.value } onChange: {
            withObservationTracking { _ = cell.value } onChange: { retracked.record(cell.value) }
            if cell.value == 1 { source.value = 7 }
        }
        cell.value = 1
        XCTAssertEqual(cell.value, 7)
        XCTAssertEqual(retracked.values, [7])
        binding.dispose()
    }

    /// The last reference to the cell is let go of inside `onChange`, which then writes through a
    /// weak reference: nothing crashes, and the cell goes.
    func testACellLetGoOfInsideOnChange_goesOnceTheWriteReturns() {
        final class Owner: @unchecked Sendable {
            var cell: ObservableValue<Int>? = ObservableValue(0)
        }
        let owner = Owner()
        let weakCell = WeakReference(owner.cell!)
        withObservationTracking { _ = owner.cell?.value } onChange: { [weak cell = owner.cell] in
            owner.cell = nil
            cell?.value = 2
            cell?.value = 3
        }
        owner.cell?.value = 1
        XCTAssertFalse(weakCell.isAlive)
    }

    /// Another thread is inside `onChange` (of the registration it was called for) while this
    /// thread writes and its own call of that still-registered `onChange` writes once: this
    /// thread's write returns promptly; the registration's `onChange` is not called over and over
    /// while the other thread is inside it.
    func testAWriteFromOnChangeWhileAnotherThreadIsInsideOnChange_returnsWithoutCallingItOverAndOver() {
        withWatchdog("ObservableValue: write from onChange while another thread is inside onChange") {
            let cell = ObservableValue(0)
            let otherInside = DispatchSemaphore(value: 0)
            let writeReturned = DispatchSemaphore(value: 0)
            let callsHere = Counter()
            withObservationTracking { _ = cell.value } onChange: { [weak cell] in
                if Thread.current.threadDictionary["inside onChange"] != nil {
                    otherInside.signal()
                    _ = writeReturned.waitForSignal()
                } else {
                    callsHere.increment()
                    cell?.value = 99
                }
            }
            Thread.detachNewThread {
                Thread.current.threadDictionary["inside onChange"] = true
                cell.value = 1
            }
            XCTAssertTrue(otherInside.waitForSignal())
            cell.value = 2
            writeReturned.signal()
            XCTAssertLessThanOrEqual(callsHere.value, 2, "onChange called \(callsHere.value) times for one write")
            XCTAssertEqual(cell.value, 99)
        }
    }

    /// SwiftUI-like: a view re-tracks on the main queue after each change, and its `onChange`
    /// corrects the value once (a write from inside it): each render sees the corrected value.
    func testSwiftUILikeReTrackingOnTheMainQueue_seesTheValueWrittenInsideOnChange() {
        let cell = ObservableValue(0)
        let renders = Recorder<Int>()
        let stopped = Flag()
        @Sendable func render() {
            withObservationTracking {
                renders.record(cell.value)
            } onChange: {
                if stopped.isSet { return }
                let value = cell.value
                if value % 2 == 1 { cell.value = value + 1 }
                DispatchQueue.main.async { render() }
            }
        }
        render()
        cell.value = 1
        XCTAssertTrue(eventually { renders.values.last == 2 })
        onAThread { cell.value = 3 }
        XCTAssertTrue(eventually { renders.values.last == 4 })
        XCTAssertEqual(renders.values, [0, 2, 4])
        // The last render's registration holds the cell (its closure does): a write calls it,
        // it renders no more, and Observation lets it go.
        stopped.set()
        cell.value = 10
    }

    /// One registration tracks two cells, and its `onChange`, called for a write to the first,
    /// writes the second: Observation calls the still-registered `onChange` again, nested, for
    /// that write (an `@Observable` type's would recurse until the stack overflows); the cell
    /// ends it after one more call.
    func testARegistrationTrackingTwoCells_whoseOnChangeWritesTheOther_ends() {
        let first = ObservableValue(0)
        let second = ObservableValue(0)
        let calls = Counter()
        withObservationTracking {
            _ = first.value
            _ = second.value
        } onChange: {
            calls.increment()
            second.value += 1
        }
        first.value = 1
        XCTAssertTrue((1...2).contains(calls.value), "\(calls.value) calls")
        second.value = 100
        XCTAssertTrue((1...2).contains(calls.value), "\(calls.value) calls after")
    }

    /// A property following a signal of the cell tracks as a cell of its own: its `onChange`
    /// writes the source cell, which reaches the following property's cell on this thread from
    /// inside that `onChange`. A registration made there hears of it once.
    func testAFollowingPropertysOnChangeWritingItsSource_isToldOfAfterOnChange() {
        let cell = ObservableValue(0)
        let following = Property(initial: 0, then: cell.signal.map { $0 * 2 })
        let fired = Counter()
        let retracked = Recorder<Int>()
        withObservationTracking { _ = following.value } onChange: {
            fired.increment()
            withObservationTracking { _ = following.value } onChange: { retracked.record(following.value) }
            if cell.value == 1 { cell.value = 5 }
        }
        cell.value = 1
        XCTAssertEqual(fired.value, 1)
        XCTAssertEqual(following.value, 10)
        XCTAssertEqual(retracked.values, [10])
    }

    /// `Property(cell)` reads the cell: its tracking is the cell's, and a write through the cell
    /// from inside `onChange` reaches a registration made there once.
    func testAPropertyOfTheCell_aWriteFromInsideOnChange_reachesARegistrationMadeThere() {
        let cell = ObservableValue(0)
        let property = Property(cell)
        let retracked = Recorder<Int>()
        withObservationTracking { _ = property.value } onChange: {
            withObservationTracking { _ = property.value } onChange: { retracked.record(property.value) }
            if cell.value == 1 { cell.value = 3 }
        }
        cell.value = 1
        XCTAssertEqual(retracked.values, [3])
        XCTAssertEqual(property.value, 3)
    }
}
