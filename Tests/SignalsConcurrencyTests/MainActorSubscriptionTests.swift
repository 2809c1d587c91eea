import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// What a user writes in Swift 6 mode: no annotation on the closure, no `assumeIsolated`, no
/// `@unchecked Sendable`. That this file compiles without warnings is part of the test.
@MainActor final class ViewModel {
    var title = ""
    var titles: [String] = []
    var failure: TestError?
    var isDone = false

    func bind(_ s: Signal<String, Never>) -> Disposable {
        s.subscribeNextOnMainActor { [weak self] in self?.title = $0 }
    }

    func record(_ s: Signal<String, TestError>) -> Disposable {
        s.subscribeOnMainActor(
            next: { [weak self] in
                MainActor.preconditionIsolated()
                self?.titles.append($0)
            },
            error: { [weak self] in self?.failure = $0 },
            completed: { [weak self] in self?.isDone = true }
        )
    }

    func bindTitle(_ s: Signal<String, Never>) -> Disposable {
        s.assignOnMainActor(to: \.title, on: self)
    }
}

final class MainActorSubscriptionTests: LeakCheckedTestCase {
    /// Reads main-actor state from a test method, which XCTest runs on the main thread.
    private func onMain<T: Sendable>(_ body: @MainActor () -> T) -> T {
        MainActor.assumeIsolated(body)
    }

    func testSubscribeOnMainActor_deliversOnTheMainThreadInOrder() {
        let (signal, input) = Signal<String, TestError>.pipe()
        let model = onMain { ViewModel() }
        let threads = Recorder<Bool>()
        let subscription = onMain { model.record(signal.doNext { _ in threads.record(Thread.isMainThread) }) }
        onAPlainThread {
            for title in ["a", "b", "c"] { input.sendNext(title) }
            input.sendCompleted()
        }
        XCTAssertTrue(spinMainRunLoop { onMain { model.isDone } })
        XCTAssertEqual(onMain { model.titles }, ["a", "b", "c"])
        // The source sent on the plain thread; only the callbacks moved.
        XCTAssertEqual(threads.values, [false, false, false])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testSubscribeOnMainActor_onTheMainThreadDeliversAtOnce() {
        let model = onMain { ViewModel() }
        let subscription = onMain { model.record(sending(["x", "y"])) }
        // Sent on the main thread with nothing waiting: delivered inline, on the main actor.
        XCTAssertEqual(onMain { model.titles }, ["x", "y"])
        XCTAssertTrue(onMain { model.isDone })
        XCTAssertTrue(subscription.isDisposed)
    }

    func testSubscribeOnMainActor_sendsTheError() {
        let model = onMain { ViewModel() }
        let source = Signal<String, TestError> { subscriber in
            subscriber.sendNext("a")
            subscriber.sendError(.second)
            return nil
        }
        let subscription = DisposableBox()
        onAPlainThread { subscription.disposable = onMainActorSubscription(model, source) }
        XCTAssertTrue(spinMainRunLoop { onMain { model.failure } != nil })
        XCTAssertEqual(onMain { model.titles }, ["a"])
        XCTAssertEqual(onMain { model.failure }, .second)
        XCTAssertFalse(onMain { model.isDone })
        XCTAssertEqual(subscription.disposable?.isDisposed, true)
    }

    func testSubscribeOnMainActor_subscribesFromEveryContext() {
        let contexts: [(String, (@escaping @Sendable () -> Void) -> Void)] = [
            ("plain thread", { onAPlainThread($0) }),
            ("global queue", { block in DispatchQueue.global().sync(execute: block) }),
            ("QueueScheduler block", { block in
                let done = DispatchSemaphore(value: 0)
                QueueScheduler(name: "subscriber").schedule { block(); done.signal() }
                XCTAssertTrue(done.waitForSignal())
            }),
            ("main thread", { $0() }),
        ]
        for (name, run) in contexts {
            let source = NeverPipe<String>()
            let model = onMain { ViewModel() }
            let box = DisposableBox()
            run { box.disposable = source.signal.subscribeNextOnMainActor { [weak model] in model?.titles.append($0) } }
            // Made as `subscribe` makes it: at once where a scheduler is current (the main thread,
            // a scheduler's block), else on the subscription scheduler.
            XCTAssertTrue(pollWithoutRunningTheMainQueue { source.subscriptions.value == 1 }, name)
            onAPlainThread { for title in ["1", "2", "3"] { source.input.sendNext(title) } }
            XCTAssertTrue(spinMainRunLoop { onMain { model.titles.count } == 3 }, name)
            XCTAssertEqual(onMain { model.titles }, ["1", "2", "3"], name)
            box.disposable?.dispose()
            XCTAssertEqual(source.disposals.value, 1, name)
        }
    }

    func testSubscribeOnMainActor_disposalDropsWhatWaits() {
        let source = NeverPipe<String>()
        let model = onMain { ViewModel() }
        let subscription = onMain { model.bind(source.signal) }
        onAPlainThread { source.input.sendNext("late") }
        subscription.dispose()
        drainMainQueue()
        XCTAssertEqual(onMain { model.title }, "")
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testSubscribeNextOnMainActor_userViewModelBinds() {
        let source = NeverPipe<String>()
        var model: ViewModel? = onMain { ViewModel() }
        let weakModel = WeakReference(model!)
        let subscription = onMain { model!.bind(source.signal) }
        source.input.sendNext("title")
        XCTAssertEqual(onMain { model?.title }, "title")
        // The subscription holds the model weakly.
        model = nil
        XCTAssertFalse(weakModel.isAlive)
        source.input.sendNext("nobody")
        subscription.dispose()
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testSubscribeOnMainActor_releasesItsClosuresWhenDone() {
        let (subscription, token) = trackingLifetime { token in
            sending([1], failing: Never.self).subscribeOnMainActor(next: { _ in _ = token }, completed: { _ = token })
        }
        XCTAssertTrue(subscription.isDisposed)
        XCTAssertFalse(token.isAlive)
    }
}

/// Subscribes `model` from wherever it is called; a nonisolated function, as code on a plain
/// thread would be.
private func onMainActorSubscription(_ model: ViewModel, _ source: Signal<String, TestError>) -> Disposable {
    source.subscribeOnMainActor(
        next: { [weak model] in model?.titles.append($0) },
        error: { [weak model] in model?.failure = $0 },
        completed: { [weak model] in model?.isDone = true }
    )
}

/// A signal that sends `values` synchronously, then completes.
func sending<Value: Sendable, Failure: Error>(_ values: [Value], failing _: Failure.Type = TestError.self) -> Signal<Value, Failure> {
    Signal { subscriber in
        for value in values { subscriber.sendNext(value) }
        subscriber.sendCompleted()
        return nil
    }
}

/// A hot source that cannot fail and counts its subscriptions and disposals.
final class NeverPipe<Value: Sendable>: Sendable {
    let subscriptions = Counter()
    let disposals = Counter()
    let signal: Signal<Value, Never>
    let input: Subscriber<Value, Never>

    init() {
        let (pipe, input) = Signal<Value, Never>.pipe()
        let subscriptions = subscriptions
        let disposals = disposals
        self.input = input
        signal = Signal { subscriber in
            let inner = pipe.subscribe(next: { subscriber.sendNext($0) }, completed: { subscriber.sendCompleted() })
            // Counted once the pipe has the subscription, so that what is sent after it arrives.
            subscriptions.increment()
            return Disposable {
                disposals.increment()
                inner.dispose()
            }
        }
    }
}
