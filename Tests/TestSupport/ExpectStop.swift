#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Checks that `body` stops the program, with a message on the standard error that contains
/// `expected`, by running it in a child process; returns `nil` when it did, or what went wrong.
///
/// The library stops the program on bad input (`checkInput`, `badInput`, whose message survives
/// `-O`), which a test cannot survive, so each such case runs in a child: a new run of the test
/// binary that runs only the calling test, with the environment variable
/// ``expectStopCaseVariable`` naming the case. The child runs the test from its start; when it
/// reaches the `expectStop` call of that name it runs `body`, which must stop it, and every other
/// `expectStop` call in it returns `nil` at once. The parent waits for the child, at most
/// `timeout` seconds (then kills it), and checks that it ran the case, that it ended with a signal
/// or a non-zero status, and that its standard error contains `expected`.
///
/// Call it from the XCTest test method itself, passing the test case as `test`, and assert that
/// it returns `nil`:
///
/// ```swift
/// func testSchedule_aNaNDelayStops() {
///     XCTAssertNil(expectStop("NaN delay", in: self, messageContains: "needs a delay that is a number, got nan") {
///         QueueScheduler(name: "NaN").schedule(afterDelay: .nan) {}
///     })
/// }
/// ```
///
/// Several cases may share a test method (a table of them, in a loop), each with its own `name`;
/// the child runs the test method from its start, so the code before the case runs again there,
/// and must not depend on what an earlier case did. Works in debug and release builds (release
/// tests need `-enable-testing` for their `@testable` imports only), under `swift test` and with
/// the test binary run directly; on Linux the child is the `.xctest` executable run with
/// `Module.Class/method`, on Apple platforms the `xctest` tool run with `-XCTest Module.Class/method`
/// and the test bundle. The child's crash report (the Swift backtracer) is turned off, to keep it
/// fast.
///
/// - Parameters:
///   - name: The case's name, unique within the test method; it names the case in the child's
///     environment and in failure messages.
///   - test: The running test case (`self` in an `XCTestCase`); its type names the test class.
///   - expected: Text the child's standard error must contain: the stop message, or part of it.
///   - timeout: Seconds the child may take before it is killed and the case fails.
///   - function: The test method; the default, `#function` at the call, is right when it is called
///     from the test method itself.
///   - body: The code that must stop the program; it runs only in the child.
/// - Returns: `nil` when the child ran the case and stopped with the message; otherwise a
///   description of what happened (the case returned, another message, a timeout, the case not
///   reached), with the end of the child's output, for `XCTAssertNil` or `XCTFail`.
public func expectStop(
    _ name: String,
    in test: AnyObject,
    messageContains expected: String,
    timeout: TimeInterval = 60,
    function: String = #function,
    _ body: () -> Void
) -> String? {
    if let requested = ProcessInfo.processInfo.environment[expectStopCaseVariable] {
        guard requested == name else { return nil }
        runCaseAndExit(name, body)
    }
    let method = function.hasSuffix("()") ? String(function.dropLast(2)) : function
    let specifier = "\(String(reflecting: type(of: test)))/\(method)"
    guard let executable = Bundle.main.executablePath ?? CommandLine.arguments.first else {
        return "expectStop(\"\(name)\"): could not find this test binary to run \(specifier) in a child process"
    }
    #if canImport(Darwin)
    // The test bundle is loaded by the `xctest` tool, which is this process's executable.
    let arguments = ["-XCTest", specifier, Bundle(for: type(of: test)).bundlePath]
    #else
    let arguments = [specifier]
    #endif
    let outcome: ChildProcessOutcome
    do {
        outcome = try runChildProcess(executable, arguments: arguments, environment: [
            expectStopCaseVariable: name,
            "SWIFT_BACKTRACE": "enable=no",
        ], timeout: timeout)
    } catch {
        return "expectStop(\"\(name)\"): could not start the child process for \(specifier): \(error)"
    }
    return outcome.failure(case: name, specifier: specifier, expected: expected)
}

/// The environment variable that tells a child started by
/// ``expectStop(_:in:messageContains:timeout:function:_:)`` which case to run.
public let expectStopCaseVariable = "EXPECT_STOP_CASE"

/// The exit status of a child whose case returned instead of stopping the program.
private let caseReturnedStatus: Int32 = 86

/// What a child writes to its standard error before it runs the case, so that the parent knows
/// the case was reached.
private func runningMarker(_ name: String) -> String {
    "expectStop: running case \"\(name)\"\n"
}

/// In the child: runs `body`, which should stop the program; if it returns, says so and exits
/// with ``caseReturnedStatus``, without running the rest of the test.
private func runCaseAndExit(_ name: String, _ body: () -> Void) -> Never {
    FileHandle.standardError.write(Data(runningMarker(name).utf8))
    body()
    FileHandle.standardError.write(Data("expectStop: case \"\(name)\" returned without stopping the program\n".utf8))
    fflush(nil)
    _exit(caseReturnedStatus)
}

extension ChildProcessOutcome {
    /// `nil` when the child ran case `name` and stopped with `expected` on its standard error;
    /// otherwise what happened.
    fileprivate func failure(case name: String, specifier: String, expected: String) -> String? {
        let ran = standardError.contains(runningMarker(name))
        let stopped = signalled || (status != 0 && status != caseReturnedStatus)
        if ran, stopped, !timedOut, standardError.contains(expected) { return nil }
        let what: String
        if timedOut {
            what = "did not end in time and was killed"
        } else if !ran {
            what = "never reached the case: is `name` the case's, and `function` the test method \(specifier) runs?"
        } else if !signalled && status == caseReturnedStatus {
            what = "returned without stopping the program"
        } else if !stopped {
            what = "ended normally (status \(status)) instead of stopping"
        } else {
            what = "stopped, but its standard error does not contain \"\(expected)\""
        }
        let ending = signalled ? "signal \(status)" : "exit status \(status)"
        // The stop message follows the marker; a stack trace may follow it.
        let caseOutput = standardError.range(of: runningMarker(name)).map { String(standardError[$0.lowerBound...]) }
        return "expectStop(\"\(name)\") in \(specifier): the child \(what) (\(ending)).\n"
            + "Standard error (from the case on, start):\n\(Self.head(caseOutput ?? standardError))\n"
            + "Standard output (end):\n\(Self.tail(standardOutput))"
    }

    fileprivate static func head(_ text: String) -> String {
        text.count <= 2_000 ? text : text.prefix(2_000) + "…"
    }

    fileprivate static func tail(_ text: String) -> String {
        text.count <= 2_000 ? text : "…" + text.suffix(2_000)
    }
}
