import Command
import Signals
import TestSupport
import XCTest

final class SmokeTests: XCTestCase {
    func testSmoke() {
        let command = Command<Int, Int, TestError> { .return($0 * 10) }
        let executions = command.executionSignals.flatten().record()
        let executing = command.executing.record()
        let enabled = command.enabled.record()
        let result = command.execute(1).record()
        XCTAssertEqual(result.events, [])
        spinMainRunLoop { result.events.count == 2 }
        drainMainQueue()
        XCTAssertEqual(result.events, [.next(10), .completed])
        XCTAssertEqual(executions.events, [.next(10)])
        XCTAssertEqual(executing.events, [.next(false), .next(true), .next(false)])
        XCTAssertEqual(enabled.events, [.next(true), .next(false), .next(true)])
    }
}
