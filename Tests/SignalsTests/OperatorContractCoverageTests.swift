import Foundation
import TestSupport
import XCTest

/// Every public one-input operator of `Signal` is checked by the operator contract
/// (Tests/SignalsOperatorsTests/OperatorContractTests.swift), or says why it cannot be: this test
/// reads the library's sources for the public instance methods of `Signal` that return a signal,
/// reads the contract's rows (the `operators` list of OperatorContractTests), and fails naming
/// each method that no row calls and that `exempt` does not list, so that an operator added
/// without a row fails the suite.
///
/// A method counts as called when a row calls it on a value (`signal.map { … }`, not
/// `Signal.zip(…)`) by its name with argument labels that fit its parameters (defaulted ones may be
/// left out, a closure may trail), as in MatrixCoverageTests, whose parsers (TestSupport's
/// SourceParsing.swift) this test shares. Overloads that differ only in their types are one method.
final class OperatorContractCoverageTests: XCTestCase {
    /// Where the library declares methods on `Signal`: module Signals (its operators, its
    /// streams, its core), and the operators that modules Subjects and Sequences add.
    static let sources = ["Sources/Signals", "Sources/Subjects", "Sources/Sequences"]

    /// The operator contract's rows.
    static let contract = "Tests/SignalsOperatorsTests/OperatorContractTests.swift"

    /// Methods of `Signal` that return a signal but that no contract row can check, each with the
    /// reason. The contract's rows take a `Signal<Int, TestError>` that sends 1, 2, 3 and must
    /// pass exactly those on, synchronously, with its error and completion; see
    /// OperatorContractTests for the rules.
    static let exempt: [String: String] = [
        // Hold values back: an error or a disposal loses the values before it, which the contract
        // expects passed on as they come.
        "Signal.aggregate(_:_:)": "folds every value into one, sent at completion",
        "Signal.aggregate(_:withIndex:)": "folds every value into one, sent at completion",
        "Signal.aggregate(startFactory:_:)": "folds every value into one, sent at completion",
        "Signal.collect()": "gathers every value into one array, sent at completion",
        "Signal.take(last:)": "holds the values until completion",
        "Signal.buffer(_:on:)": "holds the values until its interval passes on the scheduler, which no row's clock does",
        "Signal.throttle(_:on:)": "a debounce: a value waits until the interval passes without a newer one (no row's clock moves), so only 3 comes, at completion; throttle(_:on:valuesPassing:) has the row",
        "Signal.throttle(_:)": "a debounce on the scheduler current at each value: a value waits, so only the last comes; throttle(_:valuesPassing:) has the row",
        "Signal.rateLimit(_:on:latest:)": "sends the first value, then holds or drops the others until a window ends on the scheduler, which no row's clock does",
        "Signal.pace(_:on:)": "sends the first value, then holds the others, and completion, until an interval ends on the scheduler (Scheduler.immediate stops the program), which no row's clock does",
        "Signal.pace(_:on:bufferingAtMost:whenFull:)": "sends the first value, then holds the others, and completion, until an interval ends on the scheduler, which no row's clock does",
        "Signal.delay(_:)": "waits on the scheduler current where each value is sent (the main queue, in a test), so nothing comes in the subscribing call; delay(_:on:) has the row, with Scheduler.immediate",
        // Send something other than the values, which no row can turn back into 1, 2, 3.
        "Signal.any()": "answers one Bool, and completes at the first value",
        "Signal.any(_:)": "answers one Bool, and completes at the first value that passes",
        "Signal.all(_:)": "answers one Bool, at completion or at the first value that fails",
        "Signal.ignoreValues()": "drops every value",
        "Signal.then(_:)": "drops every value, then sends another signal's",
        "Signal.catch(to:)": "replaces an error with a fixed signal, which cannot send the error it replaced; catch(_:) has the row",
        // Several inputs: no second input lets the source's 1, 2, 3, error and completion
        // through as they are (a second subscription to the source would fail the disposal rule,
        // which counts one).
        "Signal.combineLatest(with:)": "sends nothing until the other input has sent, so the source's first values are lost; the Signal.combineLatest([signal]) row checks the machinery",
        "Signal.zip(with:)": "pairs each value with one of the other input's and ends with the shorter; the Signal.zip([signal]) row checks the machinery",
        "Signal.sample(_:)": "sends the latest value when the sampler sends, not when the source does",
        "Signal.take(untilReplacement:)": "does not send the source's completion: it ends with the replacement's",
        // Subscribe again: a source's events come more than once.
        "Signal.repeat()": "resubscribes at completion, so a source that completes never ends",
        "Signal.retry()": "resubscribes at an error, so the values before it come again",
        "Signal.retry(_:)": "resubscribes at an error, so the values before it come again",
        "Signal.retry(_:delay:on:)": "resubscribes at an error, after a delay, so the values before it come again",
        // Not an operator.
        "Signal.named(_:)": "names the signal itself and returns it",
        // Module Subjects, which the contract's target (it depends on Signals alone) cannot import.
        "Signal.group(by:transform:)": "module Subjects; sends a signal per key, not the values",
        "Signal.group(by:)": "module Subjects; sends a signal per key, not the values",
        "Signal.replay()": "module Subjects; a multicast: a subscriber's disposal leaves the shared subscription to the source, which it never disposes",
        "Signal.replayLast()": "module Subjects; a multicast: a subscriber's disposal leaves the shared subscription to the source, which it never disposes",
        "Signal.replayLazily()": "module Subjects; a multicast: a subscriber's disposal leaves the shared subscription to the source, which it never disposes",
        "Signal.share(replay:)": "module Subjects; a multicast whose subscribers share one subscription to the source; ShareTests (Tests/SubjectsTests) checks the contract's rules on it: the events, disposal, disposal inside a callback, and that nothing outlives the end",
    ]

    func testEveryOneInputOperatorHasAContractRow() throws {
        var operators: [PublicMember] = []
        for path in Self.sources {
            for file in PackageSource.swiftFiles(at: path) {
                let source = try String(contentsOf: file, encoding: .utf8)
                operators += PublicMember.declared(in: source, file: PackageSource.relativePath(of: file))
                    .filter { $0.type == "Signal" && !$0.isStatic && $0.parameters != nil && $0.name != "init" && $0.returnsSignal }
            }
        }
        let contract = SourceText.masked(try PackageSource.read(Self.contract))
        let rows = try XCTUnwrap(SourceText.arrayLiteral(assignedTo: "operators", in: contract), "no `let operators = [...]` in \(Self.contract)")
        let calls = Call.all(inCode: Array(contract[rows]), initializerTypes: ["Signal"]).filter { $0.receiver == .value }

        // The parsers must find what they are meant to: operators of each home, and rows' calls.
        let signatures = Set(operators.map(\.signature))
        for known in ["Signal.map(_:)", "Signal.take(until:)", "Signal.flattenMap(_:)", "Signal.replayLazily()", "Signal.named(_:)",
                      "Signal.catch(to:)", "Signal.dematerialize()"] {
            XCTAssertTrue(signatures.contains(known), "the parser did not find the operator \(known) in \(Self.sources)")
        }
        for notOperator in ["Signal.subscribe(next:error:completed:file:line:)", "Signal.first()", "Signal.values", "Signal.return(_:)",
                            "Signal.zip(_:)", "Signal.publish()", "Signal.debounce(_:on:)", "Signal.lazyList"] {
            XCTAssertFalse(signatures.contains(notOperator), "the parser took \(notOperator) for a one-input operator")
        }
        for known in ["map", "startWith", "skip", "switchToLatest", "take"] {
            XCTAssertTrue(calls.contains { $0.name == known }, "the parser found no row calling \(known) in \(Self.contract)")
        }
        XCTAssertFalse(calls.contains { $0.name == "zip" }, "the parser took `Signal.zip([signal])` for a call on a signal")

        var reported: Set<String> = []
        for method in operators where Self.exempt[method.signature] == nil && !calls.contains(where: method.fits) {
            guard reported.insert(method.signature).inserted else { continue }
            XCTFail("""
                no operator contract row calls \(method.signature) (\(method.location)): add a row to `operators` in \
                \(Self.contract) (it must pass 1, 2, 3, the error and completion through unchanged: see the rules there), \
                or, if the contract cannot fit it, add it to OperatorContractCoverageTests.exempt with the reason
                """)
        }
        for (signature, _) in Self.exempt.sorted(by: { $0.key < $1.key }) {
            let methods = operators.filter { $0.signature == signature }
            if methods.isEmpty {
                XCTFail("OperatorContractCoverageTests.exempt names \(signature), which is no longer a public operator of Signal: remove it")
            } else if methods.contains(where: { method in calls.contains(where: method.fits) }) {
                XCTFail("OperatorContractCoverageTests.exempt names \(signature), which a contract row calls: remove it from exempt")
            }
        }
    }
}
