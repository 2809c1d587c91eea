import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// A hostile review of the one-input sink bases, EndingSink, switchingOver, the holding timer
/// sinks and replaceEmpty(with:): exact event sequences at the edges (errors, completion, empty
/// sources, disposal inside callbacks), what each lets go of, and the same from every thread
/// context.
final class HostileRefactorTests: LeakCheckedTestCase {
    // MARK: Helpers

    /// A cold signal that sends `values`, then `end`, then, to check that the operator ignores
    /// what a source sends after its own end, `after` (which a `Subscriber` must drop).
    private func source(_ values: [Int], end: Event<Int, TestError>? = .completed, disposals: Counter) -> Signal<Int, TestError> {
        Signal { subscriber in
            for value in values { subscriber.sendNext(value) }
            if let end { subscriber.sendEvent(end) }
            subscriber.sendNext(99)
            subscriber.sendCompleted()
            return Disposable { disposals.increment() }
        }
    }

    /// Subscribes `signal`, disposing the subscription inside the `at`-th value's callback.
    private func recordDisposing<V: Sendable, F: Error & Sendable>(_ signal: Signal<V, F>, at: Int) -> [Event<V, F>] {
        let events = Recorder<Event<V, F>>()
        let box = DisposableBox()
        let count = Counter()
        let subscriber = Subscriber<V, F>(
            next: { value in
                events.record(.next(value))
                count.increment()
                if count.value == at { box.disposable?.dispose() }
            },
            error: { events.record(.error($0)) },
            completed: { events.record(.completed) }
        )
        box.disposable = subscriber.disposable
        signal.subscribe(subscriber)
        return events.values
    }

    /// The same with the closure-based `subscribe(next:error:completed:)`, whose disposable is
    /// known only once `subscribe` returns: for hot sources.
    private func recordDisposingLater<V: Sendable, F: Error & Sendable>(_ signal: Signal<V, F>, at: Int, drive: () -> Void) -> [Event<V, F>] {
        let events = Recorder<Event<V, F>>()
        let box = DisposableBox()
        let count = Counter()
        box.disposable = signal.subscribe(
            next: { value in
                events.record(.next(value))
                count.increment()
                if count.value == at { box.disposable?.dispose() }
            },
            error: { events.record(.error($0)) },
            completed: { events.record(.completed) }
        )
        drive()
        return events.values
    }

    // MARK: EndingSink: take, take(while:), tryMap, dematerialize

    func testTake_endsItsSourceOnceAndIgnoresWhatTheSourceSendsAfter() {
        let disposals = Counter()
        XCTAssertEqual(source([1, 2, 3], disposals: disposals).take(2).record().events, [.next(1), .next(2), .completed])
        XCTAssertEqual(disposals.value, 1)
        let errorDisposals = Counter()
        XCTAssertEqual(source([1], end: .error(.first), disposals: errorDisposals).take(2).record().events, [.next(1), .error(.first)])
        XCTAssertEqual(errorDisposals.value, 1)
    }

    func testTake_disposedInsideTheLastValueSendsNoCompletionAndDisposesTheSourceOnce() {
        let disposals = Counter()
        XCTAssertEqual(recordDisposing(source([1, 2, 3], disposals: disposals).take(2), at: 2), [.next(1), .next(2)])
        XCTAssertEqual(disposals.value, 1)
        let early = Counter()
        XCTAssertEqual(recordDisposing(source([1, 2, 3], disposals: early).take(2), at: 1), [.next(1)])
        XCTAssertEqual(early.value, 1)
    }

    func testTake_aDownstreamOperatorSeesTheEndOnceEvenWhenDisposedInsideTheLastValue() {
        let completions = Counter()
        let disposals = Counter()
        let events = recordDisposing(source([1, 2, 3], disposals: disposals).take(1).doCompleted { completions.increment() }, at: 1)
        XCTAssertEqual(events, [.next(1)])
        XCTAssertLessThanOrEqual(completions.value, 1)
        XCTAssertEqual(disposals.value, 1)
    }

    func testTakeWhile_endsAtTheFirstFailingValueAndDropsTheRest() {
        let disposals = Counter()
        XCTAssertEqual(source([1, 2, 3, 1], disposals: disposals).take(while: { $0 < 2 }).record().events, [.next(1), .completed])
        XCTAssertEqual(disposals.value, 1)
        let none = Counter()
        XCTAssertEqual(source([5], disposals: none).take(while: { $0 < 2 }).record().events, [.completed])
        XCTAssertEqual(none.value, 1)
        let errors = Counter()
        XCTAssertEqual(source([1], end: .error(.second), disposals: errors).take(while: { $0 < 2 }).record().events, [.next(1), .error(.second)])
    }

    func testTakeWhile_takeOfTakeWhile_eachEndsOnce() {
        let disposals = Counter()
        let completions = Counter()
        let events = source([1, 2, 3], disposals: disposals)
            .take(while: { $0 < 3 })
            .doCompleted { completions.increment() }
            .take(2)
            .record().events
        XCTAssertEqual(events, [.next(1), .next(2), .completed])
        XCTAssertEqual(disposals.value, 1)
        // The inner take(while:) never saw its end: the outer take ended it first.
        XCTAssertEqual(completions.value, 0)
    }

    func testTryMap_aThrowEndsTheSourceThenSendsTheErrorOnce() {
        let disposals = Counter()
        let errors = Counter()
        let events = source([1, 2, 3], disposals: disposals)
            .tryMap { value throws(TestError) -> Int in
                if value == 2 { throw .second }
                return value * 10
            }
            .doError { _ in errors.increment() }
            .record().events
        XCTAssertEqual(events, [.next(10), .error(.second)])
        XCTAssertEqual(disposals.value, 1)
        XCTAssertEqual(errors.value, 1)
    }

    func testTryMap_disposedInsideTheValueBeforeAThrowSendsNoError() {
        let disposals = Counter()
        let events = recordDisposing(
            source([1, 2], disposals: disposals).tryMap { value throws(TestError) -> Int in
                if value == 2 { throw .first }
                return value
            },
            at: 1
        )
        XCTAssertEqual(events, [.next(1)])
        XCTAssertEqual(disposals.value, 1)
    }

    func testDematerialize_endsAtTheFirstTerminalEventOfTheValues() {
        let (events, input) = Signal<Event<Int, TestError>, Never>.pipe()
        let recorder: EventRecorder<Int, TestError> = events.dematerialize().record()
        input.sendNext(.next(1))
        input.sendNext(.completed)
        input.sendNext(.next(2))
        input.sendNext(.error(.first))
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .completed])

        let failing = Signal<Event<Int, TestError>, TestError>.pipe()
        let errors = failing.0.dematerialize().record()
        failing.1.sendNext(.error(.second))
        failing.1.sendError(.first)
        failing.1.sendNext(.next(3))
        XCTAssertEqual(errors.events, [.error(.second)])
        // The source's own error passes through when no event ended it first.
        let plain = Signal<Event<Int, TestError>, TestError>.pipe()
        let plainRecorder = plain.0.dematerialize().record()
        plain.1.sendNext(.next(1))
        plain.1.sendError(.first)
        XCTAssertEqual(plainRecorder.events, [.next(1), .error(.first)])
    }

    func testMaterializeDematerialize_roundTripsEverySequence() {
        for end in [Event<Int, TestError>.completed, .error(.first)] {
            for values in [[], [1], [1, 2, 3]] {
                let disposals = Counter()
                let events = source(values, end: end, disposals: disposals).materialize().dematerialize().record().events
                XCTAssertEqual(events, values.map { .next($0) } + [end], "\(values) \(end)")
                XCTAssertEqual(disposals.value, 1)
            }
        }
    }

    func testMaterialize_disposedInsideTheErrorValueSendsNoCompletion() {
        let disposals = Counter()
        let events = recordDisposing(source([1], end: .error(.first), disposals: disposals).materialize(), at: 2)
        XCTAssertEqual(events, [.next(.next(1)), .next(.error(.first))])
        XCTAssertEqual(disposals.value, 1)
    }

    // MARK: Subscriber sinks: aggregate, take(last:), any/all

    func testAggregate_sendsOnlyAtCompletionAndNothingOnError() {
        let disposals = Counter()
        XCTAssertEqual(source([1, 2, 3], disposals: disposals).aggregate(0, +).record().events, [.next(6), .completed])
        XCTAssertEqual(source([], disposals: disposals).aggregate(7, +).record().events, [.next(7), .completed])
        XCTAssertEqual(source([1], end: .error(.first), disposals: disposals).aggregate(0, +).record().events, [.error(.first)])
        XCTAssertEqual(source([1, 2], disposals: disposals).collect().record().events, [.next([1, 2]), .completed])
        XCTAssertEqual(recordDisposing(source([1, 2], disposals: disposals).collect(), at: 1), [.next([1, 2])])
        XCTAssertEqual(disposals.value, 5)
    }

    func testTakeLast_disposedInsideAFlushedValueStopsTheRestAndTheCompletion() {
        let disposals = Counter()
        XCTAssertEqual(recordDisposing(source([1, 2, 3, 4], disposals: disposals).take(last: 3), at: 1), [.next(2)])
        XCTAssertEqual(source([1, 2], end: .error(.first), disposals: disposals).take(last: 1).record().events, [.error(.first)])
        XCTAssertEqual(source([1, 2], disposals: disposals).take(last: 0).record().events, [.completed])
        XCTAssertEqual(source([], disposals: disposals).take(last: 2).record().events, [.completed])
        XCTAssertEqual(disposals.value, 4)
    }

    func testAnyAll_answerOnceAndEndTheSource() {
        let disposals = Counter()
        XCTAssertEqual(source([1, 2, 3], disposals: disposals).any { $0 == 2 }.record().events, [.next(true), .completed])
        XCTAssertEqual(source([1, 2, 3], disposals: disposals).any { $0 == 5 }.record().events, [.next(false), .completed])
        XCTAssertEqual(source([1, 2, 3], disposals: disposals).all { $0 < 5 }.record().events, [.next(true), .completed])
        XCTAssertEqual(source([1, 2, 3], disposals: disposals).all { $0 < 2 }.record().events, [.next(false), .completed])
        XCTAssertEqual(source([], disposals: disposals).any().record().events, [.next(false), .completed])
        XCTAssertEqual(source([], disposals: disposals).all { _ in false }.record().events, [.next(true), .completed])
        // An error becomes false then completion, for both (RAC 2.5).
        XCTAssertEqual(source([1], end: .error(.first), disposals: disposals).any { $0 == 5 }.record().events, [.next(false), .completed])
        XCTAssertEqual(source([1], end: .error(.first), disposals: disposals).all { $0 < 5 }.record().events, [.next(false), .completed])
        XCTAssertEqual(disposals.value, 8)
        XCTAssertEqual(recordDisposing(source([1, 2], disposals: disposals).any(), at: 1), [.next(true)])
    }

    func testAny_predicateIsNotCalledAfterTheAnswer() {
        let calls = Counter()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.any { value in
            calls.increment()
            return value == 1
        }.record()
        input.sendNext(1)
        input.sendNext(2)
        input.sendNext(3)
        XCTAssertEqual(recorder.events, [.next(true), .completed])
        XCTAssertEqual(calls.value, 1)
    }

    // MARK: mapError, promoteError

    func testMapError_convertsOnceAndCompletionPasses() {
        let disposals = Counter()
        let calls = Counter()
        let events = source([1], end: .error(.first), disposals: disposals)
            .mapError { error -> TestError in
                calls.increment()
                return error == .first ? .second : .first
            }
            .record().events
        XCTAssertEqual(events, [.next(1), .error(.second)])
        XCTAssertEqual(calls.value, 1)
        XCTAssertEqual(source([1], disposals: disposals).mapError { $0 }.record().events, [.next(1), .completed])
        let never = Signal<Int, Never>.pipe()
        let promoted = never.0.promoteError(TestError.self).record()
        never.1.sendNext(1)
        never.1.sendCompleted()
        XCTAssertEqual(promoted.events, [.next(1), .completed])
    }

    // MARK: switchingOver: catch, take(untilReplacement:), skip(until:)

    func testCatch_theHandlersSignalReplacesTheSourceExactlyOnce() {
        let disposals = Counter()
        let handlerCalls = Counter()
        let replacementDisposals = Counter()
        let events = source([1], end: .error(.first), disposals: disposals)
            .catch { (error: TestError) -> Signal<Int, TestError> in
                handlerCalls.increment()
                return Signal { subscriber in
                    subscriber.sendNext(2)
                    subscriber.sendError(.second)
                    subscriber.sendNext(3)
                    return Disposable { replacementDisposals.increment() }
                }
            }
            .record().events
        XCTAssertEqual(events, [.next(1), .next(2), .error(.second)])
        XCTAssertEqual(handlerCalls.value, 1)
        XCTAssertEqual(disposals.value, 1)
        XCTAssertEqual(replacementDisposals.value, 1)
        // Completion of the source: no handler.
        XCTAssertEqual(source([1], disposals: disposals).catch { _ in Signal<Int, TestError>.return(7) }.record().events, [.next(1), .completed])
    }

    func testCatch_disposedInsideTheReplacementsFirstValueStopsIt() {
        let disposals = Counter()
        let replacementDisposals = Counter()
        let events = recordDisposing(
            source([], end: .error(.first), disposals: disposals).catch { _ in
                Signal<Int, Never> { subscriber in
                    subscriber.sendNext(1)
                    subscriber.sendNext(2)
                    subscriber.sendCompleted()
                    return Disposable { replacementDisposals.increment() }
                }
            },
            at: 1
        )
        XCTAssertEqual(events, [.next(1)])
        XCTAssertEqual(replacementDisposals.value, 1)
    }

    func testCatch_disposedFromInsideTheHandlerSubscribesNothingThatSends() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let box = DisposableBox()
        let events = Recorder<Event<Int, TestError>>()
        let replacementSubscriptions = Counter()
        let replacementDisposals = Counter()
        box.disposable = signal.catch { _ in
            box.disposable?.dispose()
            return Signal<Int, TestError> { subscriber in
                replacementSubscriptions.increment()
                subscriber.sendNext(5)
                subscriber.sendCompleted()
                return Disposable { replacementDisposals.increment() }
            }
        }.subscribe(next: { events.record(.next($0)) }, error: { events.record(.error($0)) }, completed: { events.record(.completed) })
        input.sendError(.first)
        XCTAssertEqual(events.values, [])
        XCTAssertEqual(replacementDisposals.value, replacementSubscriptions.value)
    }

    func testCatch_letsGoOfTheHandlerAndTheChainOnceEnded() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let (recorder, token) = trackingLifetime { token in
            signal.catch { _ in
                _ = token
                return Signal<Int, TestError>.return(1)
            }.record()
        }
        XCTAssertTrue(token.isAlive)
        input.sendError(.first)
        XCTAssertEqual(recorder.events, [.next(1), .completed])
        XCTAssertFalse(token.isAlive, "catch kept its handler after its replacement completed")
    }

    func testCatch_letsGoOfTheHandlerOnDisposalBeforeAnError() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let (recorder, token) = trackingLifetime { token in
            signal.catch { _ in
                _ = token
                return Signal<Int, TestError>.return(1)
            }.record()
        }
        input.sendNext(1)
        recorder.dispose()
        XCTAssertFalse(token.isAlive, "catch kept its handler after disposal")
        input.sendError(.first)
        XCTAssertEqual(recorder.events, [.next(1)])
    }

    func testCatch_theReplacementsEventsAfterDisposalFromAnotherThreadAreNotDelivered() {
        let (replacement, replacementInput) = Signal<Int, TestError>.pipe()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.catch(to: replacement).record()
        input.sendError(.first)
        replacementInput.sendNext(1)
        onAPlainThread { recorder.dispose() }
        replacementInput.sendNext(2)
        replacementInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1)])
    }

    func testTakeUntilReplacement_exactEvents() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let (replacement, replacementInput) = Signal<Int, TestError>.pipe()
        let recorder = signal.take(untilReplacement: replacement).record()
        input.sendNext(1)
        input.sendCompleted()           // does not end the result
        replacementInput.sendNext(2)
        input.sendNext(3)
        replacementInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])

        // The source's error ends everything, the replacement included.
        let replacementDisposals = Counter()
        let disposals = Counter()
        let failing = source([1], end: .error(.first), disposals: disposals)
            .take(untilReplacement: Signal<Int, TestError> { _ in Disposable { replacementDisposals.increment() } })
            .record().events
        XCTAssertEqual(failing, [.next(1), .error(.first)])
        XCTAssertEqual(replacementDisposals.value, 1)

        // A replacement that sends at once: the source is never subscribed.
        let subscriptions = TestSource([1, 2])
        XCTAssertEqual(subscriptions.signal.take(untilReplacement: .return(9)).record().events, [.next(9), .completed])
        XCTAssertEqual(subscriptions.subscriptions.value, 0)
    }

    func testTakeUntilReplacement_theReplacementsErrorAndCompletionEndTheSource() {
        let source = DrivenSource<TestError>()
        let (replacement, replacementInput) = Signal<Int, TestError>.pipe()
        let recorder = source.signal.take(untilReplacement: replacement).record()
        source.input.sendNext(1)
        replacementInput.sendError(.second)
        source.input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(1), .error(.second)])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testSkipUntil_exactEvents() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let (trigger, triggerInput) = Signal<Void, TestError>.pipe()
        let recorder = signal.skip(until: trigger).record()
        input.sendNext(1)
        triggerInput.sendNext(())
        input.sendNext(2)
        triggerInput.sendError(.first)  // after the gate opened: ignored
        input.sendNext(3)
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(2), .next(3), .completed])

        // A trigger that fails keeps the gate shut; the source's completion still passes.
        let (shut, shutInput) = Signal<Int, TestError>.pipe()
        let shutRecorder = shut.skip(until: Signal<Void, TestError>.error(.first)).record()
        shutInput.sendNext(1)
        shutInput.sendCompleted()
        XCTAssertEqual(shutRecorder.events, [.completed])

        // The source's error passes, and ends the trigger.
        let triggerDisposals = Counter()
        let disposals = Counter()
        let failing = source([1], end: .error(.second), disposals: disposals)
            .skip(until: Signal<Void, TestError> { _ in Disposable { triggerDisposals.increment() } })
            .record().events
        XCTAssertEqual(failing, [.error(.second)])
        XCTAssertEqual(triggerDisposals.value, 1)
    }

    func testSkipUntil_letsGoOfTheTriggerAndTheChainOnCompletion() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let (trigger, _) = Signal<Void, TestError>.pipe()
        let (recorder, token) = trackingLifetime { token in
            signal.skip(until: trigger).map { value -> Int in
                _ = token
                return value
            }.record()
        }
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.completed])
        XCTAssertFalse(token.isAlive)
    }

    // MARK: replaceEmpty(with:)

    func testReplaceEmpty_nothingAfterAnEnd() {
        let disposals = Counter()
        XCTAssertEqual(source([], disposals: disposals).replaceEmpty(with: 5).record().events, [.next(5), .completed])
        XCTAssertEqual(source([], end: .error(.first), disposals: disposals).replaceEmpty(with: 5).record().events, [.error(.first)])
        XCTAssertEqual(source([1], disposals: disposals).replaceEmpty(with: 5).record().events, [.next(1), .completed])
        XCTAssertEqual(source([], disposals: disposals).replaceEmpty(with: 5).replaceEmpty(with: 6).record().events, [.next(5), .completed])
        XCTAssertEqual(source([], disposals: disposals).filter { $0 > 0 }.replaceEmpty(with: 5).take(1).record().events, [.next(5), .completed])
        XCTAssertEqual(disposals.value, 5)
    }

    func testReplaceEmpty_letsGoOfTheFallbackValueOnceItIsNotNeeded() {
        let (signal, input) = Signal<LifetimeToken, TestError>.pipe()
        let (recorder, token) = trackingLifetime { token in
            signal.replaceEmpty(with: token).map { _ in 1 }.record()
        }
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
        // The operator's signal holds the fallback (as startWith holds its value); the
        // subscription does not.
        _ = token
    }

    // MARK: throttle and rateLimit on virtual time

    func testThrottle_heldValueBeforeCompletionDroppedAtErrorTimerCancelledOnDisposal() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.throttle(1, on: scheduler).record()
        input.sendNext(1)
        input.sendNext(2)
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(2), .completed])
        scheduler.run()
        XCTAssertEqual(recorder.events, [.next(2), .completed])
        XCTAssertTrue(scheduler.isEmpty)

        let (failing, failingInput) = Signal<Int, TestError>.pipe()
        let failingRecorder = failing.throttle(1, on: scheduler).record()
        failingInput.sendNext(1)
        failingInput.sendError(.first)
        scheduler.run()
        XCTAssertEqual(failingRecorder.events, [.error(.first)])
        XCTAssertTrue(scheduler.isEmpty)

        let (disposed, disposedInput) = Signal<Int, TestError>.pipe()
        let (disposedRecorder, token) = trackingLifetime { token in
            disposed.throttle(1, on: scheduler, valuesPassing: { _ in _ = token; return true }).record()
        }
        disposedInput.sendNext(1)
        XCTAssertFalse(scheduler.isEmpty)
        disposedRecorder.dispose()
        XCTAssertTrue(scheduler.isEmpty, "disposal left throttle's timer scheduled")
        XCTAssertFalse(token.isAlive, "throttle kept its predicate after disposal")
        scheduler.run()
        XCTAssertEqual(disposedRecorder.events, [])
    }

    func testThrottle_disposedInsideTheHeldValueAtCompletionSendsNoCompletion() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let events = recordDisposingLater(signal.throttle(1, on: scheduler), at: 1) {
            input.sendNext(1)
            input.sendCompleted()
        }
        XCTAssertEqual(events, [.next(1)])
    }

    func testThrottle_timerFiresThenCompletionSendsNothingTwice() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.throttle(1, on: scheduler).record()
        input.sendNext(1)
        scheduler.advance(by: 1)
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
        let (passing, passingInput) = Signal<Int, TestError>.pipe()
        let passingRecorder = passing.throttle(1, on: scheduler, valuesPassing: { $0 > 1 }).record()
        passingInput.sendNext(2)
        passingInput.sendNext(1)     // passes at once and cancels the held 2
        scheduler.run()
        passingInput.sendCompleted()
        XCTAssertEqual(passingRecorder.events, [.next(1), .completed])
    }

    func testRateLimit_exactEventsAtCompletionErrorAndDisposal() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.rateLimit(1, on: scheduler).record()
        input.sendNext(1)
        input.sendNext(2)
        input.sendNext(3)
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .next(3), .completed])
        XCTAssertTrue(scheduler.isEmpty)

        let (failing, failingInput) = Signal<Int, TestError>.pipe()
        let failingRecorder = failing.rateLimit(1, on: scheduler).record()
        failingInput.sendNext(1)
        failingInput.sendNext(2)
        failingInput.sendError(.first)
        scheduler.run()
        XCTAssertEqual(failingRecorder.events, [.next(1), .error(.first)])

        let (first, firstInput) = Signal<Int, TestError>.pipe()
        let firstRecorder = first.rateLimit(1, on: scheduler, latest: false).record()
        firstInput.sendNext(1)
        firstInput.sendNext(2)
        scheduler.advance(by: 1)
        firstInput.sendNext(3)
        firstRecorder.dispose()
        XCTAssertTrue(scheduler.isEmpty)
        XCTAssertEqual(firstRecorder.events, [.next(1), .next(3)])
    }

    // MARK: delay and deliver(on:)

    func testDelay_errorAtOnceCompletionDelayedDisposalCancels() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.delay(1, on: scheduler).record()
        input.sendNext(1)
        input.sendError(.first)
        XCTAssertEqual(recorder.events, [.error(.first)])
        scheduler.run()
        XCTAssertEqual(recorder.events, [.error(.first)])

        let (completing, completingInput) = Signal<Int, TestError>.pipe()
        let completingRecorder = completing.delay(1, on: scheduler).record()
        completingInput.sendNext(1)
        completingInput.sendCompleted()
        XCTAssertEqual(completingRecorder.events, [])
        scheduler.advance(by: 1)
        XCTAssertEqual(completingRecorder.events, [.next(1), .completed])

        let (disposed, disposedInput) = Signal<Int, TestError>.pipe()
        let disposedRecorder = disposed.delay(1, on: scheduler).record()
        disposedInput.sendNext(1)
        disposedRecorder.dispose()
        XCTAssertTrue(scheduler.isEmpty)
        scheduler.run()
        XCTAssertEqual(disposedRecorder.events, [])
    }

    func testDeliverOn_disposedInsideAValueStopsTheQueuedRest() {
        let scheduler = TestScheduler()
        let disposals = Counter()
        let events = recordDisposing(source([1, 2, 3], disposals: disposals).deliver(on: scheduler), at: 1)
        XCTAssertEqual(events, [])
        scheduler.run()
        XCTAssertEqual(disposals.value, 1)
        XCTAssertTrue(scheduler.isEmpty)
    }

    // MARK: every thread context

    /// The edge sequences above, each subscribed and driven from every thread context, with the
    /// disposal inside a callback.
    func testEdgeSequences_fromEveryThreadContext() {
        let shapes: [(String, @Sendable (Signal<Int, TestError>) -> Signal<Int, TestError>, [Event<Int, TestError>])] = [
            ("take(2)", { $0.take(2) }, [.next(1), .next(2), .completed]),
            ("take(while:)", { $0.take(while: { $0 < 3 }) }, [.next(1), .next(2), .completed]),
            ("tryMap", { $0.tryMap { value throws(TestError) -> Int in if value == 3 { throw .second }; return value } }, [.next(1), .next(2), .error(.second)]),
            ("materialize.dematerialize", { $0.materialize().dematerialize() }, [.next(1), .next(2), .next(3), .completed]),
            ("take(last:)", { $0.take(last: 2) }, [.next(2), .next(3), .completed]),
            ("aggregate", { $0.aggregate(0, +) }, [.next(6), .completed]),
            ("catch", { $0.concat(Signal<Int, TestError>.error(.first)).catch { _ in Signal<Int, TestError>.return(9) } }, [.next(1), .next(2), .next(3), .next(9), .completed]),
            ("take(untilReplacement:)", { $0.take(untilReplacement: Signal<Int, TestError>.never) }, [.next(1), .next(2), .next(3)]),
            ("skip(until:)", { $0.skip(until: Signal<Void, TestError>.empty) }, [.next(1), .next(2), .next(3), .completed]),
            ("replaceEmpty", { $0.filter { $0 > 3 }.replaceEmpty(with: 0) }, [.next(0), .completed]),
            ("mapError", { $0.mapError { $0 } }, [.next(1), .next(2), .next(3), .completed]),
            ("any", { $0.any { $0 == 2 }.map { $0 ? 1 : 0 } }, [.next(1), .completed]),
            ("throttle(immediate-free)", { $0.throttle(0, valuesPassing: { _ in false }) }, [.next(1), .next(2), .next(3), .completed]),
        ]
        for context in [MatrixContext.plainThread, .globalQueue, .queueScheduler, .mainThread] {
            for (name, apply, expected) in shapes {
                let disposals = Counter()
                let events = Recorder<Event<Int, TestError>>()
                let done = Flag()
                let block: @Sendable () -> Void = {
                    let signal = apply(Signal<Int, TestError> { subscriber in
                        for value in [1, 2, 3] { subscriber.sendNext(value) }
                        subscriber.sendCompleted()
                        return Disposable { disposals.increment() }
                    })
                    signal.subscribe(next: { events.record(.next($0)) }, error: { events.record(.error($0)) }, completed: { events.record(.completed); done.set() })
                    done.set()
                }
                hostileRun(context, block)
                // Off the main thread and outside a scheduler's block, the signal's work runs on a
                // background scheduler, after `subscribe` returned: wait for every expected event
                // (the source's disposal can come before the last of them, as `catch`'s does).
                XCTAssertTrue(eventually {
                    done.isSet && events.values.count >= expected.count && (disposals.value == 1 || expected.last == .next(3))
                }, "\(name) on \(context)")
                XCTAssertEqual(events.values, expected, "\(name) on \(context)")
                XCTAssertLessThanOrEqual(disposals.value, 1, "\(name) on \(context)")
            }
        }
    }

    private func hostileRun(_ context: MatrixContext, _ block: @escaping @Sendable () -> Void) {
        switch context {
        case .mainThread:
            block()
        case .plainThread:
            onAPlainThread(block)
        case .globalQueue:
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                block()
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        case .queueScheduler:
            let done = DispatchSemaphore(value: 0)
            Scheduler.background().schedule {
                block()
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        default:
            XCTFail("not run here")
        }
    }

    // MARK: never waits

    /// A value's callback on a plain thread waits for the main thread, which disposes: the
    /// disposal must not wait for the callback. Over the subscriber-based operators.
    func testDisposeFromTheMainThreadWhileACallbackWaitsForIt_neverDeadlocks() {
        let shapes: [(String, @Sendable (Signal<Int, TestError>) -> Signal<Int, TestError>)] = [
            ("take(last:)", { $0.take(last: 2) }),
            ("catch", { $0.catch { _ in Signal<Int, TestError>.never } }),
            ("take(untilReplacement:)", { $0.take(untilReplacement: Signal<Int, TestError>.never) }),
            ("skip(until:)", { $0.skip(until: Signal<Void, TestError>.empty) }),
            ("take(2)", { $0.take(2) }),
            ("throttle", { $0.throttle(0, valuesPassing: { _ in false }) }),
            ("materialize", { $0.materialize().dematerialize() }),
        ]
        for (name, apply) in shapes {
            withWatchdog(seconds: 20, name) {
                let (signal, input) = Signal<Int, TestError>.pipe()
                let box = DisposableBox()
                let inside = Flag()
                let released = DispatchSemaphore(value: 0)
                let after = Counter()
                let first = Flag()
                box.disposable = apply(signal).subscribe(next: { _ in
                    if !first.isSet {
                        first.set()
                        inside.set()
                        // Waits for the main thread, which disposes meanwhile.
                        _ = released.wait(timeout: .now() + 10)
                    } else {
                        after.increment()
                    }
                }, error: { _ in after.increment() }, completed: { after.increment() })
                let sender = startThread("sender") {
                    input.sendNext(1)
                    input.sendNext(2)
                    input.sendCompleted()
                }
                XCTAssertTrue(eventually { inside.isSet }, name)
                box.disposable?.dispose()
                released.signal()
                XCTAssertTrue(eventually { sender.isSet }, name)
                XCTAssertEqual(after.value, 0, "\(name): an event after dispose() returned")
            }
        }
    }

    // MARK: disposing inside the first value stops a repeat() of a synchronous source

    func testDisposingInsideTheFirstValue_stopsARepeatedSynchronousSource() {
        let shapes: [(String, @Sendable (Signal<Int, TestError>) -> Signal<Int, TestError>)] = [
            ("take(5)", { $0.take(5) }),
            ("take(while:)", { $0.take(while: { _ in true }) }),
            ("tryMap", { $0.tryMap { value throws(TestError) in value } }),
            ("materialize.dematerialize", { $0.materialize().dematerialize() }),
            ("catch replacement", { replacement in Signal<Int, TestError>.error(.first).catch { _ in replacement } }),
            ("take(untilReplacement:) replacement", { Signal<Int, TestError>.never.take(untilReplacement: $0) }),
            ("take(untilReplacement:) source", { $0.take(untilReplacement: Signal<Int, TestError>.never) }),
            ("skip(until:)", { $0.skip(until: Signal<Void, TestError>.empty) }),
            ("replaceEmpty", { $0.replaceEmpty(with: 0) }),
            ("mapError", { $0.mapError { $0 } }),
            ("throttle passing", { $0.throttle(1, on: TestScheduler(), valuesPassing: { _ in false }) }),
            ("rateLimit", { $0.rateLimit(1, on: TestScheduler()) }),
            ("debug", { $0.debug("hostile", to: { _ in }) }),
        ]
        for (name, apply) in shapes {
            let source = SelfLimitingSource(limit: 50)
            let values = Counter()
            apply(source.signal.repeat()).subscribeDisposingInFirstValue(counting: values)
            XCTAssertEqual(source.subscriptions.value, 1, name)
            XCTAssertEqual(values.value, 1, name)
        }
    }

    func testTakeOfARepeatedSynchronousSource_endsTheRepetition() {
        let source = SelfLimitingSource(limit: 50)
        XCTAssertEqual(source.signal.repeat().take(3).record().events, [.next(1), .next(1), .next(1), .completed])
        XCTAssertEqual(source.subscriptions.value, 3)
        let whileSource = SelfLimitingSource(limit: 50)
        let count = Counter()
        XCTAssertEqual(whileSource.signal.repeat().take(while: { _ in count.increment(); return count.value < 3 }).record().events, [.next(1), .next(1), .completed])
        XCTAssertEqual(whileSource.subscriptions.value, 3)
    }

    // MARK: races on real schedulers

    /// The held value of throttle and rateLimit races its timer on a background scheduler against
    /// the source's completion from a plain thread: each value at most once, the last value
    /// before completion, and nothing after it.
    func testThrottleAndRateLimit_timerRacingCompletion_lastValueOnceThenCompletion() {
        let scheduler = Scheduler.background(name: "hostile.timer")
        for round in 0..<100 {
            for (name, apply) in [
                ("throttle", { (signal: Signal<Int, TestError>) in signal.throttle(0.0005, on: scheduler) }),
                ("rateLimit", { (signal: Signal<Int, TestError>) in signal.rateLimit(0.0005, on: scheduler) }),
            ] as [(String, (Signal<Int, TestError>) -> Signal<Int, TestError>)] {
                let (signal, input) = Signal<Int, TestError>.pipe()
                let recorder = apply(signal).record()
                onAPlainThread {
                    for value in 1...20 { input.sendNext(value) }
                    input.sendCompleted()
                }
                XCTAssertTrue(eventually { recorder.events.last == .completed }, "\(name) round \(round)")
                let values = recorder.values
                XCTAssertEqual(values, values.sorted(), "\(name) round \(round)")
                XCTAssertEqual(Set(values).count, values.count, "\(name) round \(round): a value twice")
                XCTAssertEqual(values.last, 20, "\(name) round \(round): the last value was lost")
                XCTAssertEqual(recorder.events.filter { $0 == .completed }.count, 1, "\(name) round \(round)")
            }
        }
    }

    /// take(1) of a pipe sent to from several threads at once: one value, one completion.
    func testTake_concurrentSenders_oneValueOneCompletion() {
        for round in 0..<200 {
            let (signal, input) = Signal<Int, TestError>.pipe()
            let recorder = signal.take(1).record()
            let group = DispatchGroup()
            for thread in 0..<4 {
                DispatchQueue.global().async(group: group) {
                    for value in 0..<10 { input.sendNext(thread * 100 + value) }
                    input.sendCompleted()
                }
            }
            XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
            XCTAssertEqual(recorder.events.count, 2, "round \(round): \(recorder.events)")
            XCTAssertEqual(recorder.events.last, .completed, "round \(round)")
        }
    }
}
