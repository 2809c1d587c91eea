@testable import Command
import Dispatch
import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import Synchronization
import TestSupport
import XCTest

/// A hostile review of `Command`: races, reentrancy, deadlocks, ordering, lifetimes and sizes,
/// each a small repro. Subscriptions whose closures reach the command are disposed (or the
/// command let go of through a ``Holder``) before the test ends.
final class ReviewTests: XCTestCase {
    typealias TestCommand = Command<Int, Int, TestError>

    /// Holds a command for callbacks to let go of, without capturing the command itself.
    final class Holder<C: AnyObject>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: C?
        init(_ object: C?) { stored = object }
        var object: C? {
            lock.lock(); defer { lock.unlock() }
            return stored
        }
        /// Sets the object, before any callback can run.
        func withCommand(_ object: C) {
            lock.lock(); defer { lock.unlock() }
            stored = object
        }
        /// Lets go of the object, outside the lock (its deinit runs here, in the caller).
        func release() {
            lock.lock()
            let object = stored
            stored = nil
            lock.unlock()
            _ = object
        }
    }

    private static func onMain() -> Bool {
        Thread.isMainThread && Scheduler.current === Scheduler.main
    }

    /// A signal that sends `input`, then fails with `.first`, synchronously.
    private static func failing(_ input: Int) -> Signal<Int, TestError> {
        Signal { subscriber in
            subscriber.sendNext(input)
            subscriber.sendError(.first)
            return nil
        }
    }

    // MARK: - Huge numbers

    /// 100,000 executions queued before the main queue runs: the drain must yield to other
    /// main-queue work after about `drainBudget` events (its doc comment: "how many events one
    /// main-queue block sends at most"), and still deliver everything in order.
    func testDrain_hugeBacklogYieldsToOtherMainQueueWork_andKeepsOrder() {
        let count = 100_000
        let subscribed = Counter()
        let command = Command<Int, Int, Never> { input in
            Signal { subscriber in
                subscribed.increment()
                subscriber.sendNext(input)
                subscriber.sendCompleted()
                return nil
            }
        }
        command.allowsConcurrentExecution = true
        let values = command.executionSignals.flatten().record()
        let executing = command.executing.record()
        let enabled = command.enabled.record()
        for input in 0..<count { command.execute(input) }
        // Queued after the command's first drain block.
        let seenByOtherWork = Recorder<Int>()
        DispatchQueue.main.async { seenByOtherWork.record(subscribed.value) }
        XCTAssertTrue(spinMainRunLoop(timeout: 300) { executing.values.last == false && values.values.count == count })
        drainMainQueue()
        let seen = seenByOtherWork.values.first ?? -1
        XCTAssertLessThanOrEqual(seen, CommandCore<Int, Never>.drainBudget,
                                 "other main-queue work waited for \(seen) executions to be subscribed by one block")
        XCTAssertEqual(subscribed.value, count)
        XCTAssertTrue(values.values == Array(0..<count), "values out of order")
        XCTAssertEqual(executing.values, [false, true, false])
        XCTAssertEqual(enabled.values, [true])
    }

    /// A drain yielding at its budget keeps the order of everything queued, also what the other
    /// main-queue work it yielded to queues in between.
    func testDrain_yieldingKeepsOrderWithExecutionsStartedInBetween() {
        let command = Command<Int, Int, Never> { .return($0) }
        command.allowsConcurrentExecution = true
        let values = command.executionSignals.flatten().record()
        for input in 0..<5_000 { command.execute(input) }
        DispatchQueue.main.async { for input in 5_000..<6_000 { command.execute(input) } }
        XCTAssertTrue(spinMainRunLoop(timeout: 60) { values.values.count == 6_000 })
        drainMainQueue()
        XCTAssertTrue(values.values == Array(0..<6_000), "values out of order")
    }

    /// 20,000 executions, each started from the completion of the one before (on the main
    /// thread, inside the command's delivery): no stack growth, and other main-queue work still
    /// runs in between.
    func testDrain_longChainOfExecutionsStartedFromCompletions() {
        let count = 20_000
        let holder = Holder<Command<Int, Int, Never>>(Command { .return($0) })
        let last = Recorder<Int>()
        let otherWork = Counter()
        @Sendable func run(_ input: Int) {
            holder.object?.execute(input).subscribe(next: { value in
                if value == count - 1 { last.record(otherWork.value) }
            }, completed: {
                if input + 1 < count { run(input + 1) }
            })
        }
        run(0)
        // Queued while the chain runs: each must run before it ends.
        for _ in 0..<3 { DispatchQueue.main.async { otherWork.increment() } }
        XCTAssertTrue(spinMainRunLoop(timeout: 60) { last.values.count == 1 })
        XCTAssertEqual(last.values, [3], "the other main-queue work waited for the whole chain")
        holder.release()
        drainMainQueue()
    }

    // MARK: - Release from inside every callback

    private enum ReleasePoint: CaseIterable {
        case signalBlock, createBlock, executionSignals, innerNext, innerCompleted, executingTrue,
             executingFalse, enabledFalse, errors, resultNext, resultError
    }

    /// The command is let go of from inside each of its callbacks: the execution runs to its end,
    /// every signal shows it, completes after it, and nothing of the command stays alive.
    func testRelease_fromInsideEveryCallback() {
        for point in ReleasePoint.allCases {
            let holder = Holder<TestCommand>(nil)
            let all = Recorder<String>()
            let command = TestCommand { input in
                if point == .signalBlock { holder.release() }
                return Signal { subscriber in
                    if point == .createBlock { holder.release() }
                    subscriber.sendNext(input)
                    subscriber.sendError(.first)
                    return nil
                }
            }
            holder.withCommand(command)
            let core = WeakReference(command.core)
            let executing = command.executing.record()
            let enabled = command.enabled.record()
            let errors = command.errors.record()
            let inner = Recorder<Event<Int, Never>>()
            command.executionSignals.subscribe(next: { signal in
                if point == .executionSignals { holder.release() }
                signal.subscribe(next: { value in
                    inner.record(.next(value))
                    if point == .innerNext { holder.release() }
                }, completed: {
                    inner.record(.completed)
                    if point == .innerCompleted { holder.release() }
                })
            }, completed: { all.record("executionSignals completed") })
            command.executing.subscribe(next: { value in
                if value, point == .executingTrue { holder.release() }
                if !value, point == .executingFalse, executing.values.count >= 2 { holder.release() }
            })
            command.enabled.subscribe(next: { value in
                if !value, point == .enabledFalse { holder.release() }
            })
            command.errors.subscribe(next: { _ in if point == .errors { holder.release() } })
            let result = Recorder<Event<Int, CommandError<TestError>>>()
            command.execute(1).subscribe(next: { value in
                result.record(.next(value))
                if point == .resultNext { holder.release() }
            }, error: { error in
                result.record(.error(error))
                if point == .resultError { holder.release() }
            })
            _ = consume command
            XCTAssertTrue(spinMainRunLoop { all.values.count == 1 && executing.events.last == .completed }, "\(point): never completed")
            drainMainQueue()
            XCTAssertEqual(result.values, [.next(1), .error(.failed(.first))], "\(point)")
            XCTAssertEqual(inner.values, [.next(1), .completed], "\(point)")
            XCTAssertEqual(executing.events, [.next(false), .next(true), .next(false), .completed], "\(point)")
            XCTAssertEqual(enabled.events, [.next(true), .next(false), .next(true), .completed], "\(point)")
            XCTAssertEqual(errors.events, [.next(.first), .completed], "\(point)")
            XCTAssertTrue(spinMainRunLoop { !core.isAlive }, "\(point): the core stays alive")
            XCTAssertNil(holder.object, "\(point): never released")
        }
    }

    // MARK: - Execute from inside every callback

    /// `execute` called from inside each callback of a command that disallows concurrent
    /// execution: refused where an execution is running, started where it has ended (RAC 2.5
    /// decides the same from `immediateEnabled`), and nothing deadlocks.
    func testExecute_fromInsideEveryCallback() {
        enum Point: CaseIterable { case executionSignals, innerNext, innerCompleted, executingTrue, executingFalse, enabledFalse, enabledTrue, errors, resultNext, resultError }
        let expectedStart: [Point: Bool] = [
            .executionSignals: false, .innerNext: false, .innerCompleted: true, .executingTrue: false,
            .executingFalse: true, .enabledFalse: false, .enabledTrue: true, .errors: true, .resultNext: false, .resultError: true,
        ]
        for point in Point.allCases {
            let holder = Holder<TestCommand>(TestCommand { Self.failing($0) })
            let command = holder.object!
            let outcome = Recorder<[Event<Int, CommandError<TestError>>]>()
            let tried = Atomic<Bool>(false)
            let again: @Sendable () -> Void = {
                guard !tried.exchange(true, ordering: .acquiringAndReleasing), let command = holder.object else { return }
                let events = command.execute(2).record()
                // Refused at once; a started one ends on the main queue.
                outcome.record(events.events == [.error(.notEnabled)] ? [.error(.notEnabled)] : [])
            }
            var subscriptions: [Disposable] = []
            subscriptions.append(command.executionSignals.subscribe(next: { signal in
                if point == .executionSignals { again() }
                signal.subscribe(next: { _ in if point == .innerNext { again() } },
                                 completed: { if point == .innerCompleted { again() } })
            }))
            subscriptions.append(command.executing.skip(1).subscribe(next: { value in
                if value, point == .executingTrue { again() }
                if !value, point == .executingFalse { again() }
            }))
            subscriptions.append(command.enabled.skip(1).subscribe(next: { value in
                if !value, point == .enabledFalse { again() }
                if value, point == .enabledTrue { again() }
            }))
            subscriptions.append(command.errors.subscribe(next: { _ in if point == .errors { again() } }))
            command.execute(1).subscribe(next: { _ in if point == .resultNext { again() } },
                                         error: { _ in if point == .resultError { again() } })
            XCTAssertTrue(spinMainRunLoop { outcome.values.count == 1 && command.executing.first() == false }, "\(point)")
            drainMainQueue()
            XCTAssertEqual(outcome.values.first == [], expectedStart[point], "\(point): \(outcome.values)")
            subscriptions.forEach { $0.dispose() }
            holder.release()
        }
    }

    /// The signal block executes the command again (concurrent execution allowed, three deep):
    /// the inner executions start first, so `executionSignals` sends them first, as RAC 2.5 adds
    /// an execution only after its signal block returns.
    func testExecute_fromInsideTheSignalBlock() {
        let holder = Holder<Command<Int, Int, Never>>(nil)
        let command = Command<Int, Int, Never> { depth in
            if depth < 3 { holder.object?.execute(depth + 1) }
            return .return(depth)
        }
        holder.withCommand(command)
        command.allowsConcurrentExecution = true
        let values = command.executionSignals.flatten().record()
        let executing = command.executing.record()
        command.execute(1)
        XCTAssertTrue(spinMainRunLoop { values.values.count == 3 && executing.values.last == false })
        XCTAssertEqual(values.values, [3, 2, 1])
        XCTAssertEqual(executing.values, [false, true, false])
        holder.release()
    }

    // MARK: - Deadlocks

    private enum BackgroundStep: CaseIterable {
        case execute, toggleConcurrency, sendEnabledInput, subscribeEverySignal, readEnabledFirst, release
    }

    /// A callback on the main thread blocks until a background thread has done something with
    /// the command: nothing the command does on that thread waits for the main thread.
    func testDeadlock_mainCallbackWaitsForABackgroundThread() {
        for step in BackgroundStep.allCases {
            let input = Subject<Bool, Never>()
            let holder = Holder<TestCommand>(TestCommand(enabled: input) { .return($0) })
            let command = holder.object!
            command.allowsConcurrentExecution = true
            let waited = Recorder<DispatchTimeoutResult>()
            let later = Recorder<Disposable>()
            let blocked = Atomic<Bool>(false)
            let subscription = command.executionSignals.subscribe(next: { _ in
                guard !blocked.exchange(true, ordering: .acquiringAndReleasing) else { return }
                let done = DispatchSemaphore(value: 0)
                let background = holder.object!
                Thread {
                    switch step {
                    case .execute: background.execute(2)
                    case .toggleConcurrency: background.allowsConcurrentExecution.toggle()
                    case .sendEnabledInput: input.sendNext(false)
                    case .subscribeEverySignal:
                        // Disposed later, on the main thread: see the next test for why.
                        later.record(background.executing.subscribe(next: { _ in }))
                        later.record(background.enabled.subscribe(next: { _ in }))
                        later.record(background.errors.subscribe(next: { _ in }))
                        later.record(background.executionSignals.subscribe(next: { _ in }))
                    case .readEnabledFirst: _ = background.enabled.first()
                    case .release: break
                    }
                    done.signal()
                }.start()
                if step == .release { holder.release() }
                _ = consume background
                waited.record(done.wait(timeout: .now() + 3))
            })
            if step == .release { _ = consume command } else { command.execute(1) }
            if step == .release { holder.object?.execute(1) }
            XCTAssertTrue(spinMainRunLoop { waited.values.count == 1 }, "\(step)")
            XCTAssertEqual(waited.values, [.success], "\(step): deadlock")
            subscription.dispose()
            later.values.forEach { $0.dispose() }
            holder.release()
            drainMainQueue()
        }
    }

    /// A background thread disposes its own subscription to `executionSignals` while the main
    /// thread, inside another subscriber's `executionSignals` callback, waits for it. The disposal
    /// waits for the whole delivery under way on the main thread, not only for its own callback
    /// (the subject's doc promises the latter), so the two wait for each other. RAC 2.5's subject
    /// removes a subscriber without waiting. (In `Subjects`: `BroadcastObserver.dispose()`
    /// quiesces the subject's `SerialInput`.)
    func testDeadlock_disposingOnABackgroundThreadWhileMainDeliversThatSignal() {
        let command = TestCommand { .return($0) }
        let theirs = command.executionSignals.subscribe(next: { _ in })
        let waited = Recorder<DispatchTimeoutResult>()
        let subscription = command.executionSignals.subscribe(next: { _ in
            let done = DispatchSemaphore(value: 0)
            Thread {
                theirs.dispose()
                done.signal()
            }.start()
            waited.record(done.wait(timeout: .now() + 3))
        })
        command.execute(1)
        XCTAssertTrue(spinMainRunLoop { waited.values.count == 1 })
        XCTAssertEqual(waited.values, [.success], "deadlock (broken by the timeout)")
        subscription.dispose()
        drainMainQueue()
    }

    /// A background thread lets go of the last reference to the command (so its deinit disposes
    /// the subscription to the caller's enabled signal) while the main thread is inside another
    /// subscriber's callback of that same enabled signal, waiting for it.
    func testDeadlock_releasedWhileTheEnabledInputDeliversOnMain() {
        let input = Subject<Bool, Never>()
        let waited = Recorder<DispatchTimeoutResult>()
        let holder = Holder<TestCommand>(nil)
        let before = input.subscribe(next: { value in
            guard !value else { return }
            let done = DispatchSemaphore(value: 0)
            Thread {
                holder.release()
                done.signal()
            }.start()
            waited.record(done.wait(timeout: .now() + 3))
        })
        holder.withCommand(TestCommand(enabled: input) { .return($0) })
        let core = WeakReference(holder.object!.core)
        input.sendNext(false)
        XCTAssertEqual(waited.values, [.success])
        XCTAssertTrue(spinMainRunLoop { !core.isAlive })
        before.dispose()
    }

    /// A background thread reads `executing.first()` while the main thread, inside an
    /// `executing` callback, waits for it. The replay to the background subscriber is made by the
    /// subject's deliverer, the blocked main thread, so the read waits until the callback returns
    /// (RAC 2.5 deadlocks the same way on its replay subject's lock). A limitation of
    /// `ReplaySubject`, not of `Command`: pinned here, with the wait cut short.
    func testBackgroundReadsExecutingWhileMainWaitsInsideExecuting_waitsForTheCallback() {
        let command = TestCommand { .return($0) }
        let waited = Recorder<DispatchTimeoutResult>()
        let read = Recorder<Bool?>()
        let subscription = command.executing.skip(1).subscribe(next: { value in
            guard value else { return }
            let done = DispatchSemaphore(value: 0)
            let executing = command.executing
            Thread {
                read.record(executing.first())
                done.signal()
            }.start()
            waited.record(done.wait(timeout: .now() + 0.5))
        })
        command.execute(1)
        XCTAssertTrue(spinMainRunLoop { read.values.count == 1 && command.executing.first() == false })
        XCTAssertEqual(waited.values, [.timedOut])
        XCTAssertEqual(read.values, [true])
        subscription.dispose()
    }

    /// The caller's enabled signal sends synchronously, many times, while it is subscribed in
    /// init, from the main thread and from a plain thread.
    func testEnabledSignal_sendsSynchronouslyDuringInit() {
        let enabledSignal = Signal<Bool, Never> { subscriber in
            for value in [true, false, true, false] { subscriber.sendNext(value) }
            subscriber.sendCompleted()
            return nil
        }
        let onMain = TestCommand(enabled: enabledSignal) { .return($0) }
        XCTAssertEqual(onMain.enabled.first(), false, "sampled synchronously at init on the main thread")
        XCTAssertEqual(onMain.execute(1).record().events, [.error(.notEnabled)])
        // From a plain thread, the enabled signal is subscribed on a background scheduler: the
        // first value is `true`, as RAC 2.5's `startWith:YES` there, then `false` on main.
        let made = Recorder<TestCommand>()
        let enabled = Recorder<EventRecorder<Bool, Never>>()
        onAPlainThread {
            let command = TestCommand(enabled: enabledSignal) { .return($0) }
            enabled.record(command.enabled.record())
            made.record(command)
        }
        XCTAssertTrue(spinMainRunLoop { enabled.values[0].values.last == false })
        drainMainQueue()
        // The values the signal sent after init show one by one (RAC 2.5 sends each through
        // `deliverOn:`, then `distinctUntilChanged`): distinct, ending at `false`.
        let values = enabled.values[0].values
        XCTAssertFalse(zip(values, values.dropFirst()).contains { $0 == $1 }, "\(values)")
        XCTAssertEqual(values.last, false)
        XCTAssertEqual(made.values[0].execute(1).record().events, [.error(.notEnabled)])
    }

    /// The caller's enabled signal is sent to from inside the command's own delivery: from
    /// `errors`, from `executionSignals`, and from the execution's create block (run by the
    /// main-queue delivery).
    func testEnabledSignal_sentFromInsideTheCommandsOwnDelivery() {
        let input = Subject<Bool, Never>()
        let holder = Holder<TestCommand>(nil)
        let command = TestCommand(enabled: input) { value in
            Signal { subscriber in
                input.sendNext(true)
                subscriber.sendNext(value)
                subscriber.sendError(.first)
                return nil
            }
        }
        holder.withCommand(command)
        let enabled = command.enabled.record()
        let subscriptions = [
            command.errors.subscribe(next: { _ in input.sendNext(false) }),
            command.executionSignals.subscribe(next: { _ in input.sendNext(true) }),
        ]
        XCTAssertNotNil(command.execute(1).asynchronouslyWaitUntilCompleted(timeout: 10))
        // The input's `true` (from `executionSignals` and the create block) shows once the
        // execution ends; the `false` from `errors` comes after.
        XCTAssertTrue(spinMainRunLoop { enabled.values.count == 4 })
        drainMainQueue()
        XCTAssertEqual(enabled.values, [true, false, true, false])
        XCTAssertEqual(command.execute(2).record().events, [.error(.notEnabled)])
        subscriptions.forEach { $0.dispose() }
        holder.release()
    }

    /// The signal block returns a subject that the user sends to from main-thread callbacks of
    /// the command's own signals, the execution's inner signal included (a reentrant send).
    func testSignalBlockReturnsASubjectSentToFromMainCallbacks() {
        let work = Subject<Int, TestError>()
        let command = TestCommand { _ in work }
        let inner = Recorder<Event<Int, Never>>()
        let subscription = command.executionSignals.subscribe(next: { signal in
            signal.subscribe(next: { value in
                inner.record(.next(value))
                if value < 3 { work.sendNext(value + 1) } else { work.sendCompleted() }
            }, completed: { inner.record(.completed) })
        })
        let result = command.execute(0).record()
        // Sent once the execution is subscribed: from `executing`'s next change would be too early.
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == true })
        drainMainQueue()
        work.sendNext(1)
        XCTAssertTrue(spinMainRunLoop { result.events.last == .completed })
        XCTAssertEqual(inner.values, [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(result.events, [.next(1), .next(2), .next(3), .completed])
        subscription.dispose()
    }

    /// The signal block returns the command's own `executing`: the execution is subscribed to it
    /// inside the command's delivery, gets the value it replays, and ends only when the command
    /// is released and `executing` completes; nothing deadlocks and nothing stays alive.
    func testSignalBlockReturnsTheCommandsOwnExecuting() {
        let holder = Holder<Command<Void, Bool, Never>>(nil)
        holder.withCommand(Command { holder.object?.executing ?? .empty })
        let core = WeakReference(holder.object!.core)
        let result = holder.object!.execute(()).record()
        XCTAssertTrue(spinMainRunLoop { result.events.count == 1 })
        drainMainQueue()
        XCTAssertEqual(result.events, [.next(true)])
        holder.release()
        XCTAssertTrue(spinMainRunLoop { result.events.count == 2 })
        XCTAssertEqual(result.events, [.next(true), .completed])
        XCTAssertTrue(spinMainRunLoop { !core.isAlive })
    }

    // MARK: - Ordering

    /// The caller's enabled signal sends `false` on another thread while init runs: `enabled`'s
    /// values, on the main thread, are distinct and end at `false`.
    func testEnabled_firstValueWhenTheInputSendsOnAnotherThreadDuringInit() {
        for round in 0..<300 {
            let enabledSignal = Signal<Bool, Never> { subscriber in
                Thread { subscriber.sendNext(false) }.start()
                return nil
            }
            let command = TestCommand(enabled: enabledSignal) { .return($0) }
            let enabled = command.enabled.record()
            XCTAssertTrue(spinMainRunLoop { enabled.values.last == false }, "round \(round): \(enabled.values)")
            drainMainQueue()
            XCTAssertTrue([[true, false], [false]].contains(enabled.values), "round \(round): \(enabled.values)")
            if ![[true, false], [false]].contains(enabled.values) { return }
        }
    }

    /// `enabled`'s first value comes on the subscriber's thread when a scheduler is current there
    /// (a `QueueScheduler` block), the changes on the main thread.
    func testEnabled_firstValueOnTheSubscribersScheduler_laterOnMain() {
        let input = Subject<Bool, Never>()
        let command = TestCommand(enabled: input) { .return($0) }
        let scheduler = QueueScheduler(name: "review")
        let seen = Recorder<String>()
        let subscribed = Recorder<Disposable>()
        scheduler.schedule {
            subscribed.record(command.enabled.subscribe(next: { value in
                let place = Scheduler.current === scheduler ? "scheduler" : Self.onMain() ? "main" : "elsewhere"
                seen.record("\(value) \(place)")
            }))
        }
        XCTAssertTrue(spinMainRunLoop { seen.values.count == 1 })
        input.sendNext(false)
        XCTAssertTrue(spinMainRunLoop { seen.values.count == 2 })
        XCTAssertEqual(seen.values, ["true scheduler", "false main"])
        subscribed.values.forEach { $0.dispose() }
    }

    /// Executions, `allowsConcurrentExecution` changes, enabled-input sends and subscriptions to
    /// `executing` and `enabled` from many threads at once: every subscriber sees distinct,
    /// alternating values, and, once things settle, the latest state.
    func testOrdering_raceEverything_subscribersSeeDistinctSettledValues() {
        for round in 0..<50 {
            let input = Subject<Bool, Never>()
            let command = TestCommand(enabled: input) { value in
                Signal { subscriber in
                    subscriber.sendNext(value)
                    subscriber.sendCompleted()
                    return nil
                }
            }
            let recorders = Lock<[(EventRecorder<Bool, Never>, EventRecorder<Bool, Never>)]>([])
            race(threads: 6) { index in
                for step in 0..<30 {
                    switch index {
                    case 0: input.sendNext(step % 3 != 0)
                    case 1: command.allowsConcurrentExecution = step % 2 == 0
                    case 2, 3: command.execute(step)
                    default:
                        if step % 5 == 0 {
                            let pair = (command.executing.record(), command.enabled.record())
                            recorders.withLock { $0.append(pair) }
                        }
                    }
                }
            }
            input.sendNext(true)
            command.allowsConcurrentExecution = false
            let all = recorders.withLock { $0 }
            XCTAssertTrue(spinMainRunLoop {
                all.allSatisfy { $0.0.values.last == false && $0.1.values.last == true }
            }, "round \(round): never settled")
            drainMainQueue()
            for (executing, enabled) in all {
                for values in [executing.values, enabled.values] {
                    XCTAssertFalse(zip(values, values.dropFirst()).contains { $0 == $1 }, "round \(round): repeated values in \(values)")
                }
                executing.dispose()
                enabled.dispose()
            }
        }
    }

    /// Subscribers to `executionSignals` from many threads while one thread executes a
    /// concurrent command 0, 1, 2…: each sees a run of consecutive executions, in order, up to
    /// the last, every one complete.
    func testExecutionSignals_subscribedFromManyThreadsWhileExecuting() {
        let count = 400
        let command = Command<Int, Int, Never> { .return($0) }
        command.allowsConcurrentExecution = true
        let recorders = Lock<[EventRecorder<Int, Never>]>([])
        race(threads: 4) { index in
            if index == 0 {
                for input in 0..<count { command.execute(input) }
            } else {
                for _ in 0..<10 {
                    let recorder = command.executionSignals.flatten().record()
                    recorders.withLock { $0.append(recorder) }
                    usleep(50)
                }
            }
        }
        let all = recorders.withLock { $0 }
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == false })
        drainMainQueue()
        for recorder in all {
            let values = recorder.values
            if let first = values.first {
                XCTAssertEqual(values, Array(first..<count), "a gap or disorder")
            }
            recorder.dispose()
        }
    }

    /// The result of `execute` subscribed from many threads while the execution sends from
    /// another: each subscriber gets every value, in order, once.
    func testExecuteResult_subscribedFromManyThreadsWhileItSends() {
        let work = Subject<Int, TestError>()
        let command = TestCommand { _ in work }
        let result = command.execute(0)
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == true })
        drainMainQueue()
        let recorders = Lock<[EventRecorder<Int, CommandError<TestError>>]>([])
        race(threads: 5) { index in
            if index == 0 {
                for value in 0..<500 { work.sendNext(value) }
                work.sendCompleted()
            } else {
                for _ in 0..<20 {
                    let recorder = result.record()
                    recorders.withLock { $0.append(recorder) }
                }
            }
        }
        let all = recorders.withLock { $0 }
        XCTAssertTrue(spinMainRunLoop { all.allSatisfy { $0.events.last == .completed } })
        for recorder in all {
            XCTAssertEqual(recorder.events, (0..<500).map { .next($0) } + [.completed])
        }
    }

    /// Execute, release, `allowsConcurrentExecution` and enabled-input sends from many threads,
    /// many times: no crash, every started execution ends, nothing stays alive.
    func testRace_executeReleaseConcurrencyAndEnabledSends() {
        var cores: [WeakReference<CommandCore<Int, TestError>>] = []
        let results = Recorder<Signal<Int, CommandError<TestError>>>()
        for _ in 0..<200 {
            let input = Subject<Bool, Never>()
            let holder = Holder<TestCommand>(TestCommand(enabled: input) { value in
                Signal { subscriber in
                    subscriber.sendNext(value)
                    subscriber.sendCompleted()
                    return nil
                }
            })
            cores.append(WeakReference(holder.object!.core))
            race(threads: 5) { index in
                switch index {
                case 0:
                    usleep(UInt32.random(in: 0..<50))
                    holder.release()
                case 1:
                    for step in 0..<10 { input.sendNext(step % 2 == 0) }
                case 2:
                    for step in 0..<10 { holder.object?.allowsConcurrentExecution = step % 2 == 0 }
                default:
                    for step in 0..<5 {
                        guard let command = holder.object else { return }
                        results.record(command.execute(step))
                    }
                }
            }
        }
        XCTAssertTrue(spinMainRunLoop { !cores.contains { $0.isAlive } })
        let recorders = results.values.map { $0.record() }
        XCTAssertTrue(spinMainRunLoop { recorders.allSatisfy { $0.events.last?.isFinished == true } })
        XCTAssertTrue(recorders.allSatisfy { $0.events.count == 2 || $0.events == [.error(.notEnabled)] })
    }

    /// A thread sends `false` on the caller's enabled signal (a subject), then executes, while
    /// the main thread is delivering on that subject (inside another subscriber's callback,
    /// waiting for the thread). The subject queues the `false` for its deliverer and returns, so
    /// the command has not seen it when `execute` checks: the execution starts. In RAC 2.5 the
    /// send reaches the command before it returns (`RACSubject` delivers on the sending thread),
    /// and `execute` fails with `RACCommandErrorNotEnabled`. Pinned: a consequence of the
    /// `Subject` departure (a send made while another thread delivers returns before its event
    /// is delivered) that `Command`'s doc does not mention.
    func testEnabledInputSentThenExecute_whileMainDeliversThatInput_startsAnyway() {
        let input = Subject<Bool, Never>()
        let outcome = Recorder<Bool>()
        let holder = Holder<TestCommand>(nil)
        let blocker = input.subscribe(next: { value in
            guard value else { return }
            let done = DispatchSemaphore(value: 0)
            Thread {
                input.sendNext(false)
                let events = holder.object!.execute(1).record()
                // Refused at once (where the error is sent on a background scheduler), or started.
                usleep(100_000)
                outcome.record(events.events != [.error(.notEnabled)])
                done.signal()
            }.start()
            _ = done.wait(timeout: .now() + 5)
        })
        holder.withCommand(TestCommand(enabled: input) { .return($0) })
        input.sendNext(true)
        XCTAssertEqual(outcome.values, [true], "the execution started though its thread had sent false before")
        XCTAssertTrue(spinMainRunLoop { holder.object!.executing.first() == false && holder.object!.enabled.first() == false })
        blocker.dispose()
        holder.release()
    }

    // MARK: - Exact sequences

    /// One failing execution, everything recorded in one list on the main thread: the order of
    /// RAC 2.5 (`executing`, `enabled` and the execution's signal before its subscription; the
    /// execution's subscribers hear its events synchronously; `errors`, then `executing` and
    /// `enabled`, on the main queue afterwards).
    func testExactSequence_oneFailingExecution() {
        let command = TestCommand { Self.failing($0) }
        let log = Recorder<String>()
        var subscriptions: [Disposable] = [
            command.executing.skip(1).subscribe(next: { log.record("executing \($0)") }),
            command.enabled.skip(1).subscribe(next: { log.record("enabled \($0)") }),
            command.errors.subscribe(next: { log.record("errors \($0)") }),
        ]
        subscriptions.append(command.executionSignals.subscribe(next: { signal in
            log.record("execution")
            signal.subscribe(next: { log.record("inner \($0)") }, completed: { log.record("inner completed") })
        }))
        command.execute(1).subscribe(next: { log.record("result \($0)") }, error: { log.record("result \($0)") })
        XCTAssertTrue(spinMainRunLoop { log.values.count == 10 })
        drainMainQueue()
        XCTAssertEqual(log.values, [
            "executing true", "enabled false", "execution",
            "result 1", "inner 1", "result The command's execution failed: first", "inner completed",
            "errors first", "executing false", "enabled true",
        ])
        subscriptions.forEach { $0.dispose() }
    }

    /// An execution still running when the command is released, failing afterwards: its error
    /// reaches the result of `execute`, not `errors`, which completed at the release. In RAC 2.5
    /// `errors` is a `flattenMap` over the executions, published: it completes only once the
    /// executions running at the release have ended, and sends their errors first. Pinned: a
    /// departure that `errors`' doc states ("completes when the command is released") without
    /// marking it as one.
    func testErrorsOfAnExecutionEndingAfterRelease_areNotSentOnErrors() {
        let work = Subject<Int, TestError>()
        var command: TestCommand? = TestCommand { _ in work }
        let errors = command!.errors.record()
        let result = command!.execute(1).record()
        XCTAssertTrue(spinMainRunLoop { command!.executing.first() == true })
        drainMainQueue()
        command = nil
        XCTAssertTrue(spinMainRunLoop { errors.events == [.completed] })
        work.sendError(.second)
        drainMainQueue()
        XCTAssertEqual(result.events, [.error(.failed(.second))])
        XCTAssertEqual(errors.events, [.completed], "RAC 2.5: [.next(.second), .completed]")
    }

    /// `Failure == Never`, `Output == Void`, `Input == Void`.
    func testNeverAndVoid() {
        let runs = Counter()
        let command = Command<Void, Void, Never> {
            runs.increment()
            return .return(())
        }
        let errors = command.errors.record()
        let result = command.execute(()).record()
        XCTAssertTrue(spinMainRunLoop { result.events.count == 2 })
        XCTAssertEqual(result.events.map(\.isFinished), [false, true])
        XCTAssertNil(result.events.last?.error)
        XCTAssertEqual(runs.value, 1)
        XCTAssertEqual(errors.events.count, 0)
        let refused: CommandError<Never> = .notEnabled
        XCTAssertNil(refused.failure)
        XCTAssertEqual(refused, .notEnabled)
    }

    // MARK: - Lifetimes

    /// The four signals, kept by the user after the command is gone: a later subscription
    /// completes at once (after the kept value, for `executing` and `enabled`, as RAC 2.5's
    /// `replayLast` does), from the main thread and from a plain thread, and keeps nothing.
    func testSignalsKeptAfterRelease_completeAtOnceAndKeepNothing() {
        var command: TestCommand? = TestCommand { .return($0) }
        let core = WeakReference(command!.core)
        let executionSignals = command!.executionSignals, executing = command!.executing
        let enabled = command!.enabled, errors = command!.errors
        command = nil
        XCTAssertTrue(spinMainRunLoop { !core.isAlive })
        func check(_ name: String, _ subscribe: (LifetimeToken, Recorder<String>) -> Disposable, expect: [String]) {
            let log = Recorder<String>()
            let (_, token) = trackingLifetime { token in _ = subscribe(token, log) }
            XCTAssertEqual(log.values, expect, "\(name): on the main thread")
            XCTAssertFalse(token.isAlive, "\(name): the subscriber is kept")
        }
        check("executionSignals", { token, log in executionSignals.subscribe(next: { _ in _ = token }, completed: { log.record("completed") }) }, expect: ["completed"])
        check("executing", { token, log in executing.subscribe(next: { log.record("\($0)"); _ = token }, completed: { log.record("completed") }) }, expect: ["false", "completed"])
        check("enabled", { token, log in enabled.subscribe(next: { log.record("\($0)"); _ = token }, completed: { log.record("completed") }) }, expect: ["true", "completed"])
        check("errors", { token, log in errors.subscribe(next: { _ in _ = token }, completed: { log.record("completed") }) }, expect: ["completed"])
        // From a plain thread: the replay goes through a background scheduler.
        let log = Recorder<String>()
        let tokens = Recorder<WeakReference<LifetimeToken>>()
        onAPlainThread {
            for signal in [executing, enabled] {
                let (_, token) = trackingLifetime { token in signal.subscribe(next: { _ in _ = token }, completed: { log.record("completed") }) }
                tokens.record(token)
            }
            for signal in [executionSignals.map { _ in 0 }, errors.map { _ in 0 }] {
                let (_, token) = trackingLifetime { token in signal.subscribe(next: { _ in _ = token }, completed: { log.record("completed") }) }
                tokens.record(token)
            }
        }
        XCTAssertTrue(spinMainRunLoop { log.values.count == 4 })
        XCTAssertTrue(spinMainRunLoop { !tokens.values.contains { $0.isAlive } })
    }

    /// Subscribed after the command is released but before the main queue has completed its
    /// signals: the subscription completes once it does, and keeps nothing.
    func testSignalsSubscribedBetweenReleaseAndCompletion() {
        var command: TestCommand? = TestCommand { .return($0) }
        let signals = [command!.executing, command!.enabled]
        let executionSignals = command!.executionSignals
        command = nil
        let log = Recorder<String>()
        var tokens: [WeakReference<LifetimeToken>] = []
        for signal in signals {
            tokens.append(trackingLifetime { token in signal.subscribe(next: { _ in _ = token }, completed: { log.record("completed") }) }.1)
        }
        tokens.append(trackingLifetime { token in executionSignals.subscribe(next: { _ in _ = token }, completed: { log.record("completed") }) }.1)
        XCTAssertTrue(spinMainRunLoop { log.values.count == 3 })
        XCTAssertTrue(spinMainRunLoop { !tokens.contains { $0.isAlive } })
    }

    /// An execution that never ends, of a command let go of: the execution keeps only what its
    /// source holds; once the user lets go of the source, nothing is left.
    func testExecutionThatNeverEnds_keepsOnlyWhatItsSourceHolds() {
        var work: Subject<Int, TestError>? = Subject()
        let workReference = WeakReference(work!)
        var command: TestCommand? = TestCommand { [work] _ in work! }
        let core = WeakReference(command!.core)
        let (_, token) = trackingLifetime { token in
            _ = command!.execute(1).subscribe(next: { _ in _ = token })
        }
        drainMainQueue()
        command = nil
        XCTAssertTrue(spinMainRunLoop { !core.isAlive }, "a running execution keeps the core")
        XCTAssertTrue(token.isAlive, "the execution's subscriber goes while the execution runs")
        work = nil
        XCTAssertFalse(workReference.isAlive)
        XCTAssertFalse(token.isAlive, "the never-ending execution stays alive after its source is gone")
    }

    /// A command made on a plain thread subscribes to the caller's enabled signal on a background
    /// scheduler; let go of at once, it leaves no subscription and nothing alive.
    func testReleasedRightAfterInitOnAPlainThread_leavesNoSubscription() {
        let active = Atomic<Int>(0)
        let runs = Counter()
        let input = Subject<Bool, Never>()
        let enabledSignal = Signal<Bool, Never> { subscriber in
            runs.increment()
            active.add(1, ordering: .relaxed)
            let inner = input.subscribe(subscriber)
            return Disposable {
                active.subtract(1, ordering: .relaxed)
                inner.dispose()
            }
        }
        let cores = Recorder<WeakReference<CommandCore<Int, TestError>>>()
        onAPlainThread {
            for _ in 0..<200 {
                let command = TestCommand(enabled: enabledSignal) { .return($0) }
                cores.record(WeakReference(command.core))
            }
        }
        XCTAssertTrue(spinMainRunLoop { !cores.values.contains { $0.isAlive } })
        usleep(100_000)
        XCTAssertEqual(active.load(ordering: .relaxed), 0, "\(runs.value) subscriptions made, some still active")
    }

    /// A command that is never executed nor subscribed to, made and let go of from every thread.
    func testNeverExecuted_freedFromEveryThread() {
        let cores = Recorder<WeakReference<CommandCore<Int, TestError>>>()
        let make: @Sendable () -> Void = {
            let command = TestCommand(enabled: .return(true)) { .return($0) }
            cores.record(WeakReference(command.core))
        }
        make()
        onAPlainThread(make)
        let done = Counter()
        DispatchQueue.global().async { make(); done.increment() }
        QueueScheduler(name: "review").schedule { make(); done.increment() }
        XCTAssertTrue(spinMainRunLoop { done.value == 2 })
        XCTAssertTrue(spinMainRunLoop { cores.values.count == 4 && !cores.values.contains { $0.isAlive } })
    }

    /// A command never executed, its four signals subscribed with closures that capture a token
    /// (not the command) and never disposed: released, its signals complete and let go of them.
    func testNeverExecuted_subscriptionsNeverDisposed_releasedWithTheCommand() {
        var command: TestCommand? = TestCommand(enabled: Subject()) { .return($0) }
        let completions = Counter()
        let (_, token) = trackingLifetime { token in
            command!.executionSignals.subscribe(next: { _ in _ = token }, completed: { _ = token; completions.increment() })
            command!.executing.subscribe(next: { _ in _ = token }, completed: { _ = token; completions.increment() })
            command!.enabled.subscribe(next: { _ in _ = token }, completed: { _ = token; completions.increment() })
            command!.errors.subscribe(next: { _ in _ = token }, completed: { _ = token; completions.increment() })
        }
        command = nil
        XCTAssertTrue(spinMainRunLoop { completions.value == 4 })
        XCTAssertTrue(spinMainRunLoop { !token.isAlive })
    }

    // MARK: - Dispose from inside callbacks

    /// Subscriptions disposed from inside their own callbacks get nothing more; the command goes
    /// on for the others.
    func testDispose_fromInsideCallbacks() {
        let command = TestCommand { Self.failing($0) }
        command.allowsConcurrentExecution = true
        let counts = [Counter(), Counter(), Counter(), Counter()]
        // Each subscriber knows its disposable before the replay of `executing` and `enabled`,
        // which runs inside `subscribe` on the main thread.
        command.executionSignals.subscribeDisposingInFirstValue(counting: counts[0])
        command.executing.subscribeDisposingInFirstValue(counting: counts[1])
        command.enabled.subscribeDisposingInFirstValue(counting: counts[2])
        command.errors.subscribeDisposingInFirstValue(counting: counts[3])
        let errors = command.errors.record()
        for input in 0..<3 { command.execute(input) }
        XCTAssertTrue(spinMainRunLoop { errors.values.count == 3 })
        drainMainQueue()
        XCTAssertEqual(counts.map(\.value), [1, 1, 1, 1])
    }
}

