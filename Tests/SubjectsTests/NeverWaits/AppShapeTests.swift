import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

/// Shape 2 of "disposal never waits": app shapes, with no test semaphore in the subscribers. The
/// blocking comes from the app's own `DispatchQueue.main.sync {}` or `stateQueue.sync {}`; a flag
/// only makes sure the two threads overlap.
final class AppShapeTests: LeakCheckedTestCase {
    /// A view model: its subscriptions are in a bag it disposes as it goes.
    private final class ViewModel: Sendable {
        let bag = CompoundDisposable()

        deinit {
            bag.dispose()
        }
    }

    /// Shape 2: a worker thread sends into a subject whose subscriber does
    /// `DispatchQueue.main.sync {}`, while the main thread releases a view model whose
    /// `CompoundDisposable` holds another subscription to that subject. The release returns; the
    /// view model's subscription gets nothing after it and is freed.
    func testViewModelReleasedOnMainWhileAWorkerDeliversToASubscriberSyncingOntoMain_neverWaits() {
        let shape = "a view model released on the main thread while a worker delivers to a subscriber inside DispatchQueue.main.sync"
        let watchdog = Watchdog(shape)
        defer { watchdog.cancel() }
        let subject = Subject<Int, Never>()
        let uiEntered = Flag()
        let ui = subject.subscribe(next: { _ in
            uiEntered.set()
            DispatchQueue.main.sync {}
        })
        let released = Flag()
        let lateCallbacks = Counter()
        var viewModel: ViewModel? = ViewModel()
        let viewModelReference = WeakReference(viewModel!)
        let (_, token) = trackingLifetime { [viewModel] token in
            viewModel!.bag.add(subject.subscribe(next: { _ in
                if released.isSet { lateCallbacks.increment() }
                withExtendedLifetime(token) {}
            }))
        }
        let worker = startThread("worker: sends") {
            subject.sendNext(1)
            subject.sendNext(2)
        }
        XCTAssertTrue(pollWithoutRunningTheMainQueue { uiEntered.isSet }, "\(shape): the worker never reached the subscriber")
        viewModel = nil
        released.set()
        XCTAssertFalse(viewModelReference.isAlive, "\(shape): the view model outlived its last reference")
        spinMainRunLoop(untilAllSet: worker)
        XCTAssertEqual(lateCallbacks.value, 0, "\(shape): the view model's subscription got a value after its release returned")
        XCTAssertTrue(eventually { !token.isAlive }, "\(shape): the view model's subscription's closure is still alive")
        ui.dispose()
    }

    /// Shape 2: a main-thread loop that subscribes to a subject and disposes again, 500 times,
    /// while a worker floods it and a subscriber of it does `DispatchQueue.main.sync {}` on every
    /// value (the main thread lets those through now and then). Every cycle completes, the syncing
    /// subscriber never runs on the main thread, and every disposed subscription is freed.
    func testMainThreadLoopSubscribingAndDisposingWhileAWorkerFloodsASubscriberSyncingOntoMain_neverWaits() {
        let shape = "a main-thread subscribe and dispose loop while a worker floods a subject whose subscriber syncs onto main"
        let watchdog = Watchdog(shape)
        defer { watchdog.cancel() }
        let subject = Subject<Int, Never>()
        let uiOnMain = Counter()
        let uiReceived = Counter()
        let ui = subject.subscribe(next: { _ in
            uiReceived.increment()
            // On the main thread, main.sync would trap; count it instead (it must not happen).
            if Thread.isMainThread { return uiOnMain.increment() }
            DispatchQueue.main.sync {}
        })
        let stop = Flag()
        let worker = startThread("worker: floods") {
            var value = 0
            while !stop.isSet {
                subject.sendNext(value)
                value &+= 1
            }
        }
        XCTAssertTrue(pollWithoutRunningTheMainQueue { uiReceived.value > 0 }, "\(shape): the worker never reached the subscriber")
        let alive = Counter()
        for cycle in 0..<500 {
            let token = CountedToken(alive)
            let subscription = subject.subscribe(next: { _ in withExtendedLifetime(token) {} })
            if cycle.isMultiple(of: 2) {
                // Lets the worker's main.sync through, now and then.
                _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
            }
            subscription.dispose()
        }
        stop.set()
        spinMainRunLoop(untilAllSet: worker)
        XCTAssertEqual(uiOnMain.value, 0, "\(shape): the syncing subscriber ran on the main thread, which only subscribed and disposed")
        XCTAssertTrue(eventually { alive.value == 0 }, "\(shape): \(alive.value) disposed subscriptions are still alive")
        ui.dispose()
    }

    /// Shape 2: an `ObservableValue` set on the main thread while a subscriber of it does
    /// `stateQueue.sync {}`, and work on `stateQueue` tears down a `bind(to:)` of that cell. The
    /// teardown returns, so the sync does; the bound cell is not set after the teardown returned.
    func testObservableValueSetOnMainWhileASubscriberSyncsOntoAQueueThatTearsDownABinding_neverWaits() {
        let shape = "an ObservableValue set on main, a subscriber inside stateQueue.sync, a bind(to:) torn down on stateQueue"
        let watchdog = Watchdog(shape)
        defer { watchdog.cancel() }
        let stateQueue = DispatchQueue(label: "state queue")
        let cell = ObservableValue(0)
        let mirror = ObservableValue(0)
        let subscriberEntered = Flag()
        let sawChange = Counter()
        let subscriber = cell.signal.subscribe(next: { value in
            guard value != 0 else { return }
            sawChange.increment()
            subscriberEntered.set()
            stateQueue.sync {}
        })
        let binding = cell.bind(to: mirror)
        let tornDown = Flag()
        let lateSets = Counter()
        let watcher = mirror.signal.subscribe(next: { _ in
            if tornDown.isSet { lateSets.increment() }
        })
        let teardownStarted = Flag()
        stateQueue.async {
            teardownStarted.set()
            // The teardown comes while the main thread is inside the subscriber.
            guard pollWithoutRunningTheMainQueue({ subscriberEntered.isSet }) else { return }
            binding.dispose()
            tornDown.set()
        }
        XCTAssertTrue(pollWithoutRunningTheMainQueue { teardownStarted.isSet })
        cell.value = 1
        XCTAssertTrue(tornDown.isSet, "\(shape): the subscriber's stateQueue.sync returned before the teardown")
        cell.value = 2
        XCTAssertEqual(sawChange.value, 2, "\(shape)")
        XCTAssertEqual(lateSets.value, 0, "\(shape): the binding set the mirror after its teardown returned")
        XCTAssertEqual(mirror.value, 0, "\(shape): the binding set the mirror after its teardown returned")
        subscriber.dispose()
        watcher.dispose()
    }
}
