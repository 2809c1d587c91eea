import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// A hostile review of the async bridges (`values`, `Signal { async }`, `Signal(emitting:)`,
/// `Signal(_ asyncSequence:)`, `await firstValue()`, `await allValues()`): a user trying to break them.
final class AsyncBridgeReviewTests: LeakCheckedTestCase {
    // MARK: values

    /// Iterating one `SignalValues` from two tasks at once: two subscriptions, each gets all.
    func testReview_oneSequenceIteratedTwiceConcurrently() async {
        let values = synchronousSignal(Array(1...1_000), end: Event<Int, Never>.completed).values
        async let one: [Int] = { var all: [Int] = []; for await value in values { all.append(value) }; return all }()
        async let two: [Int] = { var all: [Int] = []; for await value in values { all.append(value) }; return all }()
        let (first, second) = await (one, two)
        XCTAssertEqual(first, Array(1...1_000))
        XCTAssertEqual(second, Array(1...1_000))
    }

    /// On the main actor a created signal subscribes inside the first `next`, so a signal
    /// sending synchronously runs to its end there, whatever the policy: a bounded one keeps only
    /// the memory flat (the docs said "with the `.unbounded` policy", as if a bounded one returned).
    @MainActor
    func testReview_boundedPolicyDoesNotLetTheFirstNextReturnBeforeASynchronousSignalEnds() async {
        let sent = Counter()
        let signal = Signal<Int, Never> { subscriber in
            for value in 0..<10_000 {
                sent.increment()
                subscriber.sendNext(value)
            }
            subscriber.sendCompleted()
            return nil
        }
        var iterator = signal.values(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
        // `next(isolation:)`, as `for await` calls it: plain `next()` is nonisolated and leaves
        // the main actor, so the signal would be subscribed on the background scheduler.
        let first = await iterator.next(isolation: #isolation)
        // Holds: the whole signal ran inside the first `next`, which got the newest value only.
        XCTAssertEqual(sent.value, 10_000)
        XCTAssertEqual(first, 9_999)
    }

    /// A loop body that sends to the signal it iterates (reentrancy), on the main actor, where
    /// the subscription and the sends are on the loop's own thread.
    @MainActor
    func testReview_loopBodySendsToTheSignalItIterates() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        var received: [Int] = []
        let kick = Task { @MainActor in input.sendNext(0) }
        for await value in signal.values {
            received.append(value)
            if value < 5 { input.sendNext(value + 1) } else { input.sendCompleted() }
        }
        _ = await kick.value
        XCTAssertEqual(received, [0, 1, 2, 3, 4, 5])
    }

    /// An error that arrives with values still buffered comes after them, once.
    @MainActor
    func testReview_errorWithValuesBufferedComesAfterThem() async {
        var iterator = synchronousSignal([1, 2, 3], end: .error(TestError.first)).values.makeAsyncIterator()
        var received: [Int] = []
        var errors: [TestError] = []
        for _ in 0..<6 {
            do {
                if let value = try await iterator.next() { received.append(value) }
            } catch {
                errors.append(error)
            }
        }
        XCTAssertEqual(received, [1, 2, 3])
        XCTAssertEqual(errors, [.first])
    }

    /// `bufferingNewest(0)` and `bufferingOldest(0)`: what arrives while the loop is not waiting
    /// is dropped; the end still comes.
    @MainActor
    func testReview_zeroLimitsDropEverythingNotAwaited() async {
        for policy: SignalValues<Int, Never>.BufferingPolicy in [.bufferingNewest(0), .bufferingOldest(0)] {
            var received: [Int] = []
            for await value in synchronousSignal([1, 2, 3], end: Event<Int, Never>.completed).values(bufferingPolicy: policy) {
                received.append(value)
            }
            XCTAssertEqual(received, [], "\(policy)")
        }
    }

    /// Cancelling the task from inside a synchronous delivery to it (the signal's create block
    /// cancels the consuming task, which is the one subscribing): the loop ends, disposed.
    @MainActor
    func testReview_cancelFromInsideASynchronousDeliveryOnTheSameTask() async {
        let disposals = Counter()
        let loop = Task { @MainActor () -> [Int] in
            let signal = Signal<Int, Never> { subscriber in
                subscriber.sendNext(1)
                withUnsafeCurrentTask { $0?.cancel() }
                subscriber.sendNext(2)
                return Disposable { disposals.increment() }
            }
            var received: [Int] = []
            for await value in signal.values { received.append(value) }
            return received
        }
        let received = await withTimeout { await loop.value }
        XCTAssertNotNil(received, "the loop did not end")
        // Cancelled before the first value was handed over: nothing or the buffered 1; never 2
        // after a nil.
        XCTAssertTrue(received == [] || received == [1], "\(String(describing: received))")
        XCTAssertEqual(disposals.value, 1)
    }

    /// Many values through a bounded buffer, from a thread that outpaces the loop: memory stays
    /// bounded and the loop sees increasing values ending with the last.
    func testReview_manyValuesThroughABoundedBuffer() async {
        let count = BuildKind.rounds(300_000, sanitized: 60_000)
        let signal = Signal<Int, Never> { subscriber in
            for value in 0..<count { subscriber.sendNext(value) }
            subscriber.sendCompleted()
            return nil
        }.subscribe(on: .background())
        var last = -1
        var increasing = true
        for await value in signal.values(bufferingPolicy: .bufferingNewest(4)) {
            if value <= last { increasing = false }
            last = value
        }
        XCTAssertTrue(increasing)
        XCTAssertEqual(last, count - 1)
    }

    // MARK: firstValue() and allValues()

    /// `firstValue()` of a signal that sends synchronously for ever (`repeat`): the first value settles
    /// it and disposing stops the repetition.
    func testReview_firstOfASynchronousRepeatStops() async {
        let subscriptions = Counter()
        let signal = Signal<Int, Never> { subscriber in
            subscriptions.increment()
            subscriber.sendNext(subscriptions.value)
            subscriber.sendCompleted()
            return nil
        }.repeat()
        let value = await withTimeout { await signal.firstValue() }
        XCTAssertEqual(value, .some(1))
        let settled = subscriptions.value
        try? await Task.sleep(nanoseconds: 50_000_000)
        XCTAssertEqual(subscriptions.value, settled, "the repetition goes on after first() returned")
    }

    /// `firstValue()` of a signal that never sends, cancelled from another task.
    func testReview_firstOfANeverSignalCancelled() async {
        let first = Task { await Signal<Int, Never>.never.firstValue() }
        try? await Task.sleep(nanoseconds: 20_000_000)
        first.cancel()
        let value = await withTimeout { await first.value }
        XCTAssertEqual(value, .some(nil))
    }

    /// `allValues()` of many values keeps them all, in order.
    func testReview_collectManyValuesFromAnotherThread() async {
        let all = await Signal<Int, Never> { subscriber in
            for value in 0..<100_000 { subscriber.sendNext(value) }
            subscriber.sendCompleted()
            return nil
        }.subscribe(on: .background()).allValues()
        XCTAssertEqual(all.count, 100_000)
        XCTAssertEqual(all.last, 99_999)
    }

    // MARK: Signal(emitting:), Signal { async }

    /// The docs of the async initializers say the task runs "at the subscribing context's
    /// priority" (it ran at the background subscription scheduler's until the fix).
    func testReview_emittingTaskRunsAtTheSubscribingTasksPriority() async {
        let priorities = Signal<TaskPriority, Never> { Task.currentPriority }
        let high = await Task(priority: .high) { await priorities.firstValue() }.value
        let low = await Task(priority: .low) { await priorities.firstValue() }.value
        XCTAssertEqual(high, .high)
        XCTAssertEqual(low, .low)
    }

    /// Disposing the subscription from inside its own value callback, which runs in the body's
    /// task: the task cancels itself, nothing more is delivered, no completion.
    func testReview_emittingDisposedFromInsideItsNextCallback() async {
        let box = DisposableBox()
        let received = Recorder<Int>()
        let ended = Counter()
        let bodyFinished = Counter()
        let sawCancellation = Counter()
        let signal = Signal<Int, Never>(emitting: { send in
            _ = await eventually { box.disposable != nil }
            send(1)
            if Task.isCancelled { sawCancellation.increment() }
            send(2)
            bodyFinished.increment()
        })
        let subscription = signal.subscribe(next: { value in
            received.record(value)
            box.disposable?.dispose()
        }, completed: { ended.increment() })
        box.disposable = subscription
        let finished = await eventually { bodyFinished.value == 1 }
        XCTAssertTrue(finished)
        XCTAssertEqual(received.values, [1])
        XCTAssertEqual(ended.value, 0)
        XCTAssertEqual(sawCancellation.value, 1)
    }

    /// `send` from a detached task after the body returned is dropped, and does not crash.
    func testReview_emittingSendAfterTheBodyReturnedIsDropped() async {
        let late = Counter()
        let bodyReturned = Flag()
        let recorder = Signal<Int, Never>(emitting: { send in
            send(1)
            Task.detached {
                // Sends once the body has returned (the test sees its completion), however long a
                // busy machine takes to get there: a fixed sleep could end before it.
                _ = await eventually { bodyReturned.isSet }
                send(2)
                late.increment()
            }
        }).record()
        let completed = await eventually { recorder.events.last == .completed }
        XCTAssertTrue(completed, "the body's return did not complete the signal")
        bodyReturned.set()
        let done = await eventually { late.value == 1 }
        XCTAssertTrue(done)
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }

    /// `Signal(_ asyncSequence:)` over another signal's `values`: disposing the outer
    /// subscription cancels the iteration, which disposes the inner subscription.
    func testReview_sequenceOfValuesRoundTripDisposesTheInnerSubscription() async {
        let source = HandFedSource<Never>()
        let recorder = Signal(source.signal.values).record()
        let subscribed = await eventually { source.subscriptions.value == 1 }
        XCTAssertTrue(subscribed)
        source.input.sendNext(1)
        let gotOne = await eventually { recorder.values == [1] }
        XCTAssertTrue(gotOne)
        recorder.dispose()
        let disposed = await eventually { source.disposals.value == 1 }
        XCTAssertTrue(disposed)
        source.input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(1)])
        let freed = await eventually { source.subscriptionsAreFreed }
        XCTAssertTrue(freed)
    }
}
