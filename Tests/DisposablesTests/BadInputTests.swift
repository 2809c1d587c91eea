import Disposables
import Foundation
import TestSupport
import XCTest

/// `checkInput` and `badInput` stop the program with their message, in debug and release builds;
/// and `expectStop`, which the tests of every module use to see it, tells a stop from anything
/// else.
final class BadInputTests: LeakCheckedTestCase {
    func testCheckInput_stopsWithItsMessage() {
        XCTAssertNil(expectStop("a failed check", in: self, messageContains: "take(_:) needs a count of zero or more, got -1") {
            checkInput(false, "take(_:) needs a count of zero or more, got \(-1)")
        })
    }

    func testBadInput_stopsWithItsMessage() {
        XCTAssertNil(expectStop("bad input", in: self, messageContains: "Fatal error: flatten(maxConcurrent:) needs a limit") {
            badInput("flatten(maxConcurrent:) needs a limit of zero (none) or more, got -2")
        })
    }

    func testCheckInput_buildsNoMessageWhenTheConditionHolds() {
        let built = Counter()
        checkInput(true, { built.increment(); return "unused" }())
        XCTAssertEqual(built.value, 0)
    }

    func testExpectStop_reportsACaseThatReturns() throws {
        let failure = try XCTUnwrap(expectStop("returns", in: self, messageContains: "anything") {})
        XCTAssertTrue(failure.contains("returned without stopping the program"), failure)
    }

    func testExpectStop_reportsAnotherMessage() throws {
        let failure = try XCTUnwrap(expectStop("another message", in: self, messageContains: "the message wanted") {
            badInput("a message not wanted")
        })
        XCTAssertTrue(failure.contains("does not contain \"the message wanted\""), failure)
        XCTAssertTrue(failure.contains("a message not wanted"), "the child's standard error is shown: \(failure)")
    }

    func testExpectStop_reportsACaseNeverReached() throws {
        let failure = try XCTUnwrap(expectStop("elsewhere", in: self, messageContains: "anything", function: "testNoSuchTest()") {
            badInput("anything")
        })
        XCTAssertTrue(failure.contains("never reached the case"), failure)
    }

    func testExpectStop_killsACaseThatHangs() throws {
        let failure = try XCTUnwrap(expectStop("hangs", in: self, messageContains: "anything", timeout: 1) {
            while true { sleep(1) }
        })
        XCTAssertTrue(failure.contains("did not end in time"), failure)
    }

    func testExpectStop_runsOnlyItsOwnCaseInTheChild() {
        // The child of each case runs this test from its start: the other case must not run there
        // (it would stop with the other message), and no child may start a child of its own.
        for (name, message) in [("first", "the first case"), ("second", "the second case")] {
            XCTAssertNil(expectStop(name, in: self, messageContains: message) {
                badInput(message)
            })
        }
    }
}
