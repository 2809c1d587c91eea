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

/// A hostile review of `Command`, part two: ordering, exact sequences, lifetimes and disposal
/// from inside callbacks; each a small repro, cleaned up as in ``ReviewTests``.
final class ReviewOrderingTests: LeakCheckedTestCase {
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
                let place = Scheduler.current === scheduler ? "scheduler" : onMain() ? "main" : "elsewhere"
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
                // Subscribed with a scheduler current, so that a refusal (a signal that fails with
                // `.notEnabled` as it is subscribed) has arrived when `record()` returns, without
                // waiting for a background scheduler; a started execution sends nothing before the
                // main queue runs, which waits for this thread.
                var events: EventRecorder<Int, CommandError<TestError>>?
                Scheduler.immediate.performAsCurrentScheduler {
                    events = holder.object!.execute(1).record()
                }
                outcome.record(events?.events != [.error(.notEnabled)])
                done.signal()
            }.start()
            XCTAssertTrue(done.waitForSignal(), "the executing thread did not finish")
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
        let command = TestCommand { failing($0) }
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
        // The subscriptions to the enabled signal go through the subscription scheduler's serial
        // background queue: once a block queued there now has run, none is still to be made.
        let drained = DispatchSemaphore(value: 0)
        onAPlainThread { Scheduler.subscription.schedule { drained.signal() } }
        XCTAssertTrue(drained.waitForSignal(), "the subscription scheduler did not run")
        XCTAssertTrue(
            eventually { active.load(ordering: .relaxed) == 0 },
            "\(runs.value) subscriptions made, \(active.load(ordering: .relaxed)) still active"
        )
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
        let command = TestCommand { failing($0) }
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

