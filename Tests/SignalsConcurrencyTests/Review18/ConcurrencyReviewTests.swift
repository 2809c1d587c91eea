import Disposables
import Dispatch
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// A serial executor that runs its jobs on the main queue: code isolated to an actor on it runs on
/// the main thread without being on the main actor.
private final class MainQueueExecutor: SerialExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        DispatchQueue.main.async { job.runSynchronously(on: executor) }
    }
}

/// An actor on the main thread that is not the main actor.
private actor MainThreadActor {
    private let executor = MainQueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func send(_ value: Int, to input: Subscriber<Int, Never>) -> Bool {
        input.sendNext(value)
        return Thread.isMainThread
    }
}

/// A serial executor on a queue of its own.
private final class OwnQueueExecutor: SerialExecutor {
    let queue = DispatchQueue(label: "ConcurrencyReviewTests.executor")
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

private actor Tally {
    private let executor: OwnQueueExecutor?
    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor?.asUnownedSerialExecutor() ?? (self as any Actor).unownedExecutor
    }
    var items: [Int] = []

    init(executor: OwnQueueExecutor? = nil) { self.executor = executor }

    func snapshot() -> [Int] { items }
}

@MainActor private final class Title {
    var text = ""
}

private actor PlainTally {
    var items: [Int] = []
    var isDone = false
    func snapshot() -> ([Int], Bool) { (items, isDone) }
}

final class ConcurrencyReviewTests: LeakCheckedTestCase {
    /// Holds: an event sent on the main thread from inside another actor, which is delivered at
    /// once, still finds the main actor's isolation (no `assumeIsolated` crash).
    func testSubscribeOnMainActor_sentOnTheMainThreadFromAnotherActor() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let seen = Recorder<Int>()
        let subscription = signal.subscribeOnMainActor(next: { value in
            MainActor.preconditionIsolated()
            seen.record(value)
        })
        let sender = MainThreadActor()
        let onMain = Recorder<Bool>()
        Task { onMain.record(await sender.send(1, to: input)) }
        XCTAssertTrue(spinMainRunLoop { onMain.values.count == 1 && seen.values.count == 1 })
        XCTAssertEqual(onMain.values, [true])
        XCTAssertEqual(seen.values, [1])
        subscription.dispose()
    }

    /// Holds: disposing from inside the main-actor callback stops the events already queued.
    func testSubscribeOnMainActor_disposedFromInsideItsCallback() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let seen = Recorder<Int>()
        let box = DisposableBox()
        box.disposable = signal.subscribeOnMainActor(next: { value in
            seen.record(value)
            box.disposable?.dispose()
        })
        onAPlainThread {
            for value in 1...5 { input.sendNext(value) }
        }
        drainMainQueue()
        XCTAssertEqual(seen.values, [1])
    }

    /// Holds: disposing from inside the actor callback stops the events already queued.
    func testSubscribeOnActor_disposedFromInsideItsCallback() async {
        let tally = PlainTally()
        let (signal, input) = Signal<Int, Never>.pipe()
        let box = DisposableBox()
        box.disposable = signal.subscribeOnActor(tally, next: { tally, value in
            tally.items.append(value)
            box.disposable?.dispose()
        })
        for value in 1...50 { input.sendNext(value) }
        // The first value reaches the actor whenever a busy machine lets it: wait for it. Then
        // give anything wrongly left in the actor's queue a moment to show.
        let gotFirst = await eventually { await !tally.snapshot().0.isEmpty }
        XCTAssertTrue(gotFirst, "the first value never reached the actor")
        try? await Task.sleep(nanoseconds: 50_000_000)
        let (items, _) = await tally.snapshot()
        XCTAssertEqual(items, [1])
        XCTAssertTrue(box.disposable?.isDisposed ?? false)
    }

    /// Holds: on an actor with a custom serial executor, the closures find its isolation.
    func testSubscribeOnActor_anActorOnACustomExecutor() async {
        let executor = OwnQueueExecutor()
        let tally = Tally(executor: executor)
        let (signal, input) = Signal<Int, Never>.pipe()
        let subscription = signal.subscribeOnActor(tally, next: { tally, value in
            dispatchPrecondition(condition: .onQueue(executor.queue))
            tally.items.append(value)
        })
        onAPlainThread { for value in 1...20 { input.sendNext(value) } }
        let gotAll = await eventually { await tally.snapshot().count >= 20 }
        XCTAssertTrue(gotAll, "the values did not all reach the actor")
        let items = await tally.snapshot()
        XCTAssertEqual(items, Array(1...20))
        subscription.dispose()
    }

    /// Holds: once the signal completes, nothing keeps the actor.
    func testSubscribeOnActor_letsTheActorGoAfterCompletion() async {
        var tally: PlainTally? = PlainTally()
        let weakTally = WeakReference(tally!)
        let (signal, input) = Signal<Int, Never>.pipe()
        let subscription = signal.subscribeOnActor(tally!, next: { $0.items.append($1) }, completed: { $0.isDone = true })
        input.sendNext(1)
        input.sendCompleted()
        let completed = await eventually { await tally!.snapshot().1 }
        XCTAssertTrue(completed, "the completion never reached the actor")
        tally = nil
        let released = await eventually { !weakTally.isAlive }
        XCTAssertTrue(released, "something kept the actor after completion")
        XCTAssertTrue(subscription.isDisposed)
    }

    /// Compares `assignOnMainActor` with `assign(to:on:)`: both document that the binding ends when
    /// the signal completes; `assign`'s disposable then reads disposed.
    func testAssignOnMainActor_completionEndsTheBinding() {
        let (signal, input) = Signal<String, Never>.pipe()
        let title = MainActor.assumeIsolated { Title() }
        let binding = MainActor.assumeIsolated { signal.assignOnMainActor(to: \.text, on: title) }
        input.sendNext("a")
        input.sendCompleted()
        drainMainQueue()
        XCTAssertEqual(MainActor.assumeIsolated { title.text }, "a")
        XCTAssertTrue(binding.isDisposed)
    }
}
