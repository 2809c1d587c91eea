import Disposables
import Foundation
import Signals
import TestSupport
import XCTest

/// `await firstValue()` and `await allValues()`: results, errors, cancellation, and which form each
/// common call shape picks.
final class FirstValueAndAllValuesTests: LeakCheckedTestCase {
    // MARK: firstValue()

    func testFirst_returnsTheFirstValueAndDisposes() async {
        let source = HandFedSource<Never>()
        let first = Task { await source.signal.firstValue() }
        let subscribed = await eventually { source.subscriptions.value == 1 }
        XCTAssertTrue(subscribed)
        onAPlainThread {
            source.input.sendNext(1)
            source.input.sendNext(2)
        }
        let value = await first.value
        XCTAssertEqual(value, 1)
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(source.subscriptionsAreFreed)
    }

    func testFirst_ofASynchronousSignal() async {
        let value = await synchronousSignal([5, 6], end: Event<Int, Never>.completed).firstValue()
        XCTAssertEqual(value, 5)
    }

    func testFirst_isNilWhenTheSignalCompletesEmpty() async {
        let value = await Signal<Int, Never>.empty.firstValue()
        XCTAssertNil(value)
    }

    func testFirst_throwsTheTypedError() async {
        do {
            let value = try await Signal<Int, TestError>.error(.second).firstValue()
            XCTFail("returned \(String(describing: value))")
        } catch {
            XCTAssertEqual(error, .second)
        }
    }

    func testFirst_cancellationDisposesAndReturnsNil() async {
        let source = HandFedSource<TestError>()
        let first = Task { try await source.signal.firstValue() }
        let subscribed = await eventually { source.subscriptions.value == 1 }
        XCTAssertTrue(subscribed)
        first.cancel()
        let result = await first.result
        guard case let .success(value) = result else { return XCTFail("\(result)") }
        XCTAssertNil(value)
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(source.subscriptionsAreFreed)
    }

    @MainActor
    func testFirst_onTheMainActor() async {
        let source = HandFedSource<Never>()
        let sender = Thread {
            XCTAssertTrue(eventually { source.subscriptions.value == 1 }, "never subscribed")
            source.input.sendNext(3)
        }
        sender.start()
        let value = await source.signal.firstValue()
        XCTAssertTrue(Thread.isMainThread)
        XCTAssertEqual(value, 3)
        XCTAssertEqual(source.disposals.value, 1)
    }

    // MARK: allValues()

    func testCollect_returnsEveryValueAtCompletion() async {
        let source = HandFedSource<Never>()
        let all = Task { await source.signal.allValues() }
        let subscribed = await eventually { source.subscriptions.value == 1 }
        XCTAssertTrue(subscribed)
        onAPlainThread {
            for value in 1...5 { source.input.sendNext(value) }
            source.input.sendCompleted()
        }
        let values = await all.value
        XCTAssertEqual(values, [1, 2, 3, 4, 5])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(source.subscriptionsAreFreed)
    }

    func testCollect_ofAnEmptySignalIsEmpty() async {
        let values = await Signal<Int, Never>.empty.allValues()
        XCTAssertEqual(values, [])
    }

    func testCollect_throwsTheTypedError() async {
        do {
            let values = try await synchronousSignal([1, 2], end: .error(TestError.first)).allValues()
            XCTFail("returned \(values)")
        } catch {
            XCTAssertEqual(error, .first)
        }
    }

    func testCollect_cancellationDisposesAndReturnsWhatArrived() async {
        let source = HandFedSource<TestError>()
        let all = Task { try await source.signal.allValues() }
        let subscribed = await eventually { source.subscriptions.value == 1 }
        XCTAssertTrue(subscribed)
        // A pipe delivers on the sending thread: both are collected when this returns.
        source.input.sendNext(1)
        source.input.sendNext(2)
        all.cancel()
        let values = try? await all.value
        XCTAssertEqual(values, [1, 2])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(source.subscriptionsAreFreed)
    }

    @MainActor
    func testCollect_onTheMainActorOfASynchronousSignal() async {
        let values = await synchronousSignal([1, 2, 3], end: Event<Int, Never>.completed).allValues()
        XCTAssertTrue(Thread.isMainThread)
        XCTAssertEqual(values, [1, 2, 3])
    }

    // MARK: Names

    /// The async forms have names of their own: in an async context `collect()` is still the
    /// operator, with no annotation needed (and the blocking `first()` is unavailable there).
    func testNames_asyncFormsDoNotShareTheOperatorsNames() async {
        let numbers = synchronousSignal([1, 2, 3], end: Event<Int, Never>.completed)
        let first = await numbers.firstValue()
        XCTAssertEqual(first, 1)
        let array = await numbers.allValues()
        XCTAssertEqual(array, [1, 2, 3])
        // `map` of the awaited array.
        let counted = await numbers.allValues().map { $0 * 10 }
        XCTAssertEqual(counted, [10, 20, 30])
        // The operator, without saying its type, in an async function.
        let mapped = numbers.collect().map(\.count)
        let count = await mapped.firstValue()
        XCTAssertEqual(count, 3)
    }

    /// In a synchronous context the blocking `first()` and the operator `collect()`.
    func testNames_inASynchronousContext() {
        let numbers = synchronousSignal([1, 2, 3], end: Event<Int, Never>.completed)
        let first = numbers.first()
        XCTAssertEqual(first, 1)
        let counted = numbers.collect().map(\.count).first()
        XCTAssertEqual(counted, 3)
    }

    /// The trailing-closure inits stay apart: a closure with a parameter is the create block, one
    /// without is async work, and `emitting:` names itself.
    func testOverloads_initializersWithCommonClosureShapes() async {
        let created = Signal<Int, Never> { subscriber in
            subscriber.sendNext(1)
            subscriber.sendCompleted()
            return nil
        }
        let createdShorthand = Signal<Int, Never> {
            $0.sendNext(2)
            $0.sendCompleted()
            return nil
        }
        let never = Signal<Int, Never> { _ in nil }
        let work = Signal<Int, Never> { 3 }
        let asyncWork = Signal { () async -> Int in 4 }
        let throwingWork = Signal { () async throws(TestError) -> Int in 5 }
        let fromStream = Signal(AsyncStream<Int> { $0.yield(6); $0.finish() })
        let emitting = Signal<Int, Never>(emitting: { send in send(7) })
        XCTAssertTrue(type(of: fromStream) == Signal<Int, Never>.self)
        XCTAssertTrue(type(of: throwingWork) == Signal<Int, TestError>.self)
        let results = [
            await created.firstValue(), await createdShorthand.firstValue(), await work.firstValue(),
            await asyncWork.firstValue(), await fromStream.firstValue(), await emitting.firstValue(),
        ]
        XCTAssertEqual(results, [1, 2, 3, 4, 6, 7])
        let five = try? await throwingWork.firstValue()
        XCTAssertEqual(five, 5)
        let subscription = never.subscribe(next: { _ in XCTFail("never sent a value") })
        subscription.dispose()
    }
}
