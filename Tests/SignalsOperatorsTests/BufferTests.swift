import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class BufferTests: LeakCheckedTestCase {
    private typealias Events = [Stamped<[Int], TestError>]

    // Marble tests: each character is one frame of virtual time (1 s unless `frame` says
    // otherwise), and a match fixes the exact time of every event. `x` and `y` stand for windows.
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4]

    func testBuffer_sendsEachWindowAnIntervalAfterItsFirstValue() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("ab-cd", values: values, error: TestError.first, frame: 0.5)
        let recording = scheduler.record(source.buffer(1, on: scheduler))
        scheduler.advance(by: 10)
        XCTAssertNil(recording.mismatch(expected: "--x--y", values: ["x": [1, 2], "y": [3, 4]], error: .first, frame: 0.5))
    }

    func testBuffer_aWindowStartsAtTheFirstValueNotAtSubscription() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("---a", values: values, error: TestError.first, frame: 0.5)
        let recording = scheduler.record(source.buffer(1, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "-----x", values: ["x": [1]], error: .first, frame: 0.5))
    }

    func testBuffer_emptyWindowsSendNothing() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("a", values: values, error: TestError.first)
        let recording = scheduler.record(source.buffer(1, on: scheduler))
        scheduler.advance(by: 20)
        XCTAssertNil(recording.mismatch(expected: "-x", values: ["x": [1]], error: .first))
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testBuffer_completionFlushesThenCompletes() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("ab|", values: values, error: TestError.first, frame: 0.25)
        let recording = scheduler.record(source.buffer(1, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "--(x|)", values: ["x": [1, 2]], error: .first, frame: 0.25))
        XCTAssertEqual(elapsed(scheduler), 0.5, "the window's timer was cancelled")
    }

    func testBuffer_completionWithAnEmptyBufferOnlyCompletes() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("a--|", values: values, error: TestError.first)
        let recording = scheduler.record(source.buffer(1, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "-x-|", values: ["x": [1]], error: .first))
    }

    func testBuffer_errorDiscardsTheBuffer() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("a#", values: values, error: TestError.first, frame: 0.5)
        let recording = scheduler.record(source.buffer(1, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "-#", values: [:], error: .first, frame: 0.5))
        XCTAssertEqual(elapsed(scheduler), 0.5, "the window's timer was cancelled")
        XCTAssertEqual(source.subscriptions, [.init(subscribed: 0, disposed: 0.5)])
    }

    func testBuffer_synchronousSources() {
        let scheduler = TestScheduler()
        XCTAssertEqual(TestSource([1, 2, 3]).signal.buffer(1, on: scheduler).record(on: scheduler).events, [at(0, .next([1, 2, 3])), at(0, .completed)] as Events)
        XCTAssertEqual(TestSource<Int>([]).signal.buffer(1, on: scheduler).record(on: scheduler).events, [at(0, .completed)] as Events)
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.buffer(1, on: scheduler).record(on: scheduler).events, [at(0, .error(.first))] as Events)
        XCTAssertEqual(TestSource([1], end: .error(.second)).signal.buffer(1, on: scheduler).record(on: scheduler).events, [at(0, .error(.second))] as Events)
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testBuffer_anIntervalThatIsNotPositiveStops() {
        for (name, interval) in [("zero", 0), ("negative", -1), ("NaN", TimeInterval.nan)] {
            XCTAssertNil(expectStop(name, in: self, messageContains: "buffer(_:on:) needs a positive interval, got \(interval)") {
                _ = PipeSource().signal.buffer(interval, on: TestScheduler())
            })
        }
    }

    func testBuffer_anInfiniteIntervalSendsTheValuesAtCompletion() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.buffer(.infinity, on: scheduler).record(on: scheduler)
        source.input.sendNext(1)
        scheduler.advance(by: 1e9)
        source.input.sendNext(2)
        XCTAssertEqual(recorder.events, [])
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [at(1e9, .next([1, 2])), at(1e9, .completed)] as Events)
        XCTAssertTrue(scheduler.isEmpty, "completion cancelled the window that never ends")
    }

    func testBuffer_disposalMidStream() {
        assertDisposalMidStream { source, scheduler in source.buffer(1, on: scheduler) }
    }

    func testBuffer_releasesEverythingAfterCompletionAndDisposal() {
        let scheduler = TestScheduler()
        let (tokens, input) = Signal<LifetimeToken, Never>.pipe()
        let (subscription, buffered) = trackingLifetime { token in
            let subscription = tokens.buffer(1, on: scheduler).subscribe()
            input.sendNext(token)
            return subscription
        }
        XCTAssertTrue(buffered.isAlive, "the buffered value is held")
        subscription.dispose()
        XCTAssertFalse(buffered.isAlive, "disposal released the buffer")

        weak var weakSignal: Signal<[Int], TestError>?
        let completed: TimedRecorder<[Int], TestError> = {
            let signal = TestSource([1]).signal.buffer(1, on: scheduler)
            weakSignal = signal
            return signal.record(on: scheduler)
        }()
        XCTAssertEqual(completed.events, [at(0, .next([1])), at(0, .completed)] as Events)
        XCTAssertNil(weakSignal)
    }

    func testBuffer_onAQueueScheduler() {
        let scheduler = QueueScheduler(name: "buffer test")
        let (signal, input) = Signal<Int, Never>.pipe()
        let windows = Recorder<[Int]>()
        let done = DispatchSemaphore(value: 0)
        signal.buffer(0.000_1, on: scheduler).subscribe(next: { windows.record($0) }, completed: { done.signal() })
        onAPlainThread {
            for value in 0..<1000 { input.sendNext(value) }
            input.sendCompleted()
        }
        XCTAssertTrue(done.waitForSignal())
        XCTAssertEqual(windows.values.flatMap { $0 }, Array(0..<1000))
        XCTAssertFalse(windows.values.contains { $0.isEmpty })
    }
}
