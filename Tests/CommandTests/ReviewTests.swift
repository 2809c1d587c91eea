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

/// A hostile review of `Command`, part one: huge numbers, release and execute from inside every
/// callback, and deadlocks; each a small repro. Subscriptions whose closures reach the command are
/// disposed (or the command let go of through a ``Holder``) before the test ends.
final class ReviewTests: LeakCheckedTestCase {
    // MARK: - Huge numbers

    /// 100,000 executions (20,000 under a sanitizer) queued before the main queue runs: the drain
    /// must yield to other main-queue work after about `drainBudget` events (its doc comment: "how
    /// many events one main-queue block sends at most"), and still deliver everything in order.
    func testDrain_hugeBacklogYieldsToOtherMainQueueWork_andKeepsOrder() {
        let count = BuildKind.rounds(100_000, sanitized: 20_000)
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
            let holder = Holder<TestCommand>(TestCommand { failing($0) })
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
                waited.record(done.wait(timeout: .now() + defaultWaitSeconds))
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

    /// A background thread reads `executing.first()` while the main thread, inside an
    /// `executing` callback, waits for it. The replay to the background subscriber runs on the
    /// subscribing thread, never as the subject's deliverer, so the read does not wait for the
    /// blocked main thread (RAC 2.5 deadlocks here on its replay subject's lock, and so did this
    /// library while a replay ran as the deliverer).
    func testBackgroundReadsExecutingWhileMainWaitsInsideExecuting_doesNotWaitForTheCallback() {
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
            waited.record(done.wait(timeout: .now() + 10))
        })
        command.execute(1)
        XCTAssertTrue(spinMainRunLoop { read.values.count == 1 && command.executing.first() == false })
        XCTAssertEqual(waited.values, [.success])
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
}
