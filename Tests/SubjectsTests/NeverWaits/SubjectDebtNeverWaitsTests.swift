import Disposables
import Foundation
import Signals
@testable import Subjects
import TestSupport
import XCTest

/// A subscribe and a deinit never wait, not even to settle what the callbacks they run owe a
/// subject's bound: the sends a synchronous signal makes inside `subscribe`, and the end a
/// `Lifetime.Token` or an `ObservableValue` sends from its deinit, settle no debt. (Found by a
/// hostile review: before `DeliveryContext.neverWaiting`, each of these waited for the subject's
/// deliverer, 20 runs in 20 in a release build, and the main-thread subscribe deadlocked with a
/// `DispatchQueue.main.sync` in the subject's callback.)
final class SubjectDebtNeverWaitsTests: LeakCheckedTestCase {
    /// A subject whose deliverer, on a thread of its own, blocks in its callback of -1 until
    /// `release` is set (as SubjectDebtTests' `BlockedSubject`).
    private final class Blocked: Sendable {
        let subject = Subject<Int, Never>()
        let received = Lock([Int]())
        let blocked = Flag()
        let release = Flag()
        private let subscription = DisposableBox()
        private(set) nonisolated(unsafe) var deliverer = Flag()

        init() {
            subscription.disposable = subject.subscribe(next: { [self] value in
                received.withLock { $0.append(value) }
                guard value == -1 else { return }
                blocked.set()
                _ = pollWithoutRunningTheMainQueue(timeout: 30) { release.isSet }
            })
            deliverer = startThread("the subject's deliverer, blocked in a callback") { [subject] in subject.sendNext(-1) }
        }

        var count: Int { received.withLock { $0.count } }

        func finish() {
            release.set()
            spinMainRunLoop(untilAllSet: deliverer)
            // Ends the subscription, which holds this object.
            subscription.disposable?.dispose()
        }
    }

    /// Releases `target` after `seconds` unless `returned` is set first; returns the flag set when
    /// it had to (the operation under test waited for the blocked deliverer).
    private func releaseAfterTimeout(_ target: Blocked, _ returned: Flag, seconds: TimeInterval = 2) -> (timedOut: Flag, done: Flag) {
        let timedOut = Flag()
        let done = startThread("releases the deliverer if the operation waits") {
            if !pollWithoutRunningTheMainQueue(timeout: seconds, { returned.isSet }) { timedOut.set() }
            target.release.set()
        }
        return (timedOut, done)
    }

    /// Runs `subscribe` on `context` while `target`'s deliverer is blocked, and asserts that it
    /// returned without waiting for that deliverer (a debt settled inside `subscribe`) and that
    /// the 100 values it forwarded reached `target`; returns what `subscribe` returned.
    private func assertSubscribeNeverWaits(
        _ target: Blocked, on context: MatrixContext, _ what: String,
        _ subscribe: @escaping @Sendable () -> Disposable?
    ) -> Disposable? {
        let returned = Flag()
        let (timedOut, releaser) = releaseAfterTimeout(target, returned)
        let subscription = DisposableBox()
        let pending = context.start {
            subscription.disposable = subscribe()
            returned.set()
        }
        XCTAssertTrue(pending.wait(), "\(context), \(what): subscribe never returned")
        XCTAssertFalse(timedOut.isSet, "\(context), \(what): subscribe waited for the busy subject's deliverer (a debt settled inside subscribe)")
        XCTAssertTrue(eventually { target.count == 101 }, "\(context), \(what)")
        spinMainRunLoop(untilAllSet: releaser)
        return subscription.disposable
    }

    /// Subscribing to a synchronous signal (a create block sending 100 values, as
    /// `Signal.from` and `startWith` do) whose callback forwards into a subject that
    /// another thread delivers returns without waiting for that deliverer, where a scheduler is
    /// current and the create block runs inline (the main thread, a QueueScheduler or
    /// TestScheduler block): each create-block send is an outermost send, but inside `subscribe`
    /// it settles no debt.
    func testSubscribeToASynchronousSignalForwardingIntoABusySubject_neverWaits() {
        let watchdog = Watchdog("a subscribe to a synchronous signal forwarding into a busy subject")
        defer { watchdog.cancel() }
        let cold = Signal<Int, Never> { subscriber in
            for value in 0..<100 { subscriber.sendNext(value) }
            subscriber.sendCompleted()
            return nil
        }
        let empty = Signal<Int, Never> { subscriber in
            subscriber.sendCompleted()
            return nil
        }
        // The chain's outermost subscription is a created signal's, an operator's, or a concat's,
        // which subscribes its signals one after another and sends its completion itself.
        let shapes: [(name: String, signal: Signal<Int, Never>, forwardsOnCompletion: Bool)] = [
            ("a created signal", cold, false),
            ("a map chain", cold.map { $0 }.filter { _ in true }, false),
            ("a concat", cold.concat(Signal<Int, Never>.empty), false),
            ("a concat forwarding from its completion", empty.concat(empty), true),
        ]
        for context in [MatrixContext.mainThread, .queueScheduler, .testScheduler] {
            for shape in shapes {
                let target = Blocked()
                XCTAssertTrue(eventually { target.blocked.isSet }, "\(context), \(shape.name)")
                let subject = target.subject
                let (signal, forwardsOnCompletion) = (shape.signal, shape.forwardsOnCompletion)
                let subscription = assertSubscribeNeverWaits(target, on: context, shape.name) {
                    signal.subscribe(
                        next: { subject.sendNext($0) },
                        completed: { if forwardsOnCompletion { for value in 0..<100 { subject.sendNext(value) } } }
                    )
                }
                subscription?.dispose()
                target.finish()
            }
        }
    }

    /// The constant signals (`Signal.return`, `empty`, `error`) send straight into the
    /// subscriber, with no delivery of their own: a callback that relays into a subject whose
    /// subscriber forwards 100 values into a busy subject makes the relay's send an outermost send
    /// inside `subscribe`, which settles no debt either. (Found by a hostile review of the first
    /// version of the subscribing mark, which these signals did not set: 15 of 15 such subscribes
    /// waited.)
    func testSubscribeToAConstantSignalRelayingIntoASubjectThatForwardsIntoABusyOne_neverWaits() {
        let watchdog = Watchdog("a subscribe to a constant signal relaying into a subject that forwards into a busy one")
        defer { watchdog.cancel() }
        let shapes: [(name: String, subscribe: @Sendable (Subject<Int, TestError>) -> Disposable)] = [
            ("Signal.return", { relay in Signal<Int, TestError>.return(1).subscribe(next: { relay.sendNext($0) }) }),
            ("Signal.return into the relay itself", { relay in Signal<Int, TestError>.return(1).subscribe(relay) }),
            ("Signal.empty", { relay in Signal<Int, TestError>.empty.subscribe(completed: { relay.sendNext(0) }) }),
            ("Signal.error", { relay in Signal<Int, TestError>.error(.first).subscribe(error: { _ in relay.sendNext(0) }) }),
        ]
        for context in [MatrixContext.mainThread, .queueScheduler, .testScheduler] {
            for shape in shapes {
                let target = Blocked()
                XCTAssertTrue(eventually { target.blocked.isSet }, "\(context), \(shape.name)")
                let busy = target.subject
                let relay = Subject<Int, TestError>()
                let relaying = relay.subscribe(next: { _ in for value in 0..<100 { busy.sendNext(value) } })
                let subscribe = shape.subscribe
                let subscription = assertSubscribeNeverWaits(target, on: context, shape.name) { subscribe(relay) }
                subscription?.dispose()
                relaying.dispose()
                target.finish()
            }
        }
    }

    /// As an app meets it: the subject's subscriber hops to the main queue with
    /// `DispatchQueue.main.sync` (a UI update), while the main thread subscribes to a synchronous
    /// signal that forwards into the subject. Were the main thread to wait inside `subscribe` for
    /// the deliverer, which waits for the main queue, they would deadlock. Here the hop is a
    /// main-queue block waited for with a limit, so the test fails instead of hanging.
    func testMainThreadSubscribeForwardingIntoASubjectWhoseCallbackHopsToMain_doesNotDeadlock() {
        let watchdog = Watchdog("main-thread subscribe vs a main-queue hop in the subject's callback")
        defer { watchdog.cancel() }
        precondition(Thread.isMainThread)
        let subject = Subject<Int, Never>()
        let forwarded = Lock(0)
        let blocked = Flag()
        let hopTimedOut = Flag()
        let subscription = subject.subscribe(next: { value in
            guard value == -1 else { return }
            blocked.set()
            _ = pollWithoutRunningTheMainQueue { forwarded.withLock { $0 } >= 70 }
            // DispatchQueue.main.sync {}, with a limit.
            let hopped = DispatchSemaphore(value: 0)
            DispatchQueue.main.async { hopped.signal() }
            if hopped.wait(timeout: .now() + 3) == .timedOut { hopTimedOut.set() }
        })
        let deliverer = startThread("the subject's deliverer") { subject.sendNext(-1) }
        XCTAssertTrue(eventually { blocked.isSet })
        let cold = Signal<Int, Never> { subscriber in
            for value in 0..<100 { subscriber.sendNext(value) }
            subscriber.sendCompleted()
            return nil
        }
        let forwarding = cold.subscribe(next: { value in
            forwarded.withLock { $0 += 1 }
            subject.sendNext(value)
        })
        spinMainRunLoop(untilAllSet: deliverer)
        XCTAssertFalse(hopTimedOut.isSet, "the main thread was blocked inside subscribe while the subject's callback waited for the main queue (a deadlock with main.sync)")
        forwarding.dispose()
        subscription.dispose()
    }

    /// A `Lifetime.Token` released from any context: its deinit sends `ended`'s completion as an
    /// outermost send, and a subscriber of `ended` forwards 100 values into a subject another
    /// thread delivers; the deinit returns without waiting for that deliverer.
    func testLifetimeTokenDeinit_endedForwardingIntoABusySubject_neverWaits() {
        let watchdog = Watchdog("a Lifetime.Token deinit whose ended subscriber forwards into a busy subject")
        defer { watchdog.cancel() }
        final class Holder: @unchecked Sendable { var token: Lifetime.Token? }
        for context in [MatrixContext.mainThread, .plainThread, .globalQueue, .queueScheduler, .task] {
            let target = Blocked()
            XCTAssertTrue(eventually { target.blocked.isSet }, "\(context)")
            let holder = Holder()
            let lifetime: Lifetime = {
                let (lifetime, token) = Lifetime.make()
                holder.token = token
                return lifetime
            }()
            let subject = target.subject
            let observing = lifetime.ended.subscribe(completed: { for value in 0..<100 { subject.sendNext(value) } })
            let returned = Flag()
            let (timedOut, releaser) = releaseAfterTimeout(target, returned)
            let pending = context.start {
                holder.token = nil
                returned.set()
            }
            XCTAssertTrue(pending.wait(), "\(context): the token's deinit never returned")
            XCTAssertFalse(timedOut.isSet, "\(context): Lifetime.Token's deinit waited for the subject's deliverer (a debt settled inside a deinit)")
            XCTAssertTrue(eventually { target.count == 101 }, "\(context)")
            spinMainRunLoop(untilAllSet: releaser)
            observing.dispose()
            target.finish()
        }
    }

    /// The same through `ObservableValue`'s deinit, which completes its channel, whose subscriber
    /// forwards into a busy subject on completion. Three rounds per context, failing if any
    /// waited.
    func testObservableValueDeinit_channelForwardingIntoABusySubject_neverWaits() {
        let watchdog = Watchdog("an ObservableValue deinit whose channel subscriber forwards into a busy subject")
        defer { watchdog.cancel() }
        final class Holder: @unchecked Sendable { var value: ObservableValue<Int>? }
        for context in [MatrixContext.mainThread, .plainThread, .globalQueue, .queueScheduler, .task] {
            var waited = 0
            for _ in 0..<3 {
                let target = Blocked()
                XCTAssertTrue(eventually { target.blocked.isSet }, "\(context)")
                let holder = Holder()
                let subject = target.subject
                let observing: Disposable = {
                    let value = ObservableValue(0)
                    holder.value = value
                    return value.channel.subscribe(completed: { for value in 0..<100 { subject.sendNext(value) } })
                }()
                let returned = Flag()
                let (timedOut, releaser) = releaseAfterTimeout(target, returned)
                let pending = context.start {
                    holder.value = nil
                    returned.set()
                }
                XCTAssertTrue(pending.wait(), "\(context): the deinit never returned")
                if timedOut.isSet { waited += 1 }
                spinMainRunLoop(untilAllSet: releaser)
                observing.dispose()
                target.finish()
            }
            XCTAssertEqual(waited, 0, "\(context): rounds in which ObservableValue's deinit waited for the subject's deliverer")
        }
    }
}
