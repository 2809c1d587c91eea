import Command
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

/// A command whose own signals feed back into it: its enabled signal made from `executing`, and
/// executions started from its signals' callbacks. Nothing deadlocks, loops or reorders.
final class FeedbackTests: LeakCheckedTestCase {
    func testExecutingFedBackIntoEnabled_neitherDeadlocksNorLoops() {
        let enabledInput = Subject<Bool, Never>()
        let command = Command<Int, Int, Never>(enabled: enabledInput) { .return($0) }
        let feedback = command.executing.map { !$0 }.subscribe(next: { enabledInput.sendNext($0) })
        let enabled = command.enabled.record()
        let executing = command.executing.record()
        for input in 1...3 {
            XCTAssertNotNil(command.execute(input).asynchronouslyWaitUntilCompleted(timeout: 10))
            drainMainQueue()
        }
        XCTAssertEqual(executing.values, [false, true, false, true, false, true, false])
        XCTAssertEqual(enabled.values, [true, false, true, false, true, false, true])
        feedback.dispose()
    }

    func testExecutingFedBackIntoEnabledFromAnotherThread() {
        // The feedback arrives on a background scheduler, racing the main queue.
        let enabledInput = Subject<Bool, Never>()
        let command = Command<Int, Int, Never>(enabled: enabledInput) { .return($0) }
        let feedback = command.executing.deliver(on: Scheduler.background()).map { !$0 }
            .subscribe(next: { enabledInput.sendNext($0) })
        let enabled = command.enabled.record()
        var completed = 0
        for input in 0..<50 {
            // The feedback may not have re-enabled the command yet: try until it has.
            guard spinMainRunLoop(until: { command.enabled.first() == true }) else { return XCTFail("never re-enabled") }
            if case .success? = command.execute(input).asynchronouslyWaitUntilCompleted(timeout: 10) { completed += 1 }
        }
        XCTAssertGreaterThan(completed, 0)
        XCTAssertTrue(spinMainRunLoop { enabled.values.last == true })
        let changes = enabled.values
        XCTAssertFalse(zip(changes, changes.dropFirst()).contains { $0 == $1 }, "repeated values in \(changes)")
        feedback.dispose()
    }

    func testEnabledFedBackIntoExecute_chainsExecutions() {
        // Each time the command is enabled again, its `enabled` subscriber executes it again.
        let command = Command<Void, Int, Never> { .return(1) }
        let runs = Counter()
        let chain = command.enabled.subscribe(next: { enabled in
            guard enabled, runs.value < 100 else { return }
            runs.increment()
            command.execute(())
        })
        XCTAssertTrue(spinMainRunLoop { runs.value == 100 && command.executing.first() == false })
        drainMainQueue()
        XCTAssertEqual(runs.value, 100)
        chain.dispose()
    }

    func testExecuteFromExecutionSignals_refusedWhileRunning() {
        let command = Command<Int, Int, Never> { .return($0) }
        let refused = Recorder<[Event<Int, CommandError<Never>>]>()
        let subscription = command.executionSignals.subscribe(next: { _ in
            refused.record(command.execute(0).record().events)
        })
        XCTAssertNotNil(command.execute(1).asynchronouslyWaitUntilCompleted(timeout: 10))
        XCTAssertEqual(refused.values, [[.error(.notEnabled)]])
        subscription.dispose()
    }

    func testAllowsConcurrentExecutionChangedFromEnabled() {
        let command = Command<Void, Void, Never> { .never }
        let enabled = command.enabled.record()
        let toggles = command.enabled.subscribe(next: { enabled in
            if !enabled { command.allowsConcurrentExecution = true }
        })
        command.execute(())
        XCTAssertTrue(spinMainRunLoop { enabled.values == [true, false, true] })
        drainMainQueue()
        XCTAssertEqual(enabled.values, [true, false, true])
        toggles.dispose()
    }
}
