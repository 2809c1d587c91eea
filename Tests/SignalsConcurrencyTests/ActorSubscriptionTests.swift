import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// An actor as a user writes it: its state touched from `subscribeOnActor`'s closures with no
/// `assumeIsolated`, and nothing `@unchecked`.
private actor Store {
    var items: [Int] = []
    var failure: TestError?
    var isDone = false
    var schedulers: [String] = []

    func record(_ signal: Signal<Int, TestError>) -> Disposable {
        signal.subscribeOnActor(
            self,
            next: { store, item in
                store.preconditionIsolated()
                store.items.append(item)
                store.schedulers.append(Scheduler.current.map { "\(type(of: $0))" } ?? "none")
            },
            error: { store, failure in store.failure = failure },
            completed: { store in store.isDone = true }
        )
    }

    func snapshot() -> (items: [Int], failure: TestError?, isDone: Bool) { (items, failure, isDone) }
}

final class ActorSubscriptionTests: LeakCheckedTestCase {
    /// Waits, in real time, until `condition` holds on the store; whether it does.
    private func wait(for store: Store, until condition: @escaping @Sendable ([Int], TestError?, Bool) -> Bool) async -> Bool {
        await eventually {
            let (items, failure, isDone) = await store.snapshot()
            return condition(items, failure, isDone)
        }
    }

    func testSubscribeOnActor_deliversOnTheActorInOrder() async {
        let store = Store()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let subscription = await store.record(signal)
        onAPlainThread {
            for value in 1...100 { input.sendNext(value) }
            input.sendCompleted()
        }
        let finished = await wait(for: store) { _, _, isDone in isDone }
        XCTAssertTrue(finished)
        let (items, failure, _) = await store.snapshot()
        XCTAssertEqual(items, Array(1...100))
        XCTAssertNil(failure)
        let schedulers = await store.schedulers
        XCTAssertEqual(Set(schedulers), ["ActorScheduler"])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testSubscribeOnActor_sendsTheError() async {
        let store = Store()
        let source = Signal<Int, TestError> { subscriber in
            subscriber.sendNext(1)
            subscriber.sendError(.second)
            return nil
        }
        _ = await store.record(source)
        let failed = await wait(for: store) { _, failure, _ in failure != nil }
        XCTAssertTrue(failed)
        let (items, failure, isDone) = await store.snapshot()
        XCTAssertEqual(items, [1])
        XCTAssertEqual(failure, .second)
        XCTAssertFalse(isDone)
    }

    /// Subscribed from the main thread, a plain thread, a global queue and a queue scheduler's
    /// block: the same values, on the actor, in order.
    func testSubscribeOnActor_fromEveryThreadContext() async {
        let contexts: [(String, @Sendable (@escaping @Sendable () -> Void) -> Void)] = [
            ("plain thread", { body in onAPlainThread(body) }),
            ("global queue", { body in DispatchQueue.global().async(execute: body) }),
            ("queue scheduler", { body in QueueScheduler(name: "actor subscription test").schedule(body) }),
            ("main queue", { body in DispatchQueue.main.async(execute: body) }),
        ]
        for (name, context) in contexts {
            let store = Store()
            let subscribed = DisposableBox()
            context { subscribed.disposable = store.recordFromOutside(Signal.sending([1, 2, 3])) }
            let finished = await wait(for: store) { _, _, isDone in isDone }
            XCTAssertTrue(finished, name)
            let items = await store.items
            XCTAssertEqual(items, [1, 2, 3], name)
        }
    }

    /// Disposed from outside while values are queued for the actor: nothing starts after
    /// `dispose()` returns.
    func testSubscribeOnActor_disposalCancelsWhatIsQueued() async {
        for _ in 0..<50 {
            let store = Store()
            let (signal, input) = Signal<Int, TestError>.pipe()
            let subscription = await store.record(signal)
            for value in 1...1_000 { input.sendNext(value) }
            subscription.dispose()
            let seen = await store.items.count
            // Let anything wrongly left in the actor's queue run.
            try? await Task.sleep(nanoseconds: 5_000_000)
            let later = await store.items.count
            XCTAssertEqual(seen, later)
            XCTAssertLessThanOrEqual(later, 1_000)
        }
    }

    /// The subscription lets go of the actor and the closures once it has ended.
    func testSubscribeOnActor_releasesTheActorAfterCompletion() async {
        weak var weakStore: Store?
        do {
            let store = Store()
            weakStore = store
            _ = await store.record(Signal.sending([1]))
            let finished = await wait(for: store) { _, _, isDone in isDone }
            XCTAssertTrue(finished)
        }
        let released = await eventually { weakStore == nil }
        XCTAssertTrue(released, "the subscription kept the actor")
    }
}

extension Store {
    /// Subscribes from outside the actor: the closures are still isolated to it.
    nonisolated func recordFromOutside(_ signal: Signal<Int, TestError>) -> Disposable {
        signal.subscribeOnActor(self, next: { store, item in store.items.append(item) }, completed: { store in store.isDone = true })
    }
}

private extension Signal where Value == Int, Failure == TestError {
    /// A signal that sends `values` and completes as it is subscribed.
    static func sending(_ values: [Int]) -> Signal {
        Signal { subscriber in
            for value in values { subscriber.sendNext(value) }
            subscriber.sendCompleted()
            return nil
        }
    }
}
