#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TestSupport
import XCTest

/// `.ci/check-imports.swift`, the check CI runs before anything builds: no target imports a module
/// of the package that it does not depend on, directly or through its dependencies (such a target
/// builds only when something else built that module first, so a fresh clone's `swift test -j 1`
/// fails). The check is run on this package, and on small packages made to pass and to fail.
final class ImportCheckTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func testThisPackage_importsOnlyModulesItsTargetsDependOn() throws {
        let outcome = try checkImports(of: Self.root)
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput + outcome.standardError)
        XCTAssertTrue(outcome.standardOutput.contains("every import of a package module is declared"), outcome.standardOutput)
    }

    func testAnUndeclaredImport_failsNamingTheFileTheImportAndTheFix() throws {
        try withPackage([
            "Sources/Low/Low.swift": "public let low = 1\n",
            // Declared through Middle: passes.
            "Sources/Middle/Middle.swift": "@_exported import Low\n",
            "Sources/High/High.swift": "import Foundation\nimport Middle\nimport Low\n",
            // Not declared.
            "Sources/Stray/Stray.swift": "// Uses Low without saying so.\n@testable import Low\n",
            // Inside a string literal that a test compiles: that module must be built too.
            "Tests/StrayTests/StrayTests.swift": "let source = \"\"\"\n    import struct Middle.Thing\n    \"\"\"\n",
        ]) { package in
            let outcome = try checkImports(of: package)
            XCTAssertEqual(outcome.status, 1, outcome.standardOutput + outcome.standardError)
            let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.count, 3, outcome.standardOutput)
            XCTAssertTrue(lines[0].hasPrefix(
                "Sources/Stray/Stray.swift:2:18: error: Stray imports Low, which it does not depend on, directly or through its dependencies"
            ), lines[0])
            XCTAssertTrue(lines[0].contains("Fix: add \"Low\" to Stray's dependencies in Package.swift"), lines[0])
            XCTAssertTrue(lines[1].hasPrefix(
                "Tests/StrayTests/StrayTests.swift:2:19: error: StrayTests imports Middle, which it does not depend on"
            ), lines[1])
            XCTAssertTrue(lines[1].contains("else move the test that needs Middle to a test target that depends on it"), lines[1])
            XCTAssertTrue(lines[2].hasPrefix("check-imports: 2 undeclared imports"), lines[2])
        }
    }

    func testAManifestThatDoesNotEvaluate_isReportedAsSuch() throws {
        try withPackage(["Sources/Low/Low.swift": ""], manifest: "this is not Swift") { package in
            let outcome = try checkImports(of: package)
            XCTAssertEqual(outcome.status, 2, outcome.standardOutput + outcome.standardError)
            XCTAssertTrue(outcome.standardError.contains("dump-package` failed"), outcome.standardError)
        }
    }

    // MARK: - Helpers

    /// Runs the check on the package at `path`.
    private func checkImports(of path: String) throws -> ChildProcessOutcome {
        let swift = try XCTUnwrap(Toolchain.executable("swift"), "no swift driver beside this process's Swift runtime or on PATH")
        let outcome = try runChildProcess(swift, arguments: [Self.root + "/.ci/check-imports.swift", path], timeout: 300)
        XCTAssertFalse(outcome.timedOut, "the check did not finish in 300 s")
        return outcome
    }

    /// A package of targets `Low`, `Middle` (depending on `Low`), `High` (on `Middle`), `Stray` and
    /// `StrayTests` (on nothing), with `files`, for `body`.
    private func withPackage(
        _ files: [String: String],
        manifest: String? = nil,
        _ body: (String) throws -> Void
    ) throws {
        let package = try XCTUnwrap(Toolchain.makeTemporaryDirectory(prefix: "importCheck"))
        defer { Toolchain.removeTree(package) }
        try Toolchain.writeFile(manifest ?? """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "Layers",
                targets: [
                    .target(name: "Low"),
                    .target(name: "Middle", dependencies: ["Low"]),
                    .target(name: "High", dependencies: ["Middle"]),
                    .target(name: "Stray"),
                    .testTarget(name: "StrayTests"),
                ]
            )
            """, to: package + "/Package.swift")
        for (file, text) in files {
            var folder = package
            for component in file.split(separator: "/").dropLast() {
                folder += "/" + component
                mkdir(folder, 0o700)
            }
            try Toolchain.writeFile(text, to: package + "/" + file)
        }
        try body(package)
    }
}
