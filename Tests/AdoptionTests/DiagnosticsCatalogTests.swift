import Foundation
import TestSupport
import XCTest

/// The first error an app developer meets leads to the fix: each program of Tests/DiagnosticsCatalog
/// is a realistic mistake of someone coming from RxSwift, ReactiveSwift or Combine, type-checked as
/// a user's module against the modules of the running build, and the first error in it must name
/// the fix (`promoteError(_:)`, `mapError(_:)`, our name for their type or operator). Each mistake
/// has a corrected twin in Fixed/, which must type-check, and quickly: the hints are overloads, and
/// they must not slow the type-checking of correct code.
///
/// A mistake says what its first error must contain with `// Expect: …` lines at its top (each
/// one a part of the message), or, line by line, with a trailing `// first error: …` (the first
/// error on that line must contain it). Two `swiftc -typecheck` runs in all: the mistakes, the
/// twins.
final class DiagnosticsCatalogTests: XCTestCase {
    static let catalog = "Tests/DiagnosticsCatalog"

    /// A mistake's file and what its errors must say.
    struct Mistake {
        let name: String
        let path: String
        /// What the file's first error must contain.
        let expected: [String]
        /// What the first error on a line must contain, by line (from 1).
        let expectedByLine: [Int: String]
    }

    static func mistakes() throws -> [Mistake] {
        let directory = PackageSource.root.path + "/" + catalog + "/Mistakes"
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }.sorted()
        return try names.map { name in
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            var expected: [String] = []
            var byLine: [Int: String] = [:]
            for (index, line) in text.components(separatedBy: "\n").enumerated() {
                if line.hasPrefix("// Expect: ") {
                    expected.append(String(line.dropFirst("// Expect: ".count)).trimmingCharacters(in: .whitespaces))
                } else if let marker = line.range(of: "// first error: ") {
                    byLine[index + 1] = String(line[marker.upperBound...]).trimmingCharacters(in: .whitespaces)
                }
            }
            return Mistake(name: name, path: directory + "/" + name, expected: expected, expectedByLine: byLine)
        }
    }

    static var common: String { PackageSource.root.path + "/" + catalog + "/Common.swift" }

    /// The first errors of every mistake, type-checked once for all the tests here.
    static let mistakesOutcome = Result { () throws -> TypeCheck.Outcome in
        try TypeCheck.run(files: [common] + mistakes().map(\.path), anchor: DiagnosticsCatalogTests.self)
    }

    func testEveryMistake_hasAnExpectationAndACorrectedTwin() throws {
        let mistakes = try Self.mistakes()
        XCTAssertGreaterThanOrEqual(mistakes.count, 10, "the catalog lost its programs")
        for mistake in mistakes {
            XCTAssertFalse(mistake.expected.isEmpty && mistake.expectedByLine.isEmpty, "\(mistake.name) says nothing of what its first error must contain: add `// Expect: …` at its top, or `// first error: …` after a line")
            XCTAssertTrue(FileManager.default.fileExists(atPath: PackageSource.root.path + "/" + Self.catalog + "/Fixed/" + mistake.name), "\(mistake.name) has no corrected twin in \(Self.catalog)/Fixed")
        }
    }

    func testEveryMistake_firstErrorNamesTheFix() throws {
        let outcome = try Self.mistakesOutcome.get()
        XCTAssertFalse(outcome.timedOut, "swiftc did not finish")
        XCTAssertFalse(outcome.succeeded, "the mistakes type-checked without an error:\n\(outcome.output)")
        for mistake in try Self.mistakes() {
            let errors = outcome.errors(inFileNamed: mistake.name)
            if !mistake.expected.isEmpty {
                guard let first = errors.first else {
                    XCTFail("\(mistake.name) drew no error")
                    continue
                }
                for part in mistake.expected where !first.message.contains(part) {
                    XCTFail("the first error of \(mistake.name) should contain \"\(part)\"; it is \(first)")
                }
            }
            for (line, part) in mistake.expectedByLine.sorted(by: { $0.key < $1.key }) {
                guard let first = errors.first(where: { $0.line == line }) else {
                    XCTFail("\(mistake.name):\(line) drew no error; it should name \"\(part)\"")
                    continue
                }
                XCTAssertTrue(first.message.contains(part), "the first error of \(mistake.name):\(line) should contain \"\(part)\"; it is \(first)")
            }
        }
    }

    /// The corrected twins type-check with no error and no expression slower than the threshold
    /// (`-warn-long-expression-type-checking`, in milliseconds: generous, for a loaded machine
    /// and a sanitized build's tests running beside it; a hint that made the solver explore
    /// exponentially many overloads would cross it by far).
    func testEveryCorrectedTwin_typeChecksQuickly() throws {
        let directory = PackageSource.root.path + "/" + Self.catalog + "/Fixed"
        let twins = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }.sorted().map { directory + "/" + $0 }
        let outcome = try TypeCheck.run(
            files: [Self.common] + twins,
            extraArguments: ["-Xfrontend", "-warn-long-expression-type-checking=1000"],
            anchor: DiagnosticsCatalogTests.self
        )
        XCTAssertFalse(outcome.timedOut, "swiftc did not finish")
        XCTAssertTrue(outcome.succeeded, "the corrected twins no longer type-check:\n\(outcome.output)")
        let slow = outcome.diagnostics.filter { $0.kind == "warning" && $0.message.contains("to type-check") }
        XCTAssertTrue(slow.isEmpty, "expressions slow to type-check: \(slow)")
    }

    /// Every type name of another library and every hint (Sources' unavailable top-level
    /// declarations, and members documented "A hint, not an operator") is reached by a mistake of
    /// the catalog: its name is in some mistake's errors.
    func testEveryTypeNameAndHint_isReachedByAMistake() throws {
        let outcome = try Self.mistakesOutcome.get()
        let messages = outcome.diagnostics.filter { $0.kind == "error" }.map(\.message)
        var declared = try PackageSource.unavailableTopLevelDeclarations().map { (name: $0.name, location: $0.location) }
        for file in PackageSource.swiftFiles(at: "Sources") {
            let path = PackageSource.relativePath(of: file)
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.contains("/// A hint, not an operator: `") {
                guard let start = line.range(of: "`"), let end = line[start.upperBound...].firstIndex(where: { $0 == "(" || $0 == "`" }) else { continue }
                let name = String(line[start.upperBound..<end])
                // A type's name (`Signal { try await … }`, `Lifetime()`) stands for an initializer.
                declared.append((name.first?.isUppercase == true ? "init" : name, "\(path):\(index + 1)"))
            }
        }
        XCTAssertGreaterThanOrEqual(declared.count, 30, "the declarations were not read")
        for (name, location) in declared where !messages.contains(where: { $0.contains("'\(name)") }) {
            XCTFail("\(name) (\(location)) is reached by no mistake of \(Self.catalog): add one, with its corrected twin")
        }
    }
}
