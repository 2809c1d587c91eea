import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class SynchronousTests: LeakCheckedTestCase {
    func testFirst_returnsTheFirstValueOrNilAndThrowsTheError() {
        XCTAssertEqual(try TestSource([1, 2]).signal.first(), 1)
        XCTAssertNil(try TestSource<Int>([]).signal.first())
        XCTAssertThrowsError(try TestSource<Int>([], end: .error(.first)).signal.first()) { error in
            XCTAssertEqual(error as? TestError, .first)
        }
        XCTAssertEqual(try TestSource([1], end: .error(.first)).signal.first(), 1)
        // RAC 2.5's nil on error.
        XCTAssertNil(try? TestSource<Int>([], end: .error(.first)).signal.first())
    }

    func testFirst_throwsTheTypedFailure() {
        do {
            _ = try TestSource<Int>([], end: .error(.second)).signal.first()
            XCTFail("first() did not throw")
        } catch {
            // `error` is a TestError here: typed throws, no cast.
            XCTAssertEqual(error, .second)
        }
    }

    func testFirstAndToArray_needNoTryForANeverFailingSignal() {
        let numbers = Signal<Int, Never>.return(1).concat(.return(2))
        let first: Int? = numbers.first()
        let all: [Int] = numbers.toArray()
        XCTAssertEqual(first, 1)
        XCTAssertEqual(all, [1, 2])
    }

    func testFirstDefault_returnsTheDefaultWithoutAValue() {
        XCTAssertEqual(TestSource([1, 2]).signal.first(default: 7), 1)
        XCTAssertEqual(TestSource<Int>([]).signal.first(default: 7), 7)
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.first(default: 7), 7)
    }

    func testFirstResult_tellsAValueTheEndAndAnError() {
        XCTAssertEqual(try TestSource([1, 2]).signal.firstResult().get(), 1)
        XCTAssertEqual(try TestSource<Int>([]).signal.firstResult().get(), nil)
        XCTAssertThrowsError(try TestSource<Int>([], end: .error(.second)).signal.firstResult().get()) { error in
            XCTAssertEqual(error as? TestError, .second)
        }
    }

    func testFirst_disposesTheSourceAfterTheFirstValue() {
        let source = TestSource([1, 2, 3], end: nil)
        XCTAssertEqual(try source.signal.first(), 1)
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testFirst_waitsForASignalOnAnotherThread() {
        let scheduler = QueueScheduler(name: "first test")
        XCTAssertEqual(try TestSource([1, 2]).signal.deliver(on: scheduler).first(), 1)
        XCTAssertEqual(TestSource<Int>([]).signal.deliver(on: scheduler).first(default: 5), 5)
        XCTAssertEqual(Signal.interval(0.001, on: scheduler).map { _ in 3 }.first(), 3)
    }

    func testWaitUntilCompleted_tellsCompletionFromAnError() {
        let scheduler = QueueScheduler(name: "wait test")
        XCTAssertNoThrow(try TestSource([1, 2]).signal.deliver(on: scheduler).waitUntilCompleted().get())
        XCTAssertNoThrow(try TestSource<Int>([]).signal.waitUntilCompleted().get())
        XCTAssertThrowsError(try TestSource([1], end: .error(.first)).signal.deliver(on: scheduler).waitUntilCompleted().get()) { error in
            XCTAssertEqual(error as? TestError, .first)
        }
    }

    func testToArray_returnsEveryValueOrThrowsTheError() {
        let scheduler = QueueScheduler(name: "toArray test")
        XCTAssertEqual(try TestSource([1, 2, 3]).signal.toArray(), [1, 2, 3])
        XCTAssertEqual(try TestSource([1, 2, 3]).signal.deliver(on: scheduler).toArray(), [1, 2, 3])
        XCTAssertEqual(try TestSource<Int>([]).signal.toArray(), [])
        XCTAssertThrowsError(try TestSource([1], end: .error(.first)).signal.toArray()) { error in
            XCTAssertEqual(error as? TestError, .first)
        }
        XCTAssertThrowsError(try TestSource([1], end: .error(.second)).signal.deliver(on: scheduler).toArray()) { error in
            XCTAssertEqual(error as? TestError, .second)
        }
        // RAC 2.5's nil on error.
        XCTAssertNil(try? TestSource([1], end: .error(.first)).signal.toArray())
    }

    func testSynchronousForms_releaseTheSubscription() {
        let (_, first) = trackingLifetime { token in
            try? TestSource([1], end: nil).signal.map { value -> Int in _ = token; return value }.first()
        }
        XCTAssertFalse(first.isAlive)
        let (_, array) = trackingLifetime { token in
            try? TestSource([1]).signal.map { value -> Int in _ = token; return value }.toArray()
        }
        XCTAssertFalse(array.isAlive)
    }

    func testAsynchronousFirst_runsTheMainRunLoopWhileItWaits() {
        let signal = TestSource([1, 2]).signal.deliver(on: Scheduler.main)
        XCTAssertEqual(signal.asynchronousFirst(default: 0, timeout: 10), 1)
        XCTAssertEqual(try signal.asynchronousFirstResult(timeout: 10).get(), 1)
    }

    func testAsynchronousFirst_valueFromAnotherThread() {
        let scheduler = QueueScheduler(name: "asynchronousFirst test")
        XCTAssertEqual(TestSource([4]).signal.deliver(on: scheduler).asynchronousFirst(default: 0, timeout: 10), 4)
        onAPlainThread {
            XCTAssertEqual(TestSource([5]).signal.deliver(on: scheduler).asynchronousFirst(default: 0, timeout: 10), 5)
        }
    }

    func testAsynchronousFirst_defaultOnErrorEndOrTimeout() {
        let (never, input) = Signal<Int, TestError>.pipe()
        XCTAssertEqual(never.asynchronousFirst(default: 9, timeout: 0.01), 9)
        XCTAssertEqual(try never.asynchronousFirstResult(timeout: 0).get(), nil)
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.deliver(on: Scheduler.main).asynchronousFirst(default: 9, timeout: 10), 9)
        XCTAssertEqual(TestSource<Int>([]).signal.deliver(on: Scheduler.main).asynchronousFirst(default: 9, timeout: 10), 9)
        XCTAssertEqual(try TestSource<Int>([]).signal.asynchronousFirstResult(timeout: 10).get(), nil)
        XCTAssertThrowsError(try TestSource<Int>([], end: .error(.second)).signal.deliver(on: Scheduler.main).asynchronousFirstResult(timeout: 10).get()) { error in
            XCTAssertEqual(error as? TestError, .second)
        }
        _ = input
    }

    func testAsynchronousForms_anInfiniteTimeoutWaitsForTheAnswer() {
        let later = Signal<Int, TestError>.return(1).delay(0.01, on: Scheduler.background())
        XCTAssertEqual(later.asynchronousFirst(default: 0, timeout: .infinity), 1)
        XCTAssertEqual(try later.asynchronousFirstResult(timeout: .infinity).get(), 1)
        XCTAssertNotNil(later.asynchronouslyWaitUntilCompleted(timeout: .infinity))
    }

    func testAsynchronouslyWaitUntilCompleted_tellsCompletionErrorAndTimeout() {
        XCTAssertNotNil(try TestSource([1]).signal.deliver(on: Scheduler.main).asynchronouslyWaitUntilCompleted(timeout: 10)?.get())
        XCTAssertThrowsError(try TestSource([1], end: .error(.first)).signal.deliver(on: Scheduler.main).asynchronouslyWaitUntilCompleted(timeout: 10)?.get()) { error in
            XCTAssertEqual(error as? TestError, .first)
        }
        let (never, input) = Signal<Int, TestError>.pipe()
        XCTAssertNil(never.asynchronouslyWaitUntilCompleted(timeout: 0.01))
        _ = input
    }

    func testAsynchronousFirst_onTheMainThreadRunsMainQueueWorkQueuedBeforeTheCall() {
        // RAC 2.5 delivers the answer on the main thread scheduler, so what the
        // main queue held before it has run, also for a signal that answers synchronously.
        for timeout in [1.0, 0] {
            let ran = Counter()
            DispatchQueue.main.async { ran.increment() }
            XCTAssertEqual(Signal<Int, Never>.return(1).asynchronousFirst(default: 0, timeout: timeout), 1, "timeout \(timeout)")
            XCTAssertEqual(ran.value, 1, "asynchronousFirst, timeout \(timeout)")

            DispatchQueue.main.async { ran.increment() }
            XCTAssertEqual(try Signal<Int, TestError>.return(2).asynchronousFirstResult(timeout: timeout).get(), 2)
            XCTAssertEqual(ran.value, 2, "asynchronousFirstResult, timeout \(timeout)")

            DispatchQueue.main.async { ran.increment() }
            XCTAssertNotNil(try Signal<Int, TestError>.empty.asynchronouslyWaitUntilCompleted(timeout: timeout)?.get())
            XCTAssertEqual(ran.value, 3, "asynchronouslyWaitUntilCompleted, timeout \(timeout)")
        }
    }

    func testAsynchronousFirst_onTheMainThreadRunsWhatTheSignalQueuedOnTheMainQueueBeforeItsValue() {
        // The answer comes through the main queue, behind what was queued there before it.
        let ran = Counter()
        let signal = Signal<Int, Never> { subscriber in
            DispatchQueue.main.async { ran.increment() }
            subscriber.sendNext(1)
            return nil
        }.subscribe(on: Scheduler.background())
        XCTAssertEqual(signal.asynchronousFirst(default: 0, timeout: 10), 1)
        XCTAssertEqual(ran.value, 1)
    }

    func testAsynchronousFirst_onAnotherThreadReturnsAsSoonAsTheAnswerComes() {
        // The main thread waits for the plain thread: the main queue cannot run meanwhile.
        let ran = Counter()
        DispatchQueue.main.async { ran.increment() }
        onAPlainThread {
            XCTAssertEqual(Signal<Int, Never>.return(1).asynchronousFirst(default: 0, timeout: 10), 1)
            XCTAssertNil(Signal<Int, TestError>.never.asynchronouslyWaitUntilCompleted(timeout: 0))
        }
        XCTAssertEqual(ran.value, 0)
        let drained = expectation(description: "main queue drained")
        DispatchQueue.main.async { drained.fulfill() }
        wait(for: [drained], timeout: 10)
        XCTAssertEqual(ran.value, 1)
    }

    func testAsynchronousFirst_insideAMainQueueBlockStillReturnsTheAnswer() {
        // Other main-queue work cannot run until this block returns: the answer is not held back
        // for it beyond the timeout.
        let answers = Recorder<Int>()
        let done = expectation(description: "the block ran")
        DispatchQueue.main.async {
            answers.record(Signal<Int, Never>.return(1).asynchronousFirst(default: 0, timeout: 1))
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(answers.values, [1])
    }

    func testAsynchronousForms_disposeTheSubscriptionOnTimeout() {
        let source = PipeSource()
        let (_, token) = trackingLifetime { token in
            source.signal.map { value -> Int in _ = token; return value }.asynchronouslyWaitUntilCompleted(timeout: 0)
        }
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertFalse(token.isAlive)
    }
}
