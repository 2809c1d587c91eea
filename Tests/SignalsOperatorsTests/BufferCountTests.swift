import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class BufferCountTests: LeakCheckedTestCase {
    private typealias Events = [Stamped<[Int], TestError>]

    func testBufferCount_sendsEachFullArrayThenTheRestBeforeCompleting() {
        XCTAssertEqual(TestSource([1, 2, 3, 4, 5]).signal.buffer(count: 2).record().events, [.next([1, 2]), .next([3, 4]), .next([5]), .completed])
        XCTAssertEqual(TestSource([1, 2, 3, 4]).signal.buffer(count: 2).record().events, [.next([1, 2]), .next([3, 4]), .completed])
        XCTAssertEqual(TestSource([1, 2]).signal.buffer(count: 1).record().events, [.next([1]), .next([2]), .completed])
        XCTAssertEqual(TestSource([1, 2]).signal.buffer(count: 5).record().events, [.next([1, 2]), .completed])
        XCTAssertEqual(TestSource<Int>([]).signal.buffer(count: 3).record().events, [.completed])
    }

    func testBufferCount_sendsAnArrayAsSoonAsItFills() {
        let (source, input) = Signal<Int, TestError>.pipe()
        let recorder = source.buffer(count: 3).record()
        input.sendNext(1)
        input.sendNext(2)
        XCTAssertEqual(recorder.events, [])
        input.sendNext(3)
        XCTAssertEqual(recorder.events, [.next([1, 2, 3])])
        input.sendNext(4)
        XCTAssertEqual(recorder.events, [.next([1, 2, 3])])
    }

    func testBufferCount_anErrorDiscardsTheUnfilledArray() {
        XCTAssertEqual(TestSource([1, 2, 3], end: .error(.first)).signal.buffer(count: 2).record().events, [.next([1, 2]), .error(.first)])
        XCTAssertEqual(TestSource<Int>([], end: .error(.second)).signal.buffer(count: 2).record().events, [.error(.second)])
    }

    func testBufferCount_aSubscriberKeepingTheArraysSeesEachUnchanged() {
        let arrays = Recorder<[Int]>()
        TestSource(Array(0..<7)).signal.buffer(count: 3).subscribe(next: { arrays.record($0) })
        XCTAssertEqual(arrays.values, [[0, 1, 2], [3, 4, 5], [6]])
    }

    func testBufferCount_disposalMidStreamDropsTheBufferAndStops() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.buffer(count: 2).record()
        source.input.sendNext(1)
        source.input.sendNext(2)
        source.input.sendNext(3)
        recorder.dispose()
        source.input.sendNext(4)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next([1, 2])])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testBufferCount_releasesTheBufferedValuesAfterDisposalAndTheEnd() {
        let (tokens, input) = Signal<LifetimeToken, Never>.pipe()
        let (subscription, buffered) = trackingLifetime { token in
            let subscription = tokens.buffer(count: 2).subscribe()
            input.sendNext(token)
            return subscription
        }
        XCTAssertTrue(buffered.isAlive, "the buffered value is held")
        subscription.dispose()
        XCTAssertFalse(buffered.isAlive, "disposal released the buffer")

        let (other, otherInput) = Signal<LifetimeToken, Never>.pipe()
        let (_, failed) = trackingLifetime { token in
            let subscription = other.buffer(count: 2).subscribe()
            otherInput.sendNext(token)
            otherInput.sendCompleted()
            return subscription
        }
        XCTAssertFalse(failed.isAlive, "completion sent and released the buffer")
        XCTAssertFalse(letGoOfAPipe(through: { $0.buffer(count: 2).map { $0.count } }).isAlive)
    }

    func testBufferCount_aCountBelowOneStops() {
        for count in [0, -1] {
            XCTAssertNil(expectStop("count \(count)", in: self, messageContains: "buffer(count:) needs a count of 1 or more, got \(count)") {
                _ = PipeSource().signal.buffer(count: count)
            })
        }
    }

    // The count-or-time buffer. Marble tests: each character is one frame of virtual time (1 s
    // unless `frame` says otherwise), and a match fixes the exact time of every event.
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5]

    func testBufferCountOrTime_sendsAtTheCountOrAnIntervalAfterTheFirstValueWhicheverComesFirst() {
        let scheduler = TestScheduler()
        // a b c at 0 s, d at 0.5 s, e at 2 s (a group takes one frame); count 2, interval 1 s.
        let source = scheduler.createColdSignal("(abc)d--e", values: values, error: TestError.first, frame: 0.5)
        let recording = scheduler.record(source.buffer(count: 2, interval: 1, on: scheduler))
        scheduler.advance(by: 10)
        XCTAssertNil(recording.mismatch(
            expected: "xy----z",
            values: ["x": [1, 2], "y": [3, 4], "z": [5]],
            error: .first,
            frame: 0.5
        ))
    }

    func testBufferCountOrTime_theTimerRestartsAtTheNextValueAfterAFullArray_andEmptyWindowsSendNothing() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("ab-c", values: values, error: TestError.first)
        let recording = scheduler.record(source.buffer(count: 2, interval: 2, on: scheduler))
        scheduler.advance(by: 20)
        // [1, 2] at the count (1 s); [3] 2 s after 3 arrived (5 s), not 2 s after [1, 2] went (3 s).
        XCTAssertNil(recording.mismatch(expected: "-x---y", values: ["x": [1, 2], "y": [3]], error: .first))
        XCTAssertTrue(scheduler.isEmpty, "no timer runs while nothing is buffered")
    }

    func testBufferCountOrTime_completionFlushesAndAnErrorDiscards() {
        let scheduler = TestScheduler()
        let completing = scheduler.createColdSignal("abc|", values: values, error: TestError.first, frame: 0.25)
        let completed = scheduler.record(completing.buffer(count: 2, interval: 1, on: scheduler))
        scheduler.run()
        XCTAssertNil(completed.mismatch(expected: "-x-(y|)", values: ["x": [1, 2], "y": [3]], error: .first, frame: 0.25))

        let failing = scheduler.createColdSignal("abc#", values: values, error: TestError.second, frame: 0.25)
        let failed = scheduler.record(failing.buffer(count: 2, interval: 1, on: scheduler))
        scheduler.run()
        XCTAssertNil(failed.mismatch(expected: "-x-#", values: ["x": [1, 2]], error: .second, frame: 0.25))
        XCTAssertTrue(scheduler.isEmpty, "the window's timer was cancelled")
    }

    func testBufferCountOrTime_synchronousSources() {
        let scheduler = TestScheduler()
        XCTAssertEqual(
            TestSource([1, 2, 3]).signal.buffer(count: 2, interval: 1, on: scheduler).record(on: scheduler).events,
            [at(0, .next([1, 2])), at(0, .next([3])), at(0, .completed)] as Events
        )
        XCTAssertEqual(TestSource([1], end: .error(.first)).signal.buffer(count: 2, interval: 1, on: scheduler).record(on: scheduler).events, [at(0, .error(.first))] as Events)
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testBufferCountOrTime_anInfiniteIntervalIsACountBuffer() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.buffer(count: 2, interval: .infinity, on: scheduler).record(on: scheduler)
        source.input.sendNext(1)
        scheduler.advance(by: 1e9)
        source.input.sendNext(2)
        source.input.sendNext(3)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [at(1e9, .next([1, 2])), at(1e9, .next([3])), at(1e9, .completed)] as Events)
    }

    func testBufferCountOrTime_disposalMidStream() {
        assertDisposalMidStream { source, scheduler in source.buffer(count: 100, interval: 1, on: scheduler) }
    }

    func testBufferCountOrTime_releasesTheBufferAfterDisposal() {
        let scheduler = TestScheduler()
        let (tokens, input) = Signal<LifetimeToken, Never>.pipe()
        let (subscription, buffered) = trackingLifetime { token in
            let subscription = tokens.buffer(count: 2, interval: 1, on: scheduler).subscribe()
            input.sendNext(token)
            return subscription
        }
        XCTAssertTrue(buffered.isAlive, "the buffered value is held")
        subscription.dispose()
        XCTAssertFalse(buffered.isAlive, "disposal released the buffer")
        XCTAssertTrue(scheduler.isEmpty, "disposal cancelled the window")
    }

    func testBufferCountOrTime_badInputStops() {
        let cases: [(String, Int, TimeInterval, Scheduler, String)] = [
            ("count 0", 0, 1, TestScheduler(), "buffer(count:interval:on:) needs a count of 1 or more, got 0"),
            ("zero interval", 2, 0, TestScheduler(), "buffer(count:interval:on:) needs a positive interval, got 0.0"),
            ("NaN interval", 2, .nan, TestScheduler(), "buffer(count:interval:on:) needs a positive interval, got nan"),
            ("immediate", 2, 1, Scheduler.immediate, "buffer(count:interval:on:) cannot run on Scheduler.immediate"),
        ]
        for (name, count, interval, scheduler, message) in cases {
            XCTAssertNil(expectStop(name, in: self, messageContains: message) {
                _ = PipeSource().signal.buffer(count: count, interval: interval, on: scheduler)
            })
        }
    }

    func testBufferCountOrTime_onAQueueScheduler() {
        let scheduler = QueueScheduler(name: "buffer count test")
        let (signal, input) = Signal<Int, Never>.pipe()
        let windows = Recorder<[Int]>()
        let done = DispatchSemaphore(value: 0)
        signal.buffer(count: 7, interval: 0.000_1, on: scheduler).subscribe(next: { windows.record($0) }, completed: { done.signal() })
        onAPlainThread {
            for value in 0..<1000 { input.sendNext(value) }
            input.sendCompleted()
        }
        XCTAssertTrue(done.waitForSignal())
        XCTAssertEqual(windows.values.flatMap { $0 }, Array(0..<1000))
        XCTAssertFalse(windows.values.contains { $0.isEmpty || $0.count > 7 })
    }
}
