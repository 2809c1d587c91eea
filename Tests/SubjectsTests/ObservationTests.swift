import Foundation
import Observation
import Signals
import Subjects
import TestSupport
import XCTest

/// `ObservableValue` and `Property` seen by Swift's Observation, as a SwiftUI view sees them.
final class ObservationTests: LeakCheckedTestCase {
    func testACellReadWhileTracking_callsOnChangeOnce_afterTheValueIsStored() {
        let cell = ObservableValue(1)
        let seen = Recorder<Int>()
        withObservationTracking {
            _ = cell.value
        } onChange: {
            seen.record(cell.value)
        }
        cell.value = 2
        cell.value = 3
        XCTAssertEqual(seen.values, [2], "once per registration, with the new value stored")
    }

    func testAChangeThroughTheChannel_isSeenToo() {
        let cell = ObservableValue("a")
        let changes = Counter()
        withObservationTracking { _ = cell.value } onChange: { changes.increment() }
        cell.channel.sendNext("b")
        XCTAssertEqual(changes.value, 1)
        XCTAssertEqual(cell.value, "b")
    }

    func testOnChange_runsOnTheThreadThatChangesTheCell_beforeItsSignalsSubscribersHear() {
        let cell = ObservableValue(0)
        let log = Recorder<String>()
        cell.signal.subscribe(next: { log.record("signal \($0)") })
        withObservationTracking { _ = cell.value } onChange: {
            log.record("onChange on main: \(Thread.isMainThread)")
        }
        onAPlainThread { cell.value = 1 }
        XCTAssertTrue(eventually { log.values.count == 3 })
        XCTAssertEqual(log.values, ["signal 0", "onChange on main: false", "signal 1"])
    }

    func testTrackingAgainInOnChange_followsEveryChange() {
        let cell = ObservableValue(0)
        let seen = Recorder<Int>()
        let stop = Flag()
        @Sendable func track() {
            withObservationTracking { seen.record(cell.value) } onChange: {
                // The documented pattern: re-register, reading the value afresh.
                if !stop.isSet { track() }
            }
        }
        track()
        for value in 1...3 { cell.value = value }
        XCTAssertEqual(seen.values, [0, 1, 2, 3])
        // The registration holds its closure, and so the cell, until it is called.
        stop.set()
        cell.value = 4
    }

    func testAPropertyOfACell_aComputedProperty_andAFollowingOne_areTracked() {
        let cell = ObservableValue(1)
        let property = Property(cell)
        let mapped = property.map { $0 * 10 }
        let zipped = property.zip(with: mapped)
        let following = Property(initial: 0, then: cell.signal)
        let changed = Recorder<String>()
        withObservationTracking { _ = property.value } onChange: { changed.record("property") }
        withObservationTracking { _ = mapped.value } onChange: { changed.record("mapped") }
        withObservationTracking { _ = zipped.value } onChange: { changed.record("zipped") }
        withObservationTracking { _ = following.value } onChange: { changed.record("following") }
        cell.value = 2
        XCTAssertEqual(Set(changed.values), ["property", "mapped", "zipped", "following"])
        XCTAssertEqual(changed.values.count, 4)
        XCTAssertEqual(zipped.value.1, 20)
    }

    func testAConstantIsNeverChanged() {
        let constant = Property(value: 1)
        let changes = Counter()
        withObservationTracking { _ = constant.value } onChange: { changes.increment() }
        XCTAssertEqual(changes.value, 0)
    }

    func testACellNoOneHasRead_isChangedWithoutObservation_andTrackedOnceRead() {
        let cell = ObservableValue(0)
        for value in 1...10 { cell.value = value }
        let changes = Counter()
        withObservationTracking { _ = cell.value } onChange: { changes.increment() }
        cell.value = 11
        XCTAssertEqual(changes.value, 1)
    }

    /// No registration misses a change. (Not "each is called once": Swift's Observation itself,
    /// for an `@Observable` macro type as for this cell, now and then calls a registration made
    /// while another thread writes once per write that follows, about 1 round in 3,000 in a
    /// release build; so the test asks only that none is missed.)
    func testTrackingFromManyThreadsWhileAnotherWrites_noRegistrationMissesAChange() {
        let rounds = BuildKind.raceRounds(optimized: 100, debug: 30, sanitized: 10)
        for _ in 0..<rounds {
            let cell = ObservableValue(0)
            let calls = (0..<3).map { _ in Counter() }
            let trackers = (0..<3).map { index in
                startThread("tracker \(index)") {
                    withObservationTracking { _ = cell.value } onChange: { calls[index].increment() }
                }
            }
            let writer = startThread("writer") {
                for value in 1...50 { cell.value = value }
            }
            XCTAssertTrue(eventually { trackers.allSatisfy(\.isSet) && writer.isSet })
            // A registration made after the last write has not been called; one more write calls
            // every registration that was not called yet.
            cell.value = -1
            XCTAssertTrue(calls.allSatisfy { $0.value >= 1 }, "a registration missed a change: \(calls.map(\.value))")
        }
    }
}
