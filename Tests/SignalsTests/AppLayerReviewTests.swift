import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// A hostile review of the app layer's lifetimes and time operators (`Lifetime`,
/// `take(during:)`, `rateLimit`, `retry(_:delay:on:)`, `debug`): tokens released on other
/// threads and from inside observers, deep chains, timing edges, blocking callbacks and disposal
/// from everywhere.
final class AppLayerReviewTests: LeakCheckedTestCase {
    // MARK: Lifetime

    func testLifetime_lifetimesEndingEachOtherFromTheirObserversDeep_onAPlainThread() {
        // Documented on `Lifetime`: lifetimes that end each other from their observers end nested.
        // A release build holds 10,000 on a thread's 8 MB stack; a debug build's larger frames
        // overflow it between 4,000 and 6,000 deep.
        let count = BuildKind.isDebug || BuildKind.isSanitized ? 1_000 : 10_000
        // Each owner's lifetime, when it ends, releases the next owner's token.
        let tokens = Lock<[Lifetime.Token?]>([])
        var lifetimes: [Lifetime] = []
        for _ in 0..<count {
            let (lifetime, token) = Lifetime.make()
            lifetimes.append(lifetime)
            tokens.withLock { $0.append(token) }
        }
        let ended = Counter()
        for index in 0..<count {
            lifetimes[index].observeEnded {
                ended.increment()
                if index + 1 < count {
                    let next = tokens.withLock { tokens in tokens[index + 1].take() }
                    withExtendedLifetime(next) {}
                }
            }
        }
        onAPlainThread {
            let first = tokens.withLock { tokens in tokens[0].take() }
            withExtendedLifetime(first) {}
        }
        XCTAssertEqual(ended.value, count)
        XCTAssertTrue(lifetimes.allSatisfy(\.hasEnded))
    }

    func testLifetime_theTokenReleasedOnAnotherThreadWhileObserversAreAdded_runsEachExactlyOnce() {
        let rounds = BuildKind.raceRounds(optimized: 200, debug: 100, sanitized: 30)
        for _ in 0..<rounds {
            let (lifetime, made) = Lifetime.make()
            let token = Lock<Lifetime.Token?>(consume made)
            let observers = 200
            let runs = Lock<[Int]>(Array(repeating: 0, count: observers))
            let disposables = (0..<observers).map { _ in Disposable() }
            let releaser = startThread("releases the token") {
                token.withLock { $0 = nil }
            }
            for index in 0..<observers {
                lifetime.observeEnded { runs.withLock { $0[index] += 1 } }
                lifetime += disposables[index]
            }
            XCTAssertTrue(eventually { releaser.isSet })
            XCTAssertEqual(runs.withLock { $0 }, Array(repeating: 1, count: observers))
            XCTAssertTrue(disposables.allSatisfy(\.isDisposed))
        }
    }

    func testLifetime_anObserverThatObservesAndAddsToItsOwnLifetime_runsThoseAtOnce() {
        let log = Recorder<String>()
        let (lifetime, made) = Lifetime.make()
        var token: Lifetime.Token? = consume made
        let late = Disposable()
        lifetime.observeEnded {
            log.record("first")
            let returned = lifetime.observeEnded { log.record("nested") }
            XCTAssertNil(returned)
            XCTAssertNil(lifetime += late)
            XCTAssertTrue(late.isDisposed)
            log.record("first ends")
        }
        lifetime.observeEnded { log.record("second") }
        token = nil
        XCTAssertNil(token)
        XCTAssertEqual(log.values, ["first", "nested", "first ends", "second"])
    }

    func testLifetime_endedLetsGoOfEverythingAdded_andOfWhatAnAfterTheEndAddIsGiven() {
        let (lifetime, made) = Lifetime.make()
        var token: Lifetime.Token? = consume made
        let (_, before) = trackingLifetime { keep in
            lifetime.observeEnded { withExtendedLifetime(keep) {} }
        }
        token = nil
        XCTAssertNil(token)
        XCTAssertFalse(before.isAlive)
        let (_, after) = trackingLifetime { keep in
            lifetime += Disposable { withExtendedLifetime(keep) {} }
        }
        XCTAssertFalse(after.isAlive)
    }

    // MARK: take(during:)

    func testTakeDuring_aCallbackWaitingForAThreadThatReleasesTheToken_doesNotHang() {
        withWatchdog("take(during:): callback waits for a thread that ends the lifetime") {
            let (lifetime, made) = Lifetime.make()
            let token = Lock<Lifetime.Token?>(consume made)
            let (source, input) = Signal<Int, Never>.pipe()
            let events = source.take(during: lifetime).record()
            let received = Recorder<Int>()
            _ = source.take(during: lifetime).subscribeNext { value in
                received.record(value)
                let released = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    // Released inside the lock's closure, so before the semaphore is signalled.
                    token.withLock { $0 = nil }
                    released.signal()
                }
                XCTAssertTrue(released.waitForSignal(), "ending the lifetime waited for the callback")
            }
            input.sendNext(1)
            input.sendNext(2)
            XCTAssertEqual(received.values, [1])
            XCTAssertTrue(eventually { events.events == [.next(1), .completed] })
        }
    }

    func testLifetimeEnded_takenUntil_aCallbackWaitingForAThreadThatReleasesTheToken_doesNotHang() {
        withWatchdog("take(until: lifetime.ended): callback waits for a thread that ends the lifetime") {
            let (lifetime, made) = Lifetime.make()
            let token = Lock<Lifetime.Token?>(consume made)
            let received = eventsWhenEndedFromACallbackWaitingForIt(
                { $0.take(until: lifetime.ended) },
                end: { token.withLock { $0 = nil } },
                "ending the lifetime waited for the callback"
            )
            XCTAssertEqual(received.started, [1])
            XCTAssertEqual(received.events, [.next(1), .completed], "completed as the value's delivery ended")
        }
    }

    func testTakeDuring_fromEveryThreadContext_endedFromOutsideAndFromInsideTheCallback() {
        for context in ReviewContext.allCases {
            for fromInside in [false, true] {
                let (lifetime, made) = Lifetime.make()
                let token = Lock<Lifetime.Token?>(consume made)
                let (source, input) = Signal<Int, Never>.pipe()
                let events = Recorder<String>()
                let (_, sourceSide) = trackingLifetime { keep in
                    _ = source.doNext { _ in withExtendedLifetime(keep) {} }.take(during: lifetime).subscribe(
                        next: { value in
                            events.record("next \(value)")
                            if fromInside, value == 1 { token.withLock { $0 = nil } }
                        },
                        completed: { events.record("completed") }
                    )
                }
                context.run {
                    input.sendNext(1)
                    if !fromInside { token.withLock { $0 = nil } }
                    input.sendNext(2)
                }
                XCTAssertEqual(events.values, ["next 1", "completed"], "\(context), from inside: \(fromInside)")
                XCTAssertFalse(sourceSide.isAlive, "\(context): the source's subscription outlived the lifetime")
            }
        }
    }

    func testTakeDuring_anEndedLifetime_neverSubscribesTheSource() {
        let subscribed = Counter()
        let source = Signal<Int, Never> { _ in
            subscribed.increment()
            return nil
        }
        XCTAssertEqual(source.take(during: .empty).record().events, [.completed])
        XCTAssertEqual(subscribed.value, 0)
    }

    func testTakeDuring_theLifetimeEndingOnAnotherThreadWhileTheSourceSends_completesOnceAndLast() {
        let rounds = BuildKind.raceRounds(optimized: 200, debug: 100, sanitized: 30)
        for _ in 0..<rounds {
            let (lifetime, made) = Lifetime.make()
            let token = Lock<Lifetime.Token?>(consume made)
            let (source, input) = Signal<Int, Never>.pipe()
            let events = source.take(during: lifetime).record()
            let releaser = startThread("ends the lifetime") {
                token.withLock { $0 = nil }
            }
            var value = 0
            while !releaser.isSet {
                input.sendNext(value)
                value += 1
            }
            input.sendNext(value)
            let recorded = events.events
            XCTAssertEqual(recorded.last, .completed)
            XCTAssertEqual(recorded.filter { $0 == .completed }.count, 1)
            XCTAssertEqual(recorded.compactMap(\.value), Array(0..<recorded.count - 1))
        }
    }

    func testTakeDuring_manyShortSubscriptionsDuringALongLifetime_areLetGoOfAsTheyEnd() {
        let (lifetime, token) = Lifetime.make()
        let (source, _) = Signal<Int, Never>.pipe()
        var references: [WeakReference<LifetimeToken>] = []
        for _ in 0..<1_000 {
            let (_, reference) = trackingLifetime { keep in
                source.doNext { _ in withExtendedLifetime(keep) {} }.take(during: lifetime).subscribeNext { _ in }.dispose()
            }
            references.append(reference)
        }
        XCTAssertFalse(lifetime.hasEnded)
        XCTAssertEqual(references.filter(\.isAlive).count, 0, "the lifetime kept subscriptions that ended")
        withExtendedLifetime(token) {}
    }

    // MARK: rateLimit

    func testRateLimit_onAQueueScheduler_concurrentSenders_sendNoValueTwice_andEndOnTheLastWaitingValue() {
        let scheduler = QueueScheduler(name: "review rateLimit")
        let (source, input) = Signal<Int, Never>.pipe()
        let received = Recorder<Int>()
        let done = Flag()
        _ = source.rateLimit(0.001, on: scheduler).subscribe(next: { received.record($0) }, completed: { done.set() })
        let perThread = BuildKind.raceRounds(optimized: 2_000, debug: 500, sanitized: 200)
        race(threads: 4) { thread in
            for index in 0..<perThread { input.sendNext(thread * perThread + index) }
        }
        // One more value once every sender is done: the last value sent, at once or after the window.
        Thread.sleep(forTimeInterval: 0.01)
        input.sendNext(-1)
        XCTAssertTrue(eventually { received.values.last == -1 })
        input.sendCompleted()
        XCTAssertTrue(eventually { done.isSet })
        let values = received.values
        XCTAssertEqual(Set(values).count, values.count, "a value was sent twice")
        XCTAssertEqual(values.last, -1)
    }

    func testRateLimit_aCallbackOnTheSchedulerWaitingForAThreadThatDisposes_doesNotHang() {
        withWatchdog("rateLimit: callback on the scheduler waits for a thread that disposes") {
            let scheduler = QueueScheduler(name: "review rateLimit blocking")
            let (source, input) = Signal<Int, Never>.pipe()
            let subscription = SerialDisposable()
            let received = Recorder<Int>()
            let disposedInside = Flag()
            subscription.disposable = source.rateLimit(0.001, on: scheduler).subscribe(next: { value in
                received.record(value)
                guard value == 2 else { return }
                let disposed = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    subscription.dispose()
                    disposed.signal()
                }
                XCTAssertTrue(disposed.waitForSignal(), "dispose() waited for the callback")
                disposedInside.set()
            })
            input.sendNext(1)
            input.sendNext(2)
            XCTAssertTrue(eventually { disposedInside.isSet })
            input.sendNext(3)
            Thread.sleep(forTimeInterval: 0.01)
            XCTAssertEqual(received.values, [1, 2])
        }
    }

    func testRateLimit_aHugeWindow_holdsTheLatestUntilCompletion_andDisposalLetsGoOfIt() {
        let scheduler = QueueScheduler(name: "review rateLimit huge")
        let (source, input) = Signal<Int, Never>.pipe()
        let recording = source.rateLimit(1e300, on: scheduler).record()
        input.sendNext(1)
        input.sendNext(2)
        input.sendNext(3)
        XCTAssertEqual(recording.events, [.next(1)])
        input.sendCompleted()
        XCTAssertEqual(recording.events, [.next(1), .next(3), .completed])

        let (other, otherInput) = Signal<LifetimeToken, Never>.pipe()
        let subscription = other.rateLimit(.infinity, on: scheduler).subscribeNext { _ in }
        let (_, waiting) = trackingLifetime { keep in
            otherInput.sendNext(LifetimeToken())
            otherInput.sendNext(keep)
        }
        XCTAssertTrue(waiting.isAlive, "the waiting value is held")
        subscription.dispose()
        XCTAssertTrue(eventually { !waiting.isAlive }, "disposal kept the waiting value")
    }

    func testRateLimit_completionOnAnotherThreadRacingTheWindowsEnd_sendsTheWaitingValueOnce() {
        let rounds = BuildKind.raceRounds(optimized: 300, debug: 100, sanitized: 30)
        let scheduler = QueueScheduler(name: "review rateLimit completion race")
        for _ in 0..<rounds {
            let (source, input) = Signal<Int, Never>.pipe()
            let recording = source.rateLimit(0.0005, on: scheduler).record()
            input.sendNext(1)
            input.sendNext(2)
            let completer = startThread("completes") {
                Thread.sleep(forTimeInterval: 0.0005)
                input.sendCompleted()
            }
            XCTAssertTrue(eventually { completer.isSet && recording.events.last == .completed })
            XCTAssertEqual(recording.events, [.next(1), .next(2), .completed])
        }
    }

    // MARK: retry(_:delay:on:)

    func testRetryDelay_extremeMultipliersAndCaps_stayInRange() {
        XCTAssertEqual(RetryDelay.exponential(initial: 1, multiplier: .infinity, maximum: 7).delay(beforeRetry: 1), 1)
        XCTAssertEqual(RetryDelay.exponential(initial: 1, multiplier: .infinity, maximum: 7).delay(beforeRetry: 2), 7)
        XCTAssertEqual(RetryDelay.exponential(initial: .infinity, multiplier: 1, maximum: 3).delay(beforeRetry: 1), 3)
        XCTAssertEqual(RetryDelay.exponential(initial: 2, multiplier: 1e308).delay(beforeRetry: Int.max), .infinity)
        XCTAssertEqual(RetryDelay.exponential(initial: 0, multiplier: .infinity).delay(beforeRetry: 1_000), 0)
        XCTAssertEqual(RetryDelay.exponential(initial: 5, maximum: 0).delay(beforeRetry: 1), 0)
    }

    func testRetryAfterDelay_aValueCallbackInTheRetriedSubscriptionWaitingForAThreadThatDisposes_doesNotHang() {
        withWatchdog("retry(_:delay:on:): callback waits for a thread that disposes") {
            let scheduler = QueueScheduler(name: "review retry blocking")
            let attempts = Counter()
            let source = Signal<Int, TestError> { subscriber in
                attempts.increment()
                if attempts.value == 1 {
                    subscriber.sendError(.first)
                } else {
                    subscriber.sendNext(attempts.value)
                    subscriber.sendError(.first)
                }
                return nil
            }
            let subscription = SerialDisposable()
            let received = Recorder<Int>()
            let disposedInside = Flag()
            subscription.disposable = source.retry(0, delay: .constant(0.001), on: scheduler).subscribe(next: { value in
                received.record(value)
                let disposed = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    subscription.dispose()
                    disposed.signal()
                }
                XCTAssertTrue(disposed.waitForSignal(), "dispose() waited for the callback")
                disposedInside.set()
            })
            XCTAssertTrue(eventually { disposedInside.isSet })
            Thread.sleep(forTimeInterval: 0.01)
            XCTAssertEqual(received.values, [2])
            XCTAssertEqual(attempts.value, 2, "the retry went on after disposal")
        }
    }

    func testRetryAfterDelay_aHugeDelayOnAQueueScheduler_waitsUntilDisposed_andDisposalLetsGo() {
        let scheduler = QueueScheduler(name: "review retry huge")
        let attempts = Counter()
        let (_, waiting) = trackingLifetime { keep in
            let source = Signal<Int, TestError> { subscriber in
                withExtendedLifetime(keep) {}
                attempts.increment()
                subscriber.sendError(.first)
                return nil
            }
            let recording = source.retry(1, delay: .constant(1e300), on: scheduler).record()
            XCTAssertEqual(recording.events, [])
            recording.dispose()
        }
        XCTAssertEqual(attempts.value, 1)
        XCTAssertTrue(eventually { !waiting.isAlive }, "the pending retry kept the source")
    }

    func testRetryAfterDelay_anInfiniteDelayOnImmediate_waitsWithoutBlocking_andDisposalLetsGo() {
        withWatchdog("retry(_:delay:on:) with an infinite delay on immediate") {
            let attempts = Counter()
            let (_, waiting) = trackingLifetime { keep in
                let source = Signal<Int, TestError> { subscriber in
                    withExtendedLifetime(keep) {}
                    attempts.increment()
                    subscriber.sendError(.first)
                    return nil
                }
                let recording = source.retry(0, delay: .constant(.infinity), on: .immediate).record()
                XCTAssertEqual(recording.events, [])
                recording.dispose()
            }
            XCTAssertEqual(attempts.value, 1)
            XCTAssertFalse(waiting.isAlive, "the retry that never comes kept the source after disposal")
        }
    }

    // MARK: debug

    func testDebug_anOutputThatDisposesOnTheValuesLine_stopsTheValue_andLogsTheDisposalLast() {
        let (source, input) = Signal<Int, Never>.pipe()
        let lines = Recorder<String>()
        let subscription = SerialDisposable()
        let received = Recorder<Int>()
        subscription.disposable = source.debug("d", to: { line in
            lines.record(line)
            if line.hasPrefix("d: next(1)") { subscription.dispose() }
        }).subscribeNext { received.record($0) }
        input.sendNext(1)
        input.sendNext(2)
        XCTAssertEqual(lines.values.map { $0.components(separatedBy: " [").first! }, ["d: subscribed", "d: next(1)", "d: disposed"])
        XCTAssertEqual(received.values, [])
    }

    func testDebug_anOutputThatSubscribesAgain_logsBothSubscriptions() {
        let lines = Recorder<String>()
        let nested = Flag()
        let once = Lock(false)
        let signal = Signal<Int, Never>.return(1)
        let holder = Lock<Signal<Int, Never>?>(nil)
        let debugged = signal.debug("d", to: { line in
            lines.record(line.components(separatedBy: " [").first!)
            let first = once.withLock { done in
                defer { done = true }
                return !done
            }
            if first, let again = holder.withLock({ $0 }) {
                _ = again.subscribeNext { _ in nested.set() }
            }
        })
        holder.withLock { $0 = debugged }
        XCTAssertEqual(debugged.record().events, [.next(1), .completed])
        XCTAssertTrue(nested.isSet)
        XCTAssertEqual(lines.values, ["d: subscribed", "d: subscribed", "d: next(1)", "d: completed", "d: next(1)", "d: completed"])
        // The holder keeps the signal whose output closure keeps the holder.
        holder.withLock { $0 = nil }
    }

    func testDebug_aValueWhoseDescriptionDisposesTheSubscription_isNeitherSentNorLoggedAfterTheDisposal() {
        let (source, input) = Signal<Described, Never>.pipe()
        let lines = Recorder<String>()
        let subscription = SerialDisposable()
        let received = Recorder<Int>()
        subscription.disposable = source.debug("d", to: { line in lines.record(line.components(separatedBy: " [").first!) })
            .subscribeNext { received.record($0.number) }
        input.sendNext(Described(number: 1, onDescription: nil))
        input.sendNext(Described(number: 2, onDescription: { subscription.dispose() }))
        XCTAssertEqual(received.values, [1])
        XCTAssertEqual(lines.values.last, "d: disposed", "a line was logged after the disposal: \(lines.values)")
    }

    func testDebug_anErrorWhoseDescriptionDisposesTheSubscription_isNeitherSentNorLoggedAfterTheDisposal() {
        let (source, input) = Signal<Int, DescribedError>.pipe()
        let lines = Recorder<String>()
        let subscription = SerialDisposable()
        let failed = Flag()
        subscription.disposable = source.debug("d", to: { line in lines.record(line.components(separatedBy: " [").first!) })
            .subscribe(error: { _ in failed.set() })
        input.sendError(DescribedError(onDescription: { subscription.dispose() }))
        XCTAssertFalse(failed.isSet)
        XCTAssertEqual(lines.values, ["d: subscribed", "d: disposed"])
    }
}

/// An error whose description runs `onDescription` first.
private struct DescribedError: Error, CustomStringConvertible, Sendable {
    let onDescription: @Sendable () -> Void

    var description: String {
        onDescription()
        return "described"
    }
}

/// A value whose description runs `onDescription` first: user code inside `debug`'s formatting.
private struct Described: CustomStringConvertible, Sendable {
    let number: Int
    let onDescription: (@Sendable () -> Void)?

    var description: String {
        onDescription?()
        return "#\(number)"
    }
}
