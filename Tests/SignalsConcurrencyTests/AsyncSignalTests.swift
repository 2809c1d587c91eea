import Disposables
import Foundation
import Signals
import TestSupport
import XCTest

/// `Signal(asyncSequence)`, `Signal { async work }` and `Signal(emitting:)`: exact events, and
/// disposal cancelling the task.
final class AsyncSignalTests: LeakCheckedTestCase {
    /// Waits for the recorder's terminal event.
    private func ended<Value: Sendable, Failure: Error & Sendable>(_ recorder: EventRecorder<Value, Failure>) async -> Bool {
        await eventually { recorder.events.last?.isFinished == true }
    }

    // MARK: From an AsyncSequence

    func testInitSequence_sendsTheElementsThenCompletes() async {
        let signal: Signal<Int, Never> = Signal(AsyncStream { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        })
        let recorder = signal.record()
        let didEnd = await ended(recorder)
        XCTAssertTrue(didEnd)
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3), .completed])
    }

    func testInitSequence_aThrowingSequenceFailsWithItsError() async {
        let signal: Signal<Int, any Error> = Signal(AsyncThrowingStream { continuation in
            continuation.yield(1)
            continuation.finish(throwing: TestError.second)
        })
        let recorder = signal.record()
        let didEnd = await ended(recorder)
        XCTAssertTrue(didEnd)
        XCTAssertEqual(recorder.events.count, 2)
        XCTAssertEqual(recorder.events.first?.value, 1)
        guard case let .error(error)? = recorder.events.last else { return XCTFail("\(recorder.events)") }
        XCTAssertEqual(error as? TestError, .second)
    }

    func testInitSequence_eachSubscriptionIteratesAfresh() async {
        let signal = Signal(synchronousSignal([1, 2], end: Event<Int, TestError>.completed).values)
        let first = signal.record()
        let second = signal.record()
        let didEnd = await ended(first)
        let didEndToo = await ended(second)
        XCTAssertTrue(didEnd && didEndToo)
        XCTAssertEqual(first.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(second.events, [.next(1), .next(2), .completed])
    }

    func testInitSequence_disposalCancelsTheIteration() async {
        let terminated = Recorder<String>()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.onTermination = { termination in
            terminated.record("\(termination)")
        }
        let recorder = Signal(stream).record()
        continuation.yield(1)
        let gotOne = await eventually { recorder.events == [.next(1)] }
        XCTAssertTrue(gotOne)
        recorder.dispose()
        let cancelled = await eventually { terminated.values == ["cancelled"] }
        XCTAssertTrue(cancelled, "\(terminated.values)")
        continuation.yield(2)
        continuation.finish()
        XCTAssertEqual(recorder.events, [.next(1)])
    }

    // MARK: From an async operation

    func testInitOperation_sendsTheResultThenCompletes() async {
        let recorder = Signal { () async -> Int in
            await Task.yield()
            return 42
        }.record()
        let didEnd = await ended(recorder)
        XCTAssertTrue(didEnd)
        XCTAssertEqual(recorder.events, [.next(42), .completed])
    }

    func testInitOperation_failsWithTheTypedError() async {
        let recorder = Signal { () async throws(TestError) -> Int in throw .first }.record()
        let didEnd = await ended(recorder)
        XCTAssertTrue(didEnd)
        XCTAssertEqual(recorder.events, [.error(.first)])
    }

    func testInitOperation_runsOncePerSubscription() async {
        let runs = Counter()
        let signal = Signal<Int, Never> {
            runs.increment()
            return runs.value
        }
        let first = signal.record()
        let didEnd = await ended(first)
        let second = signal.record()
        let didEndToo = await ended(second)
        XCTAssertTrue(didEnd && didEndToo)
        XCTAssertEqual(runs.value, 2)
        XCTAssertEqual(first.events, [.next(1), .completed])
        XCTAssertEqual(second.events, [.next(2), .completed])
    }

    func testInitOperation_disposalCancelsTheTaskAndNothingFollows() async {
        let started = Counter()
        let cancelled = Counter()
        let finished = Counter()
        let recorder = Signal<Int, Never> {
            started.increment()
            await withTaskCancellationHandler {
                // Waits until cancelled.
                while !Task.isCancelled { try? await Task.sleep(nanoseconds: 1_000_000) }
            } onCancel: {
                cancelled.increment()
            }
            finished.increment()
            return 7
        }.record()
        let didStart = await eventually { started.value == 1 }
        XCTAssertTrue(didStart)
        recorder.dispose()
        // `Task.cancel()` marks the task before it runs the handler: the body may finish first.
        let didFinish = await eventually { finished.value == 1 && cancelled.value == 1 }
        XCTAssertTrue(didFinish, "finished \(finished.value), cancellation handler ran \(cancelled.value) times")
        XCTAssertEqual(recorder.events, [])
    }

    // MARK: Emitting many values

    func testInitEmitting_sendsEachValueThenCompletesWhenTheBodyReturns() async {
        let recorder = Signal<Int, TestError>(emitting: { send in
            for value in 1...3 {
                send(value)
                await Task.yield()
            }
        }).record()
        let didEnd = await ended(recorder)
        XCTAssertTrue(didEnd)
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3), .completed])
    }

    func testInitEmitting_failsWhenTheBodyThrows() async {
        let recorder = Signal<Int, TestError>(emitting: { send throws(TestError) in
            send(1)
            throw .second
        }).record()
        let didEnd = await ended(recorder)
        XCTAssertTrue(didEnd)
        XCTAssertEqual(recorder.events, [.next(1), .error(.second)])
    }

    func testInitEmitting_sendsFromOtherThreadsAreSerialized() async {
        let recorder = Signal<Int, Never>(emitting: { send in
            onAPlainThread { for value in 1...50 { send(value) } }
            onAPlainThread { for value in 51...100 { send(value) } }
        }).record()
        let didEnd = await ended(recorder)
        XCTAssertTrue(didEnd)
        XCTAssertEqual(recorder.values, Array(1...100))
        XCTAssertEqual(recorder.events.last, .completed)
    }

    func testInitEmitting_disposalCancelsTheBodyAndDropsWhatItSendsAfter() async {
        let cancelled = Counter()
        let finished = Counter()
        let escapedSend = Recorder<@Sendable (Int) -> Void>()
        let recorder = Signal<Int, Never>(emitting: { send in
            escapedSend.record(send)
            send(1)
            await withTaskCancellationHandler {
                while !Task.isCancelled { try? await Task.sleep(nanoseconds: 1_000_000) }
            } onCancel: {
                cancelled.increment()
            }
            send(2)
            finished.increment()
        }).record()
        let gotOne = await eventually { recorder.events == [.next(1)] }
        XCTAssertTrue(gotOne)
        recorder.dispose()
        // `Task.cancel()` marks the task before it runs the handler: the body may finish first.
        let didFinish = await eventually { finished.value == 1 && cancelled.value == 1 }
        XCTAssertTrue(didFinish, "finished \(finished.value), cancellation handler ran \(cancelled.value) times")
        escapedSend.values.first?(3)
        XCTAssertEqual(recorder.events, [.next(1)])
    }

    func testInitEmitting_theTaskLetsGoOfEverythingWhenItEnds() async {
        // The recorder is let go of at once: the subscription lives on in its task until the
        // body returns, then everything goes.
        let (signal, token) = trackingLifetime { token in
            let signal = Signal<Int, Never>(emitting: { send in
                withExtendedLifetime(token) {}
                send(1)
            })
            _ = signal.record()
            return WeakReference(signal)
        }
        let freed = await eventually { !token.isAlive && !signal.isAlive }
        XCTAssertTrue(freed)
    }
}
