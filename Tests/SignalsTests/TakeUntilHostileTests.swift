import Disposables
import Foundation
import Schedulers
import Signals
import Synchronization
import TestSupport
import XCTest

/// `take(until:)` attacked where its trigger does not wait for the junction: triggers fired from
/// other threads, from inside callbacks, at subscription, racing the source and disposal.
final class TakeUntilHostileTests: LeakCheckedTestCase {
    // MARK: - Triggers at subscription

    func testTakeUntil_aTriggerSendingAtSubscription_completesWithoutSubscribingTheSource() {
        let source = DrivenSource<TestError>()
        let trigger = Signal<Void, Never> { subscriber in
            subscriber.sendNext(())
            return nil
        }
        let recorder = source.signal.take(until: trigger).record()
        source.input.sendNext(1)
        XCTAssertEqual(recorder.events, [.completed])
        XCTAssertEqual(source.subscriptions.value, 0)
    }

    func testTakeUntil_aTriggerCompletingAtSubscription_completesWithoutSubscribingTheSource() {
        let source = DrivenSource<TestError>()
        let trigger = Signal<Void, TestError> { subscriber in
            subscriber.sendCompleted()
            return nil
        }
        let recorder = source.signal.take(until: trigger).record()
        source.input.sendNext(1)
        XCTAssertEqual(recorder.events, [.completed])
        XCTAssertEqual(source.subscriptions.value, 0)
    }

    func testTakeUntil_aTriggerFailingAtSubscription_isIgnored() {
        let source = DrivenSource<TestError>()
        let trigger = Signal<Void, TestError> { subscriber in
            subscriber.sendError(.first)
            return nil
        }
        let recorder = source.signal.take(until: trigger).record()
        source.input.sendNext(1)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }

    func testTakeUntil_anEndedLifetime_completesWithoutSubscribingTheSource() {
        let source = DrivenSource<TestError>()
        let box = TokenBox()
        let lifetime = box.make()
        box.release()
        let recorder = source.signal.take(until: lifetime.ended).record()
        XCTAssertEqual(recorder.events, [.completed])
        XCTAssertEqual(source.subscriptions.value, 0)
    }

    /// Subscribed from inside another delivery on the same thread, the trigger that fires at once
    /// still completes before the source could be subscribed.
    func testTakeUntil_subscribedInsideACallbackWithATriggerThatFiresAtOnce_neverSubscribesTheSource() {
        let source = DrivenSource<TestError>()
        let (outer, outerInput) = Signal<Int, Never>.pipe()
        let events = Recorder<Event<Int, TestError>>()
        let trigger = Signal<Void, Never> { subscriber in
            subscriber.sendNext(())
            return nil
        }
        outer.subscribeNext { _ in
            _ = source.signal.take(until: trigger).subscribe(
                next: { events.record(.next($0)) },
                error: { events.record(.error($0)) },
                completed: { events.record(.completed) }
            )
            source.input.sendNext(7)
        }
        outerInput.sendNext(1)
        XCTAssertEqual(events.values, [.completed])
        XCTAssertEqual(source.subscriptions.value, 0)
    }

    // MARK: - Re-entrant triggers

    func testTakeUntil_aTriggerFiredInsideTheSourcesCallback_completesRightAfterItAndDropsTheRest() {
        let source = DrivenSource<TestError>()
        let (trigger, triggerInput) = Signal<Void, Never>.pipe()
        let log = Recorder<String>()
        _ = source.signal.take(until: trigger).subscribe(
            next: { value in
                log.record("next \(value) begins")
                if value == 2 {
                    triggerInput.sendNext(())
                    // Sent after the trigger fired: never delivered.
                    source.input.sendNext(3)
                    source.input.sendCompleted()
                }
                log.record("next \(value) ends")
            },
            error: { _ in log.record("error") },
            completed: { log.record("completed") }
        )
        source.input.sendNext(1)
        source.input.sendNext(2)
        source.input.sendNext(4)
        XCTAssertEqual(log.values, ["next 1 begins", "next 1 ends", "next 2 begins", "next 2 ends", "completed"])
        XCTAssertEqual(source.disposals.value, 1)
    }

    /// The source is itself a merging operator's output (its own junction), and the callback
    /// fires the trigger and then sends into the other input of the merge.
    func testTakeUntil_aTriggerFiredInsideTheCallbackOfAMergedSource_dropsWhatTheOtherInputSendsAfter() {
        let (first, firstInput) = Signal<Int, Never>.pipe()
        let (second, secondInput) = Signal<Int, Never>.pipe()
        let (trigger, triggerInput) = Signal<Void, Never>.pipe()
        let events = Recorder<Event<Int, Never>>()
        _ = Signal.merge([first, second]).take(until: trigger).subscribe(
            next: { value in
                events.record(.next(value))
                if value == 1 {
                    triggerInput.sendNext(())
                    secondInput.sendNext(2)
                    firstInput.sendNext(3)
                }
            },
            completed: { events.record(.completed) }
        )
        firstInput.sendNext(1)
        secondInput.sendNext(4)
        XCTAssertEqual(events.values, [.next(1), .completed])
    }

    /// The trigger derives from the source: the value that fires it is not delivered.
    func testTakeUntil_aTriggerDerivedFromTheSource_stopsBeforeTheValueThatFiresIt() {
        let (source, input) = Signal<Int, Never>.pipe()
        let recorder = source.take(until: source.filter { $0 == 3 }).record()
        for value in 1...5 { input.sendNext(value) }
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
    }

    /// The trigger is fired from inside the completion callback of another take(until:) on the
    /// same thread.
    func testTakeUntil_aTriggerFiredFromInsideAnotherResultsCompletion_endsBoth() {
        let (source, input) = Signal<Int, Never>.pipe()
        let (firstTrigger, firstTriggerInput) = Signal<Void, Never>.pipe()
        let (secondTrigger, secondTriggerInput) = Signal<Void, Never>.pipe()
        let log = Recorder<String>()
        _ = source.take(until: firstTrigger).subscribe(
            next: { log.record("a\($0)") },
            completed: {
                log.record("a completed")
                secondTriggerInput.sendNext(())
                input.sendNext(9)
            }
        )
        _ = source.take(until: secondTrigger).subscribe(
            next: { log.record("b\($0)") },
            completed: { log.record("b completed") }
        )
        input.sendNext(1)
        firstTriggerInput.sendCompleted()
        input.sendNext(2)
        XCTAssertEqual(log.values, ["a1", "b1", "a completed", "b completed"])
    }

    /// The result's own completion fires the trigger again: nothing more, no crash.
    func testTakeUntil_theTriggerSentAgainFromInsideTheCompletion_changesNothing() {
        let (source, input) = Signal<Int, Never>.pipe()
        let (trigger, triggerInput) = Signal<Void, Never>.pipe()
        let completions = Counter()
        _ = source.take(until: trigger).subscribe(
            next: { _ in },
            completed: {
                completions.increment()
                triggerInput.sendNext(())
                triggerInput.sendCompleted()
                input.sendNext(1)
                input.sendCompleted()
            }
        )
        triggerInput.sendNext(())
        XCTAssertEqual(completions.value, 1)
    }

    // MARK: - Triggers from other threads

    /// A value delivered on another thread whose callback waits on a semaphore the trigger's
    /// thread signals only after the trigger returned: the trigger returns at once, and a value
    /// the callback then sends re-entrantly (after the trigger, in happens-before terms) is
    /// dropped.
    func testTakeUntil_aValueSentFromTheCallbackAfterATriggerOnAnotherThread_isNotDelivered() {
        withWatchdog("take(until:): trigger fired on a thread a callback waits for") {
            let (source, input) = Signal<Int, Never>.pipe()
            let (trigger, triggerInput) = Signal<Void, Never>.pipe()
            let events = Recorder<Event<Int, Never>>()
            let inCallback = DispatchSemaphore(value: 0)
            let fired = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            _ = source.take(until: trigger).subscribe(
                next: { value in
                    events.record(.next(value))
                    if value == 1 {
                        inCallback.signal()
                        XCTAssertTrue(fired.waitForSignal(), "the trigger waited for the callback")
                        input.sendNext(2)
                    }
                },
                completed: { events.record(.completed) }
            )
            Thread.detachNewThread {
                input.sendNext(1)
                input.sendNext(3)
                done.signal()
            }
            XCTAssertTrue(inCallback.waitForSignal())
            triggerInput.sendNext(())
            fired.signal()
            XCTAssertTrue(done.waitForSignal())
            XCTAssertEqual(events.values, [.next(1), .completed])
        }
    }

    /// `take(until: lifetime.ended)` where the callback waits for the thread that releases the
    /// lifetime's token: each of a plain thread, a global queue and a scheduler block.
    func testTakeUntil_aLifetimeEndedOnAnotherThreadWhileTheCallbackWaitsForIt_neverDeadlocks() {
        let releasers: [(String, @Sendable (@escaping @Sendable () -> Void) -> Void)] = [
            ("plain thread", { work in Thread.detachNewThread { work() } }),
            ("global queue", { work in DispatchQueue.global().async { work() } }),
            ("scheduler block", { work in _ = QueueScheduler(name: "take-until-hostile").schedule { work() } }),
        ]
        for (name, release) in releasers {
            withWatchdog("take(until: lifetime.ended): token released on a \(name) a callback waits for") {
                let box = TokenBox()
                let lifetime = box.make()
                let received = eventsWhenEndedFromACallbackWaitingForIt(
                    { $0.take(until: lifetime.ended) },
                    end: { box.release() },
                    elsewhere: release,
                    "\(name): the release waited for the callback"
                )
                XCTAssertEqual(received.events, [.next(1), .completed], name)
            }
        }
    }

    /// The trigger is fired on another thread from inside a callback of a different signal there
    /// (that thread is delivering), while this thread delivers a value of the source and its
    /// callback waits for that thread.
    func testTakeUntil_aTriggerFiredInsideAnotherDeliveryWhileTheSourceDelivers_neverDeadlocks() {
        withWatchdog("take(until:): trigger fired inside another delivery a callback waits for") {
            let (trigger, triggerInput) = Signal<Void, Never>.pipe()
            let (other, otherInput) = Signal<Int, Never>.pipe()
            other.subscribeNext { _ in triggerInput.sendNext(()) }
            let received = eventsWhenEndedFromACallbackWaitingForIt(
                { $0.take(until: trigger) },
                end: { otherInput.sendNext(0) },
                elsewhere: { work in DispatchQueue.global().async { work() } },
                "the trigger waited for the callback"
            )
            XCTAssertEqual(received.events, [.next(1), .completed])
        }
    }

    /// A sender and a trigger race: the result is a prefix of what was sent, then one completion;
    /// no value sent after the trigger returned (the sender checks a flag the trigger's thread sets
    /// after it) is delivered.
    func testTakeUntil_racingSendsAndTrigger_deliverAPrefixThenOneCompletionAndNothingSentAfter() {
        let rounds = BuildKind.raceRounds(optimized: 400, debug: 100, sanitized: 20)
        withWatchdog("take(until:): sends racing the trigger") {
            for _ in 0..<rounds {
                let (source, input) = Signal<Int, Never>.pipe()
                let (trigger, triggerInput) = Signal<Void, Never>.pipe()
                let events = Recorder<Event<Int, Never>>()
                let fired = Flag()
                let firstAfter = Atomic<Int>(Int.max)
                _ = source.take(until: trigger).subscribe(
                    next: { events.record(.next($0)) },
                    completed: { events.record(.completed) }
                )
                let group = DispatchGroup()
                DispatchQueue.global().async(group: group) {
                    for value in 0..<200 {
                        if fired.isSet {
                            _ = firstAfter.compareExchange(expected: Int.max, desired: value, ordering: .relaxed)
                        }
                        input.sendNext(value)
                    }
                }
                DispatchQueue.global().async(group: group) {
                    triggerInput.sendNext(())
                    fired.set()
                }
                XCTAssertTrue(group.waitForAll())
                let recorded = events.values
                XCTAssertEqual(recorded.last, .completed)
                XCTAssertEqual(recorded.filter { $0 == .completed }.count, 1)
                let values = recorded.compactMap { event -> Int? in
                    if case let .next(value) = event { return value }
                    return nil
                }
                XCTAssertEqual(values, Array(0..<values.count))
                let limit = firstAfter.load(ordering: .relaxed)
                XCTAssertTrue(values.allSatisfy { $0 < limit }, "delivered \(values.last ?? -1) sent after the trigger (\(limit))")
            }
        }
    }

    /// Two triggers (a value and a completion) from two threads, racing the source's completion:
    /// exactly one completion.
    func testTakeUntil_triggersRacingTheSourcesCompletion_completeExactlyOnce() {
        let rounds = BuildKind.raceRounds(optimized: 400, debug: 100, sanitized: 20)
        withWatchdog("take(until:): triggers racing the source's completion") {
            for _ in 0..<rounds {
                let (source, input) = Signal<Int, Never>.pipe()
                let (trigger, triggerInput) = Signal<Void, Never>.pipe()
                let completions = Counter()
                let values = Counter()
                _ = source.take(until: trigger).subscribe(
                    next: { _ in values.increment() },
                    completed: { completions.increment() }
                )
                let group = DispatchGroup()
                DispatchQueue.global().async(group: group) { triggerInput.sendNext(()) }
                DispatchQueue.global().async(group: group) { triggerInput.sendCompleted() }
                DispatchQueue.global().async(group: group) {
                    input.sendNext(1)
                    input.sendCompleted()
                }
                XCTAssertTrue(group.waitForAll())
                XCTAssertEqual(completions.value, 1)
                XCTAssertLessThanOrEqual(values.value, 1)
            }
        }
    }

    /// A thread inside another delivery sends the source a value and then fires the trigger,
    /// while this thread delivers a value of the source: its send is put off (the source is busy)
    /// and the trigger must not overtake it. The value it sent first is delivered, then the
    /// completion, as when that thread sends and fires outside any delivery.
    func testTakeUntil_aValueSentBeforeTheTriggerByAThreadInsideAnotherDelivery_isDeliveredBeforeTheCompletion() {
        let (trigger, triggerInput) = Signal<Void, Never>.pipe()
        assertAValuePutOffBeforeTheEnd_isDeliveredFirst(
            "take(until:): a send then the trigger, put off by a thread inside a delivery",
            ending: { $0.take(until: trigger) },
            end: { triggerInput.sendNext(()) }
        )
    }

    /// The same shape with `take(during:)`: the lifetime's token is released by a thread inside
    /// another delivery right after it sent the source a value that was put off.
    func testTakeDuring_aValueSentBeforeTheLifetimeEndsByAThreadInsideAnotherDelivery_isDeliveredBeforeTheCompletion() {
        let box = TokenBox()
        let lifetime = box.make()
        assertAValuePutOffBeforeTheEnd_isDeliveredFirst(
            "take(during:): a send then the end, put off by a thread inside a delivery",
            ending: { $0.take(during: lifetime) },
            end: { box.release() }
        )
    }

    /// A thread inside the delivery of another signal sends the source 2 (put off: another thread
    /// is delivering 1, and its callback waits) and then calls `end`: 2 still comes before the
    /// completion.
    private func assertAValuePutOffBeforeTheEnd_isDeliveredFirst(
        _ name: String,
        ending: (Signal<Int, Never>) -> Signal<Int, Never>,
        end: @escaping @Sendable () -> Void
    ) {
        withWatchdog(name) {
            let (source, input) = Signal<Int, Never>.pipe()
            let (other, otherInput) = Signal<Void, Never>.pipe()
            let events = Recorder<Event<Int, Never>>()
            let inCallback = DispatchSemaphore(value: 0)
            let sentBoth = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            other.subscribeNext { _ in
                // Inside the delivery of `other`: the source is busy, so this send is put off.
                input.sendNext(2)
                end()
                sentBoth.signal()
            }
            _ = ending(source).subscribe(
                next: { value in
                    events.record(.next(value))
                    if value == 1 {
                        inCallback.signal()
                        XCTAssertTrue(sentBoth.waitForSignal())
                    }
                },
                completed: { events.record(.completed) }
            )
            Thread.detachNewThread {
                input.sendNext(1)
                done.signal()
            }
            XCTAssertTrue(inCallback.waitForSignal())
            otherInput.sendNext(())
            XCTAssertTrue(done.waitForSignal())
            XCTAssertTrue(eventually { events.values.last == .completed })
            XCTAssertEqual(events.values, [.next(1), .next(2), .completed])
        }
    }

    /// A callback on a global queue does `DispatchQueue.main.sync` while the main thread fires
    /// the trigger: the trigger returns at once, so the main thread goes on to run the block.
    func testTakeUntil_aTriggerFiredOnTheMainThreadWhileACallbackWaitsForTheMainQueue_neverDeadlocks() {
        withWatchdog("take(until:): trigger on main while a callback does main.sync") {
            let (source, input) = Signal<Int, Never>.pipe()
            let (trigger, triggerInput) = Signal<Void, Never>.pipe()
            let events = Recorder<Event<Int, Never>>()
            let inCallback = Flag()
            let done = Flag()
            _ = source.take(until: trigger).subscribe(
                next: { value in
                    inCallback.set()
                    DispatchQueue.main.sync { events.record(.next(value)) }
                },
                completed: { events.record(.completed) }
            )
            DispatchQueue.global().async {
                input.sendNext(1)
                input.sendNext(2)
                done.set()
            }
            XCTAssertTrue(pollWithoutRunningTheMainQueue { inCallback.isSet })
            triggerInput.sendNext(())
            spinMainRunLoop(untilAllSet: done)
            XCTAssertEqual(events.values, [.next(1), .completed])
        }
    }

    /// A trigger whose producer fires it from another thread at once, racing the subscription of
    /// the source: one completion, no value, and every subscription of the source is disposed.
    func testTakeUntil_aTriggerFiringFromAnotherThreadDuringSubscription_endsCleanly() {
        let rounds = BuildKind.raceRounds(optimized: 400, debug: 100, sanitized: 20)
        for round in 0..<rounds {
            let source = DrivenSource<TestError>()
            let fired = DispatchSemaphore(value: 0)
            let trigger = Signal<Void, Never> { subscriber in
                DispatchQueue.global().async {
                    subscriber.sendNext(())
                    fired.signal()
                }
                return nil
            }
            let events = Recorder<Event<Int, TestError>>()
            _ = source.signal.take(until: trigger).subscribe(
                next: { events.record(.next($0)) },
                error: { events.record(.error($0)) },
                completed: { events.record(.completed) }
            )
            XCTAssertTrue(fired.waitForSignal())
            source.input.sendNext(1)
            XCTAssertEqual(events.values, [.completed], "round \(round)")
            XCTAssertEqual(source.subscriptions.value, source.disposals.value, "round \(round)")
        }
    }

    /// Many subscriptions taken until one long-lived lifetime, each ended by its source: the
    /// lifetime lets go of them (their callbacks and subscriptions) while it lives on.
    func testTakeUntil_subscriptionsEndedByTheirSources_areLetGoOfByALifetimeThatLivesOn() {
        let box = TokenBox()
        let lifetime = box.make()
        let before = SignalDiagnostics.liveSubscriptionCount
        let token = LifetimeToken()
        let weakToken = WeakReference(token)
        for _ in 0..<100 {
            let (source, input) = Signal<Int, Never>.pipe()
            _ = source.take(until: lifetime.ended).subscribe(next: { _ in _ = token }, completed: { _ = token })
            input.sendNext(1)
            input.sendCompleted()
        }
        _ = consume token
        XCTAssertFalse(weakToken.isAlive, "the lifetime keeps the callbacks of ended subscriptions")
        XCTAssertEqual(SignalDiagnostics.liveSubscriptionCount, before)
        box.release()
    }

    // MARK: - Disposal

    func testTakeUntil_disposedFromInsideACallback_disposesBothAndTheTriggerThenDoesNothing() {
        let triggerDisposals = Counter()
        let source = DrivenSource<TestError>()
        let (triggerPipe, triggerInput) = Signal<Void, Never>.pipe()
        let trigger = Signal<Void, Never> { subscriber in
            let inner = triggerPipe.subscribe(subscriber)
            return Disposable {
                triggerDisposals.increment()
                inner.dispose()
            }
        }
        let log = Recorder<String>()
        let handle = DisposableBox()
        handle.disposable = source.signal.take(until: trigger).subscribe(
            next: { value in
                log.record("next \(value)")
                handle.disposable?.dispose()
                triggerInput.sendNext(())
            },
            completed: { log.record("completed") }
        )
        source.input.sendNext(1)
        triggerInput.sendNext(())
        source.input.sendNext(2)
        XCTAssertEqual(log.values, ["next 1"])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(triggerDisposals.value, 1)
    }

    /// The trigger's callback path disposes the result while the source delivers on another
    /// thread whose callback waits for the trigger's thread: no completion after the disposal
    /// returned, no deadlock.
    func testTakeUntil_disposedRightAfterATriggerFiredWhileAnotherThreadDelivers_sendsNoCompletionAfterTheDisposal() {
        withWatchdog("take(until:): trigger then dispose while a callback waits") {
            let (source, input) = Signal<Int, Never>.pipe()
            let (trigger, triggerInput) = Signal<Void, Never>.pipe()
            let log = Recorder<String>()
            let disposed = Flag()
            let inCallback = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let disposable = source.take(until: trigger).subscribe(
                next: { value in
                    log.record("next \(value)")
                    inCallback.signal()
                    XCTAssertTrue(release.waitForSignal())
                },
                completed: { log.record(disposed.isSet ? "completed after dispose" : "completed") }
            )
            Thread.detachNewThread {
                input.sendNext(1)
                done.signal()
            }
            XCTAssertTrue(inCallback.waitForSignal())
            triggerInput.sendNext(())
            disposable.dispose()
            disposed.set()
            release.signal()
            XCTAssertTrue(done.waitForSignal())
            XCTAssertFalse(log.values.contains("completed after dispose"), "\(log.values)")
            XCTAssertEqual(log.values.first, "next 1")
        }
    }

    func testTakeUntil_disposalRacingTheTrigger_sendsAtMostOneCompletion() {
        let rounds = BuildKind.raceRounds(optimized: 400, debug: 100, sanitized: 20)
        for _ in 0..<rounds {
            let (source, input) = Signal<Int, Never>.pipe()
            let (trigger, triggerInput) = Signal<Void, Never>.pipe()
            let completions = Counter()
            let disposable = source.take(until: trigger).subscribe(next: { _ in }, completed: { completions.increment() })
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { triggerInput.sendNext(()) }
            DispatchQueue.global().async(group: group) { disposable.dispose() }
            DispatchQueue.global().async(group: group) { input.sendNext(1) }
            XCTAssertTrue(group.waitForAll())
            XCTAssertLessThanOrEqual(completions.value, 1)
        }
    }

    // MARK: - Memory

    func testTakeUntil_onceTheTriggerFired_letsGoOfTheCallbacksAndBothSubscriptions() {
        let (source, input) = Signal<Int, Never>.pipe()
        let (trigger, triggerInput) = Signal<Void, Never>.pipe()
        let token = LifetimeToken()
        let weakToken = WeakReference(token)
        let disposable = source.take(until: trigger).subscribe(
            next: { _ in _ = token },
            completed: { _ = token }
        )
        withExtendedLifetime(disposable) {}
        _ = consume token
        input.sendNext(1)
        XCTAssertTrue(weakToken.isAlive)
        triggerInput.sendNext(())
        XCTAssertFalse(weakToken.isAlive)
        // The trigger's and the source's pipes hold nothing more: they can be let go of.
        withExtendedLifetime((input, triggerInput, disposable)) {}
    }

    func testTakeUntil_aTriggerHandedToTheDeliveringThread_letsGoOfEverythingOnceDone() {
        withWatchdog("take(until:): memory after a handed-over end") {
            let (source, input) = Signal<Int, Never>.pipe()
            let (trigger, triggerInput) = Signal<Void, Never>.pipe()
            let token = LifetimeToken()
            let weakToken = WeakReference(token)
            let inCallback = DispatchSemaphore(value: 0)
            let fired = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let disposable = source.take(until: trigger).subscribe(
                next: { _ in
                    _ = token
                    inCallback.signal()
                    XCTAssertTrue(fired.waitForSignal())
                },
                completed: { _ = token }
            )
            _ = consume token
            Thread.detachNewThread {
                input.sendNext(1)
                done.signal()
            }
            XCTAssertTrue(inCallback.waitForSignal())
            triggerInput.sendNext(())
            fired.signal()
            XCTAssertTrue(done.waitForSignal())
            XCTAssertTrue(eventually { !weakToken.isAlive }, "the callbacks outlived the handed-over end")
            withExtendedLifetime((input, triggerInput, disposable)) {}
        }
    }

    /// Neither input nor the disposable kept: the subscription goes with its sources.
    func testTakeUntil_letGoOfWithBothInputs_letsGoOfTheCallbacks() {
        var weakToken: WeakReference<LifetimeToken>?
        do {
            let (source, input) = Signal<Int, Never>.pipe()
            let (trigger, triggerInput) = Signal<Void, Never>.pipe()
            let token = LifetimeToken()
            weakToken = WeakReference(token)
            _ = source.take(until: trigger).subscribe(next: { _ in _ = token })
            input.sendNext(1)
            withExtendedLifetime((input, triggerInput)) {}
        }
        XCTAssertEqual(weakToken?.isAlive, false)
    }

    /// The trigger's input let go of (the trigger can never fire) while the source goes on: the
    /// subscription lives while the source can send, and goes once it cannot.
    func testTakeUntil_theTriggersInputLetGoOf_keepsTheSubscriptionWhileTheSourceLives() {
        let (source, input) = Signal<Int, Never>.pipe()
        var triggerInput: Subscriber<Void, Never>?
        let trigger: Signal<Void, Never>
        (trigger, triggerInput) = Signal<Void, Never>.pipe()
        let recorder = source.take(until: trigger).record()
        triggerInput = nil
        XCTAssertNil(triggerInput)
        input.sendNext(1)
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }
}

/// Holds a lifetime's token, for another thread to release it.
private final class TokenBox: Sendable {
    private let token = Lock<Lifetime.Token?>(nil)

    /// A new lifetime, whose token only this box holds.
    func make() -> Lifetime {
        let made = Lifetime.make()
        token.withLock { $0 = made.token }
        return made.lifetime
    }

    /// Releases the token: the lifetime ends on this thread.
    func release() {
        let taken = token.withLock { $0.take() }
        _ = consume taken
    }
}
