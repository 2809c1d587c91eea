import Command
import Dispatch
import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import Synchronization
import TestSupport
import XCTest

/// `execute` from every thread, racing itself, and the exact events each signal sends.
final class ExecuteTests: LeakCheckedTestCase {
    /// Where `execute` may be called: the thread contexts of the thread matrix.
    private enum Context: CaseIterable {
        case mainThread, plainThread, globalQueue, queueScheduler

        /// Runs `body` here, spinning the main run loop until it returns.
        func run(_ body: @escaping @Sendable () -> Void) {
            let done = Atomic<Bool>(false)
            let finish: @Sendable () -> Void = {
                body()
                done.store(true, ordering: .releasing)
            }
            switch self {
            case .mainThread: finish()
            case .plainThread: Thread(block: finish).start()
            case .globalQueue: DispatchQueue.global().async(execute: finish)
            case .queueScheduler: Scheduler.background().schedule(finish)
            }
            XCTAssertTrue(spinMainRunLoop { done.load(ordering: .acquiring) }, "\(self) did not return")
        }
    }

    private static func onMain() -> Bool {
        Thread.isMainThread && Scheduler.current === Scheduler.main
    }

    func testExecute_fromEveryContext_exactEventsOnTheMainThread() {
        for context in Context.allCases {
            let subscribedOn = Recorder<Bool>()
            let command = Command<Int, Int, TestError> { input in
                Signal { subscriber in
                    subscribedOn.record(Self.onMain())
                    subscriber.sendNext(input)
                    subscriber.sendNext(input + 1)
                    subscriber.sendCompleted()
                    return nil
                }
            }
            let executing = Recorder<String>()
            let enabled = Recorder<String>()
            let executions = Recorder<String>()
            command.executing.subscribe(next: { executing.record("\($0)\(Self.onMain() ? "" : " off main")") })
            command.enabled.subscribe(next: { enabled.record("\($0)\(Self.onMain() ? "" : " off main")") })
            command.executionSignals.subscribe(next: { signal in
                executions.record(Self.onMain() ? "execution" : "execution off main")
                signal.subscribe(next: { executions.record("\($0)") }, completed: { executions.record("completed") })
            })
            let result = Lock<EventRecorder<Int, CommandError<TestError>>?>(nil)
            context.run {
                let recorder = command.execute(10).record()
                result.withLock { $0 = recorder }
            }
            XCTAssertTrue(spinMainRunLoop { result.withLock { $0?.events.count } == 3 && executing.values.count == 3 }, "\(context)")
            drainMainQueue()
            XCTAssertEqual(result.withLock { $0?.events }, [.next(10), .next(11), .completed], "\(context)")
            XCTAssertEqual(subscribedOn.values, [true], "\(context): the execution is subscribed on the main queue")
            XCTAssertEqual(executing.values, ["false", "true", "false"], "\(context)")
            XCTAssertEqual(enabled.values, ["true", "false", "true"], "\(context)")
            XCTAssertEqual(executions.values, ["execution", "10", "11", "completed"], "\(context)")
        }
    }

    func testExecute_changesExecutingAndEnabledBeforeTheWorkStarts() {
        let seen = Recorder<[Bool?]>()
        let box = Lock<Command<Void, Void, Never>?>(nil)
        let command = Command<Void, Void, Never> {
            Signal { subscriber in
                let command = box.withLock { $0 }!
                seen.record([command.executing.first(), command.enabled.first()])
                subscriber.sendCompleted()
                return nil
            }
        }
        box.withLock { $0 = command }
        XCTAssertNotNil(command.execute(()).asynchronouslyWaitUntilCompleted(timeout: 10))
        XCTAssertEqual(seen.values, [[true, false]])
        box.withLock { $0 = nil }
    }

    func testExecute_startsTheWorkWithoutASubscriber() {
        let runs = Counter()
        let command = Command<Void, Void, Never> {
            Signal { subscriber in
                runs.increment()
                subscriber.sendCompleted()
                return nil
            }
        }
        command.execute(())
        XCTAssertEqual(runs.value, 0, "the work starts on the main queue")
        XCTAssertTrue(spinMainRunLoop { runs.value == 1 })
        drainMainQueue()
        XCTAssertEqual(runs.value, 1, "subscribing the result does not run it again")
    }

    func testExecute_lateSubscriberGetsEveryValue() {
        let command = Command<Void, Int, TestError> { Signal.concat([.return(1), .return(2), .error(.first)]) }
        let result = command.execute(())
        XCTAssertNotNil(result.asynchronouslyWaitUntilCompleted(timeout: 10))
        XCTAssertEqual(result.record().events, [.next(1), .next(2), .error(.failed(.first))])
        XCTAssertEqual(result.record().events, [.next(1), .next(2), .error(.failed(.first))])
    }

    func testExecute_notEnabledRunsNothingAndNeverReachesErrors() {
        let runs = Counter()
        let command = Command<Void, Int, TestError>(enabled: .return(false)) {
            runs.increment()
            return .return(1)
        }
        let errors = command.errors.record()
        XCTAssertEqual(command.execute(()).record().events, [.error(.notEnabled)])
        drainMainQueue()
        XCTAssertEqual(runs.value, 0)
        XCTAssertEqual(errors.events, [])
    }

    func testExecute_fromItsOwnCompletionStartsAgain() {
        // The command hears an execution end before its subscribers do.
        let command = Command<Int, Int, Never> { .return($0) }
        let results = Recorder<Event<Int, CommandError<Never>>>()
        command.execute(1).subscribe(completed: {
            command.execute(2).subscribe(next: { results.record(.next($0)) }, error: { results.record(.error($0)) })
        })
        XCTAssertTrue(spinMainRunLoop { results.values.count == 1 })
        XCTAssertEqual(results.values, [.next(2)])
    }

    func testExecutionSignals_showsOnlyExecutionsStartedAfterSubscribing() {
        let command = Command<Int, Int, Never> { .return($0) }
        command.allowsConcurrentExecution = true
        command.execute(1)
        // Not yet sent on the main thread, but started before the subscription.
        let received = command.executionSignals.flatten().record()
        command.execute(2)
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == false })
        drainMainQueue()
        XCTAssertEqual(received.events, [.next(2)])
    }

    func testExecutionSignals_innerErrorIsCompletionThere() {
        let command = Command<Void, Int, TestError> { Signal.concat([.return(1), .error(.second)]) }
        let inner = Recorder<Event<Int, Never>>()
        let errors = command.errors.record()
        command.executionSignals.subscribe(next: { signal in
            signal.subscribe(next: { inner.record(.next($0)) }, completed: { inner.record(.completed) })
        })
        command.execute(())
        XCTAssertTrue(spinMainRunLoop { errors.values.count == 1 })
        XCTAssertEqual(inner.values, [.next(1), .completed])
        XCTAssertEqual(errors.values, [.second])
    }

    func testExecuting_countsOverlappingExecutions() {
        let command = Command<Subject<Void, Never>, Void, Never> { $0 }
        command.allowsConcurrentExecution = true
        let executing = command.executing.record()
        let first = Subject<Void, Never>(), second = Subject<Void, Never>()
        command.execute(first)
        command.execute(second)
        drainMainQueue()
        first.sendCompleted()
        drainMainQueue()
        XCTAssertEqual(executing.values, [false, true])
        second.sendCompleted()
        drainMainQueue()
        XCTAssertEqual(executing.values, [false, true, false])
    }

    func testAllowsConcurrentExecution_changesEnabledWhileRunning() {
        let command = Command<Void, Void, Never> { .never }
        let enabled = command.enabled.record()
        command.execute(())
        drainMainQueue()
        command.allowsConcurrentExecution = true
        XCTAssertTrue(command.allowsConcurrentExecution)
        drainMainQueue()
        command.allowsConcurrentExecution = false
        drainMainQueue()
        XCTAssertEqual(enabled.values, [true, false, true, false])
    }

    func testEnabledAndExecuting_firstValueWhereSubscribed_laterOnesOnTheMainThread() {
        let command = Command<Void, Void, Never> { .empty }
        let scheduler = QueueScheduler(name: "subscriber")
        let seen = Recorder<String>()
        let subscribed = Counter()
        scheduler.schedule {
            for (name, signal) in [("enabled", command.enabled), ("executing", command.executing)] {
                signal.subscribe(next: { value in
                    let place = Scheduler.current === scheduler ? "subscriber" : Self.onMain() ? "main" : "elsewhere"
                    seen.record("\(name) \(value) on \(place)")
                })
            }
            subscribed.increment()
        }
        XCTAssertTrue(spinMainRunLoop { subscribed.value == 1 })
        XCTAssertEqual(seen.values, ["enabled true on subscriber", "executing false on subscriber"])
        XCTAssertNotNil(command.execute(()).asynchronouslyWaitUntilCompleted(timeout: 10))
        XCTAssertTrue(spinMainRunLoop { seen.values.count == 6 })
        XCTAssertEqual(seen.values.dropFirst(2).sorted(), ["enabled false on main", "enabled true on main", "executing false on main", "executing true on main"])
    }

    /// 8 threads executing a command that disallows concurrent execution, 1,000 times:
    /// the signal block runs once, and the 7 others fail with `notEnabled` without running it.
    func testExecute_racingThreadsStartOneExecution() {
        for round in 0..<1_000 {
            let runs = Counter()
            let command = Command<Int, Int, Never> { input in
                runs.increment()
                return .return(input)
            }
            let results = Lock<[Signal<Int, CommandError<Never>>]>([])
            race { index in
                let result = command.execute(index)
                results.withLock { $0.append(result) }
            }
            XCTAssertEqual(runs.value, 1, "round \(round)")
            // On the main thread, a refused execution fails at once; the started one waits for
            // the main queue.
            let recorders = results.withLock { $0 }.map { $0.record() }
            let refused = recorders.filter { $0.events == [.error(.notEnabled)] }.count
            XCTAssertEqual(refused, 7, "round \(round)")
            XCTAssertTrue(spinMainRunLoop { recorders.allSatisfy { $0.events.last?.isFinished == true } }, "round \(round)")
            XCTAssertEqual(recorders.filter { $0.events.count == 2 && $0.events.last == .completed }.count, 1, "round \(round)")
            if runs.value != 1 || refused != 7 { return }
        }
    }

    func testExecute_racingThreadsAllStartWhenConcurrentExecutionIsAllowed() {
        for round in 0..<200 {
            let command = Command<Int, Int, Never> { .return($0) }
            command.allowsConcurrentExecution = true
            let values = command.executionSignals.flatten().record()
            let executing = command.executing.record()
            race { index in command.execute(index) }
            XCTAssertTrue(spinMainRunLoop { values.values.count == 8 && executing.values.last == false }, "round \(round)")
            XCTAssertEqual(Set(values.values), Set(0..<8), "round \(round)")
            XCTAssertEqual(executing.values.first, false)
            XCTAssertEqual(command.enabled.first(), true)
        }
    }

    func testExecute_racingEnabledChangesAndExecutions_endConsistent() {
        // The caller's enabled signal and `allowsConcurrentExecution` change on other threads
        // while executions start and end; `enabled` settles on what the state says.
        for round in 0..<100 {
            let input = Subject<Bool, Never>()
            let command = Command<Int, Int, Never>(enabled: input) { .return($0) }
            let enabled = command.enabled.record()
            race(threads: 4) { index in
                for step in 0..<20 {
                    switch index {
                    case 0: input.sendNext(step % 2 == 0)
                    case 1: command.allowsConcurrentExecution = step % 3 == 0
                    default: command.execute(step)
                    }
                }
            }
            input.sendNext(true)
            XCTAssertTrue(spinMainRunLoop { command.executing.first() == false && enabled.values.last == true }, "round \(round)")
            let changes = enabled.values
            XCTAssertFalse(zip(changes, changes.dropFirst()).contains { $0 == $1 }, "round \(round): repeated values in \(changes)")
        }
    }
}
