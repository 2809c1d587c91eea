import Foundation
import TestSupport
import XCTest

/// Every public operator of the stream types has a row in a thread matrix: this test reads the
/// library's sources for the public members of those types, reads the matrices' rows (every
/// `*ThreadMatrixTests.swift` under `Tests/`), and fails naming each member that no row calls,
/// so that an operator added without a row fails the suite.
///
/// A member counts as exercised when a row calls it by its name with argument labels that fit
/// its parameters (defaulted ones may be left out, a closure may trail). The receiver's type is
/// not checked, and overloads that differ only in their types (`zip` of a pack and of an array)
/// are one member: their rows are kept together by hand. The parsers, `PublicMember` and `Call`,
/// are TestSupport's (SourceParsing.swift), shared with the other checks that read the sources.
final class MatrixCoverageTests: LeakCheckedTestCase {
    /// The types whose public members are stream operators, constructors or subscription forms.
    /// `LazyList` counts only in the list-to-signal bridge (`signal()`, `signal(on:)`);
    /// `TestScheduler` only in the marble signals' file (`createColdSignal`, `createHotSignal`).
    static let types: [(type: String, files: String)] = [
        ("Signal", "Sources/Signals"),
        ("Signal", "Sources/Subjects"),
        ("Signal", "Sources/Sequences/Bridges/SignalBridge.swift"),
        ("SignalValues", "Sources/Signals"),
        ("TestSignal", "Sources/Signals/Testing"),
        ("TestScheduler", "Sources/Signals/Testing/TestSignals.swift"),
        ("Subject", "Sources/Subjects"),
        ("ReplaySubject", "Sources/Subjects"),
        ("BehaviorSubject", "Sources/Subjects"),
        ("GroupedSignal", "Sources/Subjects"),
        ("Channel", "Sources/Subjects"),
        ("ChannelTerminal", "Sources/Subjects"),
        ("MulticastConnection", "Sources/Subjects"),
        ("ObservableValue", "Sources/Subjects"),
        ("Property", "Sources/Subjects"),
        ("LazyList", "Sources/Sequences/Bridges/SignalBridge.swift"),
        ("Command", "Sources/Command"),
    ]

    /// Public members that are not stream operators, and so have no row of their own.
    static let notOperators: Set<String> = [
        // Debugging: the name given by `named(_:)`, which has rows (with `SignalDebug` on).
        "Signal.name",
        // What a group's values map to: a property of the group, whose subscription has rows.
        "GroupedSignal.key",
        // A cell's current value: read and written by the rows of `ObservableValue`, not a stream.
        "ObservableValue.value",
        // A property's current value: read by the rows of `Property`, not a stream.
        "Property.value",
        // The log of a test signal's subscriptions: a record, not a stream.
        "TestSignal.subscriptions",
        // The subscriber side of a subject and a channel's terminal: `subscribe(_:)` calls it when
        // one subscribes to a signal, as rows do (`source.subscribe(subject)`).
        "Subject.didSubscribe(with:)",
        "ChannelTerminal.didSubscribe(with:)",
    ]

    func testEveryPublicOperatorHasAMatrixRow() throws {
        var members: [PublicMember] = []
        for (type, path) in Self.types {
            for file in PackageSource.swiftFiles(at: path) {
                let source = try String(contentsOf: file, encoding: .utf8)
                members += PublicMember.declared(in: source).filter { $0.type == type }
            }
        }
        let rowFiles = PackageSource.swiftFiles(at: "Tests")
            .filter { $0.lastPathComponent.hasSuffix("ThreadMatrixTests.swift") }
        XCTAssertGreaterThanOrEqual(rowFiles.count, 5, "the matrices' row files were not found under \(PackageSource.root.path)/Tests")
        let initializerTypes = Set(Self.types.map(\.type))
        let calls = try rowFiles.flatMap { try Call.all(in: String(contentsOf: $0, encoding: .utf8), initializerTypes: initializerTypes) }

        // The parser must find what it is meant to: a few members of each kind.
        let names = Set(members.map(\.signature))
        for known in ["Signal.map(_:)", "Signal.take(until:)", "Signal.init(_:)", "Signal.values", "Signal.never",
                      "Signal.subscribe(next:error:completed:file:line:)", "Command.init(enabled:_:)", "Command.allowsConcurrentExecution",
                      "TestScheduler.createColdSignal(_:values:error:frame:)", "LazyList.signal(on:)", "ReplaySubject.init(capacity:)"] {
            XCTAssertTrue(names.contains(known), "the parser did not find \(known) in the sources")
        }
        // Nor more: the unavailable stubs for other libraries' spellings are not operators.
        for stub in ["Signal.debounce(_:on:)", "Signal.asObservable()", "Signal.flatMap(_:)", "MulticastConnection.refCount()"] {
            XCTAssertFalse(names.contains(stub), "the parser took the unavailable \(stub) for an operator")
        }

        let missing = members
            .filter { !Self.notOperators.contains($0.signature) && !Self.notOperators.contains("\($0.type).\($0.name)") }
            .filter { member in !calls.contains { member.fits($0) } }
            .map(\.signature)
        for signature in Set(missing).sorted() {
            XCTFail("no thread matrix row exercises \(signature): add a row (Tests/*/ThreadMatrixTests.swift), or, if it is not a stream operator, add it to MatrixCoverageTests.notOperators with the reason")
        }
        let stale = Self.notOperators.filter { excluded in !members.contains { $0.signature == excluded || "\($0.type).\($0.name)" == excluded } }
        XCTAssertEqual(stale, [], "MatrixCoverageTests.notOperators names members that no longer exist")
    }
}
