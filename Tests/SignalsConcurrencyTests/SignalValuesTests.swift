import Disposables
import Foundation
import Signals
import TestSupport
import XCTest

/// `signal.values`: the exact values, the end, the typed error, the buffering policies,
/// cancellation and `break`.
final class SignalValuesTests: LeakCheckedTestCase {
    // MARK: Sequences

    func testValues_sendsEveryValueThenEndsAtCompletion() async {
        let disposals = Counter()
        var received: [Int] = []
        for await value in synchronousSignal([1, 2, 3], end: Event<Int, Never>.completed, disposals: disposals).values {
            received.append(value)
        }
        XCTAssertEqual(received, [1, 2, 3])
        // A synchronous create block's disposable joins the subscription (already ended) when
        // the block returns, on the subscribing thread, which may come after the loop ended.
        let disposed = await eventually { disposals.value == 1 }
        XCTAssertTrue(disposed)
    }

    func testValues_emptySignalEndsAtOnce() async {
        var received: [Int] = []
        for await value in Signal<Int, Never>.empty.values { received.append(value) }
        XCTAssertEqual(received, [])
    }

    func testValues_typedErrorIsThrownOnceThenTheIteratorReturnsNil() async {
        var iterator = synchronousSignal([1, 2], end: .error(TestError.first)).values.makeAsyncIterator()
        var received: [Int] = []
        do {
            while let value = try await iterator.next() { received.append(value) }
            XCTFail("no error thrown")
        } catch {
            // `error` is a `TestError`: the failure type is kept.
            XCTAssertEqual(error, .first)
        }
        XCTAssertEqual(received, [1, 2])
        do {
            let afterTheError = try await iterator.next()
            XCTAssertNil(afterTheError)
        } catch {
            XCTFail("thrown twice: \(error)")
        }
    }

    func testValues_forTryAwaitThrowsTheSignalsFailure() async {
        var received: [Int] = []
        do {
            for try await value in synchronousSignal([7], end: .error(TestError.second)).values { received.append(value) }
            XCTFail("no error thrown")
        } catch {
            XCTAssertEqual(error, .second)
        }
        XCTAssertEqual(received, [7])
    }

    func testValues_eachIteratorSubscribesOnceAtItsFirstNext() async {
        let source = TestSource([1, 2])
        let values = source.signal.values
        var first = values.makeAsyncIterator()
        var second = values.makeAsyncIterator()
        XCTAssertEqual(source.subscriptions.value, 0)
        let one = try? await first.next()
        XCTAssertEqual(one, 1)
        XCTAssertEqual(source.subscriptions.value, 1)
        let two = try? await first.next()
        XCTAssertEqual(two, 2)
        XCTAssertEqual(source.subscriptions.value, 1)
        let otherOne = try? await second.next()
        XCTAssertEqual(otherOne, 1)
        XCTAssertEqual(source.subscriptions.value, 2)
    }

    // MARK: Values that arrive while the task waits

    func testValues_fromATaskWithSendsFromAPlainThread() async {
        let source = HandFedSource<Never>()
        let loop = Task {
            var received: [Int] = []
            for await value in source.signal.values { received.append(value) }
            return received
        }
        let subscribed = await eventually { source.subscriptions.value == 1 }
        XCTAssertTrue(subscribed)
        onAPlainThread {
            for value in 1...100 { source.input.sendNext(value) }
            source.input.sendCompleted()
        }
        let received = await loop.value
        XCTAssertEqual(received, Array(1...100))
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(source.subscriptionsAreFreed)
    }

    @MainActor
    func testValues_onTheMainActorWithSendsFromAPlainThread() async {
        let source = HandFedSource<TestError>()
        var iterator = source.signal.values.makeAsyncIterator()
        let sender = Thread {
            // Waits for the subscription that the first `next` makes: `next()` called by hand is
            // the nonisolated overload, so it subscribes off the main actor, through the
            // subscription scheduler; the loop's code still runs on the main actor.
            XCTAssertTrue(eventually { source.subscriptions.value == 1 }, "never subscribed")
            source.input.sendNext(1)
            source.input.sendNext(2)
            source.input.sendError(.first)
        }
        sender.start()
        var received: [Int] = []
        do {
            while let value = try await iterator.next() {
                XCTAssertTrue(Thread.isMainThread)
                received.append(value)
            }
            XCTFail("no error thrown")
        } catch {
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertEqual(error, .first)
        }
        XCTAssertEqual(received, [1, 2])
        XCTAssertEqual(source.disposals.value, 1)
    }

    // MARK: Buffering policies

    /// On the main actor a created signal subscribes at once, so a synchronous one has sent
    /// everything into the buffer before the first `next` returns.
    @MainActor
    func testValues_bufferingPoliciesWithASynchronousSignal() async {
        let signal = synchronousSignal(Array(1...5), end: Event<Int, Never>.completed)
        func drain(_ policy: SignalValues<Int, Never>.BufferingPolicy) async -> [Int] {
            var received: [Int] = []
            for await value in signal.values(bufferingPolicy: policy) { received.append(value) }
            return received
        }
        let unbounded = await drain(.unbounded)
        XCTAssertEqual(unbounded, [1, 2, 3, 4, 5])
        let newest = await drain(.bufferingNewest(2))
        XCTAssertEqual(newest, [4, 5])
        let oldest = await drain(.bufferingOldest(2))
        XCTAssertEqual(oldest, [1, 2])
        let none = await drain(.bufferingNewest(0))
        XCTAssertEqual(none, [])
        let noneOldest = await drain(.bufferingOldest(0))
        XCTAssertEqual(noneOldest, [])
    }

    /// A pipe sends from a plain thread while the loop is not waiting: the policy picks what is
    /// kept. (`startWith(0)` sends synchronously, so the first `next` subscribes and returns
    /// without leaving a waiter.)
    func testValues_bufferingPoliciesWithAPipe() async {
        func run(_ policy: SignalValues<Int, Never>.BufferingPolicy) async -> [Int] {
            let source = HandFedSource<Never>()
            var iterator = source.signal.startWith(0).values(bufferingPolicy: policy).makeAsyncIterator()
            let zero = await iterator.next()
            XCTAssertEqual(zero, 0)
            let subscribed = await eventually { source.subscriptions.value == 1 }
            XCTAssertTrue(subscribed)
            onAPlainThread {
                for value in 1...5 { source.input.sendNext(value) }
                source.input.sendCompleted()
            }
            var received: [Int] = []
            while let value = await iterator.next() { received.append(value) }
            XCTAssertEqual(source.disposals.value, 1)
            return received
        }
        let unbounded = await run(.unbounded)
        XCTAssertEqual(unbounded, [1, 2, 3, 4, 5])
        let newest = await run(.bufferingNewest(3))
        XCTAssertEqual(newest, [3, 4, 5])
        let oldest = await run(.bufferingOldest(3))
        XCTAssertEqual(oldest, [1, 2, 3])
        let newestOne = await run(.bufferingNewest(1))
        XCTAssertEqual(newestOne, [5])
    }

    // MARK: Cancellation and break

    func testValues_cancellingTheTaskWhileItWaitsDisposesAndEndsTheLoop() async {
        let source = HandFedSource<TestError>()
        let loop = Task {
            var received: [Int] = []
            do {
                for try await value in source.signal.values { received.append(value) }
            } catch {
                XCTFail("cancellation threw \(error)")
            }
            return received
        }
        let subscribed = await eventually { source.subscriptions.value == 1 }
        XCTAssertTrue(subscribed)
        source.input.sendNext(1)
        loop.cancel()
        let received = await loop.value
        // 1 either reached the loop or was dropped from the buffer by the cancellation.
        XCTAssertTrue(received == [1] || received == [], "\(received)")
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(source.subscriptionsAreFreed)
        // Nothing reaches a cancelled iteration.
        source.input.sendNext(2)
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testValues_aTaskCancelledBeforeItsFirstNextNeverSubscribes() async {
        let source = TestSource([1, 2])
        let loop = Task {
            // Spins until the test has cancelled it.
            while !Task.isCancelled { await Task.yield() }
            var received: [Int] = []
            do {
                for try await value in source.signal.values { received.append(value) }
            } catch {
                XCTFail("cancellation threw \(error)")
            }
            return received
        }
        loop.cancel()
        let received = await loop.value
        XCTAssertEqual(received, [])
        XCTAssertEqual(source.subscriptions.value, 0)
    }

    func testValues_breakDisposesTheSubscription() async {
        let source = HandFedSource<Never>()
        for await value in source.signal.startWith(0).values {
            XCTAssertEqual(value, 0)
            // From a task, the source is subscribed on a background scheduler, after the 0.
            let subscribed = await eventually { source.subscriptions.value == 1 }
            XCTAssertTrue(subscribed)
            break
        }
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(source.subscriptionsAreFreed)
    }

    func testValues_droppingAnIteratorThatNeverStartedSubscribesNothing() {
        let source = TestSource([1])
        do {
            _ = source.signal.values.makeAsyncIterator()
        }
        XCTAssertEqual(source.subscriptions.value, 0)
    }
}
