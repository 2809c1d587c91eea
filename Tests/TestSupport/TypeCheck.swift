#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Type-checks Swift files as a user's module outside this package, against the modules of the
/// running build, and reads back the compiler's diagnostics: for tests of what the compiler tells a
/// user (OtherLibrariesNamesTests, DiagnosticsCatalogTests).
///
/// `swiftc` is the one named by `SWIFTC` or `SWIFT_EXEC`, else the one of the toolchain whose Swift
/// runtime this process runs on, else the first on `PATH`. The modules are found next to the test
/// binary (`<scratch path>/<configuration>/Modules`), so the check runs in every build CI makes:
/// debug, release, ThreadSanitizer and AddressSanitizer.
public enum TypeCheck {
    /// One diagnostic of the compiler, read from its one-line `llvm` style.
    public struct Diagnostic: CustomStringConvertible, Sendable {
        /// The path as the compiler printed it.
        public let file: String
        public let line: Int
        public let column: Int
        /// `error`, `warning` or `note`.
        public let kind: String
        public let message: String

        public var description: String { "\((file as NSString).lastPathComponent):\(line):\(column): \(kind): \(message)" }
    }

    /// What one run of the compiler said.
    public struct Outcome: Sendable {
        public let succeeded: Bool
        public let timedOut: Bool
        /// The compiler's standard error and output.
        public let output: String
        /// Every diagnostic, in the order printed.
        public let diagnostics: [Diagnostic]

        /// The errors located in the file whose name (last path component) is `name`, in source
        /// order.
        public func errors(inFileNamed name: String) -> [Diagnostic] {
            diagnostics
                .filter { $0.kind == "error" && ($0.file as NSString).lastPathComponent == name }
                .sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        }
    }

    /// Why a type-check could not run.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Type-checks `files` (paths) as one module with `-parse-as-library`, going on past the first
    /// file with errors, so that each file's errors are reported.
    ///
    /// - Parameters:
    ///   - files: The files of the module.
    ///   - extraArguments: More arguments for `swiftc` (`-Xfrontend`, `-warn-long-…`).
    ///   - anchor: A class of the test bundle, to find the modules beside it on Apple platforms.
    public static func run(files: [String], extraArguments: [String] = [], anchor: AnyClass? = nil) throws -> Outcome {
        guard let compiler = Toolchain.executable("swiftc", overriddenBy: ["SWIFTC", "SWIFT_EXEC"]) else {
            throw Unavailable(description: "No swiftc found: set SWIFTC (or SWIFT_EXEC) to the swiftc of the toolchain that built these tests; none was found beside this process's Swift runtime or on PATH.")
        }
        guard let modules = builtModules(anchor: anchor) else {
            throw Unavailable(description: "The build's modules (Signals.swiftmodule) were not found next to the test binary \(Bundle.main.executablePath ?? "?")")
        }
        var arguments = ["-typecheck", "-swift-version", "6", "-parse-as-library", "-continue-building-after-errors", "-diagnostic-style", "llvm", "-I", modules]
        #if os(macOS)
        // The modules are built for the package's deployment target.
        #if arch(arm64)
        arguments += ["-target", "arm64-apple-macosx15.0"]
        #else
        arguments += ["-target", "x86_64-apple-macosx15.0"]
        #endif
        #endif
        arguments += extraArguments + files
        let outcome = try runChildProcess(compiler, arguments: arguments, timeout: 180)
        return Outcome(
            succeeded: outcome.succeeded,
            timedOut: outcome.timedOut,
            output: outcome.standardError + outcome.standardOutput,
            diagnostics: diagnostics(in: outcome.standardError + "\n" + outcome.standardOutput)
        )
    }

    /// Type-checks `source` as the one file `fileName` of a module, in a scratch folder.
    public static func run(source: String, fileName: String, extraArguments: [String] = [], anchor: AnyClass? = nil) throws -> Outcome {
        guard let directory = Toolchain.makeTemporaryDirectory(prefix: "typecheck") else {
            throw Unavailable(description: "could not make a temporary directory")
        }
        defer { Toolchain.removeTree(directory) }
        let file = directory + "/" + fileName
        try Toolchain.writeFile(source, to: file)
        return try run(files: [file], extraArguments: extraArguments, anchor: anchor)
    }

    /// The diagnostics of `output`, in the compiler's one-line `llvm` style
    /// (`path:line:column: kind: message`).
    public static func diagnostics(in output: String) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for line in output.split(separator: "\n") {
            for kind in ["error", "warning", "note"] {
                guard let marker = line.range(of: ": \(kind): ") else { continue }
                let location = line[..<marker.lowerBound].split(separator: ":")
                guard location.count >= 3, let number = Int(location[location.count - 2]),
                      let column = Int(location[location.count - 1]) else { continue }
                let file = location[..<(location.count - 2)].joined(separator: ":")
                found.append(Diagnostic(file: file, line: number, column: column, kind: kind, message: String(line[marker.upperBound...])))
                break
            }
        }
        return found
    }

    /// The folder of the running build's `.swiftmodule`s: `Modules` beside the test binary (or its
    /// bundle on Apple platforms), or, with older SwiftPM, that folder itself.
    public static func builtModules(anchor: AnyClass? = nil) -> String? {
        var starts: [String] = []
        if let executable = Bundle.main.executablePath { starts.append(executable) }
        #if canImport(Darwin)
        if let anchor { starts.append(Bundle(for: anchor).bundlePath) }
        #endif
        for start in starts {
            var directory = start
            for _ in 0..<4 {
                directory = (directory as NSString).deletingLastPathComponent
                for candidate in [directory + "/Modules", directory]
                where access(candidate + "/Signals.swiftmodule", F_OK) == 0 {
                    return candidate
                }
            }
        }
        return nil
    }
}
