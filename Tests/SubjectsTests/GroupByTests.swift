import Signals
import Subjects
import TestSupport
import XCTest

final class GroupByTests: LeakCheckedTestCase {
    /// Subscribes to every group as it arrives and records, per key, what it receives.
    private func recordGroups<Key: Hashable & Sendable, Value: Sendable>(
        _ signal: Signal<GroupedSignal<Key, Value, TestError>, TestError>
    ) -> (outer: EventRecorder<Key, TestError>, log: Recorder<String>) {
        let log = Recorder<String>()
        let outer = signal.map { group -> Key in
            group.subscribe(
                next: { log.record("\(group.key): \($0)") },
                error: { _ in log.record("\(group.key): error") },
                completed: { log.record("\(group.key): completed") }
            )
            log.record("group \(group.key)")
            return group.key
        }.record()
        return (outer, log)
    }

    func testGroupBy_sendsEachGroupBeforeItsFirstValue() {
        let (outer, log) = recordGroups(TestSource([1, 2, 3, 4, 5]).signal.group(by: { $0 % 2 }))
        XCTAssertEqual(outer.events, [.next(1), .next(0), .completed])
        XCTAssertEqual(log.values, [
            "group 1", "1: 1", "group 0", "0: 2", "1: 3", "0: 4", "1: 5", "1: completed", "0: completed",
        ])
    }

    func testGroupBy_transformChangesTheValuesSentToGroups() {
        let (_, log) = recordGroups(TestSource([1, 2]).signal.group(by: { $0 % 2 }, transform: { "v\($0)" }))
        XCTAssertEqual(log.values, ["group 1", "1: v1", "group 0", "0: v2", "1: completed", "0: completed"])
    }

    func testGroupBy_errorReachesTheOuterSubscriberFirstThenEveryGroup() {
        let events = Recorder<String>()
        TestSource([1, 2], end: .error(.first)).signal.group(by: { $0 }).subscribe(next: { group in
            group.subscribe(error: { _ in events.record("group \(group.key) error") })
        }, error: { _ in events.record("outer error") })
        XCTAssertEqual(events.values, ["outer error", "group 1 error", "group 2 error"])
    }

    func testGroupBy_emptySourceCompletesWithNoGroup() {
        XCTAssertEqual(TestSource<Int>([]).signal.group(by: { $0 }).map(\.key).record().events, [.completed])
    }

    func testGroupBy_errorAtTheStart() {
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.group(by: { $0 }).map(\.key).record().events, [.error(.first)])
    }

    func testGroupBy_disposalInsideTheFirstGroupStopsARepeatingSynchronousSource() {
        // The source loops inside the subscribing call: its subscription must join the
        // subscriber's disposable before the first value, not once that call returns.
        let source = SelfLimitingSource()
        let groups = Counter()
        let subscription = source.signal.repeat().group(by: { $0 }).subscribeDisposingInFirstValue(counting: groups)
        XCTAssertEqual(groups.value, 1)
        XCTAssertEqual(source.subscriptions.value, 1)
        XCTAssertTrue(subscription.isDisposed)
    }

    func testGroupBy_disposalStopsTheSourceAndTheGroups() {
        let source = DrivenSource<TestError>()
        let log = Recorder<Int>()
        let subscription = source.signal.group(by: { $0 % 2 }).subscribe(next: { group in
            group.subscribe(next: { log.record($0) })
        })
        source.input.sendNext(1)
        subscription.dispose()
        source.input.sendNext(3)
        XCTAssertEqual(log.values, [1])
        XCTAssertEqual(source.disposals.value, 1)
    }
}
