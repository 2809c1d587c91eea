@testable import Command
import Signals
import TestSupport
import XCTest

/// The command's state machine on its own, with no thread and no main queue: what each change
/// queues for the main thread.
final class CommandStateTests: LeakCheckedTestCase {
    private typealias State = CommandState<Int, TestError>

    /// The pending events, in a form that compares.
    private func take(_ state: inout State) -> [String] {
        (state.takePending() ?? []).map { event in
            switch event {
            case let .executing(value): "executing \(value)"
            case let .enabled(value): "enabled \(value)"
            case let .started(execution): "started \(execution.index)"
            case .subscribe: "subscribe"
            case let .failed(error): "failed \(error)"
            case .finished: "finished"
            }
        }
    }

    private func started() -> State {
        var state = State()
        XCTAssertTrue(state.publishInitialEnabled())
        return state
    }

    func testBegin_queuesExecutingAndEnabledChanges() {
        var state = started()
        XCTAssertEqual(state.begin(), 0)
        XCTAssertEqual(take(&state), ["executing true", "enabled false"])
        XCTAssertEqual(state.running, 1)
    }

    func testBegin_refusedWhileRunningUnlessConcurrent() {
        var state = started()
        XCTAssertEqual(state.begin(), 0)
        XCTAssertNil(state.begin())
        XCTAssertEqual(state.running, 1)
        XCTAssertEqual(state.started, 1)
        _ = take(&state)
        state.setAllowsConcurrentExecution(true)
        XCTAssertEqual(take(&state), ["enabled true"])
        XCTAssertEqual(state.begin(), 1)
        XCTAssertEqual(state.begin(), 2)
        // Overlapping executions change nothing that was sent.
        XCTAssertEqual(take(&state), [])
        XCTAssertEqual(state.running, 3)
    }

    func testEnd_queuesTheErrorBeforeTheChanges() {
        var state = started()
        _ = state.begin()
        _ = take(&state)
        state.end(failing: .first)
        XCTAssertEqual(take(&state), ["failed first", "executing false", "enabled true"])
    }

    func testEnd_executingStaysTrueUntilTheLastEnds() {
        var state = started()
        state.setAllowsConcurrentExecution(true)
        _ = state.begin()
        _ = state.begin()
        XCTAssertEqual(take(&state), ["executing true"])
        state.end(failing: nil)
        XCTAssertEqual(take(&state), [])
        state.end(failing: .second)
        XCTAssertEqual(take(&state), ["failed second", "executing false"])
    }

    func testEnabledInput_onlyChangesAreQueued() {
        var state = started()
        state.setEnabledInput(true)
        XCTAssertEqual(take(&state), [])
        state.setEnabledInput(false)
        state.setEnabledInput(false)
        XCTAssertEqual(take(&state), ["enabled false"])
        XCTAssertNil(state.begin())
        // Disabled and then running: only `enabled` counts what the input says.
        state.setEnabledInput(true)
        XCTAssertEqual(take(&state), ["enabled true"])
    }

    func testEnabledInput_beforeTheInitialValueIsFoldedIntoIt() {
        var state = State()
        state.setEnabledInput(false)
        state.setEnabledInput(true)
        state.setEnabledInput(false)
        XCTAssertEqual(take(&state), [])
        XCTAssertFalse(state.publishInitialEnabled())
    }

    func testAllowsConcurrentExecution_changesEnabledOnlyWhileRunning() {
        var state = started()
        state.setAllowsConcurrentExecution(true)
        state.setAllowsConcurrentExecution(false)
        XCTAssertEqual(take(&state), [])
        _ = state.begin()
        XCTAssertEqual(take(&state), ["executing true", "enabled false"])
        state.setAllowsConcurrentExecution(true)
        XCTAssertEqual(take(&state), ["enabled true"])
        state.setAllowsConcurrentExecution(false)
        XCTAssertEqual(take(&state), ["enabled false"])
    }

    func testDrain_claimedOnceUntilEmpty() {
        var state = started()
        XCTAssertFalse(state.claimDrain(), "nothing pending")
        _ = state.begin()
        XCTAssertTrue(state.claimDrain())
        XCTAssertFalse(state.claimDrain(), "a block is queued already")
        state.setEnabledInput(false)
        XCTAssertFalse(state.claimDrain())
        XCTAssertEqual(take(&state), ["executing true", "enabled false"])
        XCTAssertNil(state.takePending(), "empty: the block stops")
        state.end(failing: nil)
        XCTAssertTrue(state.claimDrain(), "a new block for what came after it stopped")
    }

    func testFinish_keepsFinishedLastUntilTakenThenQueuesNothing() {
        var state = started()
        _ = state.begin()
        state.finish()
        XCTAssertNil(state.begin(), "a released command starts nothing")
        // An execution ending before `finished` is sent still shows, before it.
        state.end(failing: .first)
        state.setEnabledInput(false)
        XCTAssertEqual(take(&state), ["executing true", "enabled false", "failed first", "executing false", "enabled true", "enabled false"])
        XCTAssertFalse(state.isFinished)
        XCTAssertEqual(take(&state), ["finished"])
        XCTAssertTrue(state.isFinished)
        state.setEnabledInput(true)
        state.setAllowsConcurrentExecution(true)
        XCTAssertNil(state.takePending())
    }

    func testFinish_eventsQueuedAfterFinishedWasTakenAreDropped() {
        var state = started()
        _ = state.begin()
        state.finish()
        XCTAssertEqual(take(&state), ["executing true", "enabled false"])
        // What the batch before `finished` causes still comes before it.
        state.end(failing: nil)
        XCTAssertEqual(take(&state), ["executing false", "enabled true"])
        XCTAssertEqual(take(&state), ["finished"])
        state.setEnabledInput(false)
        XCTAssertNil(state.takePending())
        XCTAssertFalse(state.claimDrain())
    }
}
