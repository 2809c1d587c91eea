// Fails when a target imports a module of its own package that it does not depend on, directly or
// through its dependencies: such a target builds only when something else happened to build that
// module first, so a parallel build on one machine passes and a fresh clone's `swift test` (or any
// build with `-j 1`) stops with "no such module".
//
//     swift .ci/check-imports.swift [PACKAGE_DIRECTORY]     # default: the current directory
//
// The targets, their paths and their dependencies are read from the manifest as SwiftPM evaluates
// it (`swift package dump-package`, with a scratch path of its own, so that it runs while a build
// holds the package's `.build`). Every `import` line of every Swift file under a target's path is
// read, those inside string literals included: a test that compiles code importing a module needs
// that module built as much as one that imports it itself. Modules that are not targets of the
// package (Foundation, XCTest, Glibc, Synchronization, another package's products) are not checked.
//
// Exit status: 0 when every import is declared, 1 when one is not (each is printed with its file,
// line, module and fix), 2 when the manifest cannot be read. CI runs it before anything builds;
// `ReadmeTests` runs it too, on the package and on a package made to fail.

import Foundation

struct Target {
    let name: String
    let isTest: Bool
    let path: String
    let dependencies: [String]
    let excluded: [String]
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

/// The manifest's targets, as `swift package dump-package` describes them.
func readTargets(of package: URL) -> [Target] {
    let scratch = FileManager.default.temporaryDirectory
        .appendingPathComponent("check-imports-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let swift = Process()
    swift.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    swift.arguments = ["swift", "package", "--package-path", package.path, "--scratch-path", scratch.path, "dump-package"]
    let output = Pipe()
    let errors = Pipe()
    swift.standardOutput = output
    swift.standardError = errors
    do { try swift.run() } catch { fail("check-imports: could not run `swift package dump-package`: \(error)", status: 2) }
    let json = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    swift.waitUntilExit()
    guard swift.terminationStatus == 0,
          let manifest = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
          let targets = manifest["targets"] as? [[String: Any]] else {
        fail("check-imports: `swift package dump-package` failed for \(package.path):\n\(errorText)", status: 2)
    }
    return targets.compactMap { target in
        guard let name = target["name"] as? String else { return nil }
        let type = target["type"] as? String ?? "regular"
        let isTest = type == "test"
        let path = target["path"] as? String ?? ((isTest ? "Tests/" : "Sources/") + name)
        // Each dependency is one key ("target", "byName" or "product") whose value starts with the name.
        let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
            ["target", "byName", "product"].lazy.compactMap { (dependency[$0] as? [Any])?.first as? String }.first
        }
        return Target(name: name, isTest: isTest, path: path, dependencies: dependencies, excluded: target["exclude"] as? [String] ?? [])
    }
}

/// The module an `import` line names (`import X`, `@testable import X`, `import struct X.Y`).
func importedModule(_ line: Substring) -> (module: String, column: Int)? {
    var rest = line.drop { $0 == " " || $0 == "\t" }
    // Attributes: `@testable`, `@_exported`, `@preconcurrency`, `@_implementationOnly`, `@_spi(X)`.
    while rest.first == "@" {
        guard let end = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return nil }
        rest = rest[end...].drop { $0 == " " || $0 == "\t" }
    }
    for modifier in ["public ", "package ", "internal ", "fileprivate ", "private "] where rest.hasPrefix(modifier) {
        rest = rest.dropFirst(modifier.count).drop { $0 == " " }
    }
    guard rest.hasPrefix("import "), let start = rest.index(rest.startIndex, offsetBy: 7, limitedBy: rest.endIndex) else { return nil }
    var words = rest[start...].split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard !words.isEmpty else { return nil }
    let kinds: Set<Substring> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
    if kinds.contains(words[0]) { words.removeFirst() }
    guard let path = words.first else { return nil }
    let module = path.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    guard !module.isEmpty, module.first?.isNumber == false else { return nil }
    return (String(module), line.distance(from: line.startIndex, to: path.startIndex) + 1)
}

let package = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath)
    .standardizedFileURL
let targets = readTargets(of: package)
let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
let importable = Set(targets.filter { !$0.isTest }.map(\.name))

/// The target's dependencies, direct and through theirs.
func reachable(from target: Target) -> Set<String> {
    var seen: Set<String> = []
    var pending = target.dependencies
    while let next = pending.popLast() {
        guard seen.insert(next).inserted else { continue }
        pending += byName[next]?.dependencies ?? []
    }
    return seen
}

var problems: [String] = []
var files = 0
let targetPaths = Set(targets.map { package.appendingPathComponent($0.path).standardizedFileURL.path })
for target in targets.sorted(by: { $0.name < $1.name }) {
    let root = package.appendingPathComponent(target.path).standardizedFileURL
    let excluded = target.excluded.map { root.appendingPathComponent($0).standardizedFileURL.path }
    let dependencies = reachable(from: target)
    guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey]) else { continue }
    for case let file as URL in walker {
        let path = file.standardizedFileURL.path
        // Another target's folder inside this one, or a file the manifest leaves out.
        if path != root.path, targetPaths.contains(path) || excluded.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) {
            walker.skipDescendants()
            continue
        }
        guard file.pathExtension == "swift", let source = try? String(contentsOf: file, encoding: .utf8) else { continue }
        files += 1
        let relative = String(path.dropFirst(package.path.count + 1))
        for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let (module, column) = importedModule(line), importable.contains(module),
                  module != target.name, !dependencies.contains(module) else { continue }
            let fix = target.isTest
                ? "add \"\(module)\" to \(target.name)'s dependencies in Package.swift if the layering allows it, else move the test that needs \(module) to a test target that depends on it"
                : "add \"\(module)\" to \(target.name)'s dependencies in Package.swift if the layering allows it, else move the code that needs \(module) to a target that may depend on it"
            problems.append("""
                \(relative):\(number + 1):\(column): error: \(target.name) imports \(module), which it does not depend on, \
                directly or through its dependencies; it builds only when something else has built \(module) first \
                (a fresh clone's `swift test -j 1` fails with "no such module '\(module)'"). Fix: \(fix).
                """)
        }
    }
}

if problems.isEmpty {
    print("check-imports: \(targets.count) targets, \(files) files: every import of a package module is declared")
} else {
    for problem in problems { print(problem) }
    print("check-imports: \(problems.count) undeclared import\(problems.count == 1 ? "" : "s") in \(package.path)")
    exit(1)
}
