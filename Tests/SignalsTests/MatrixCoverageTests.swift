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
/// are one member: their rows are kept together by hand.
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
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var members: [PublicMember] = []
        for (type, path) in Self.types {
            for file in swiftFiles(at: root.appendingPathComponent(path)) {
                let source = try String(contentsOf: file, encoding: .utf8)
                members += PublicMember.declared(in: source).filter { $0.type == type }
            }
        }
        let rowFiles = swiftFiles(at: root.appendingPathComponent("Tests"))
            .filter { $0.lastPathComponent.hasSuffix("ThreadMatrixTests.swift") }
        XCTAssertGreaterThanOrEqual(rowFiles.count, 5, "the matrices' row files were not found under \(root.path)/Tests")
        let calls = try rowFiles.flatMap { try Call.all(in: String(contentsOf: $0, encoding: .utf8)) }

        // The parser must find what it is meant to: a few members of each kind.
        let names = Set(members.map(\.signature))
        for known in ["Signal.map(_:)", "Signal.take(until:)", "Signal.init(_:)", "Signal.values", "Signal.never",
                      "Signal.subscribe(next:error:completed:)", "Command.init(enabled:_:)", "Command.allowsConcurrentExecution",
                      "TestScheduler.createColdSignal(_:values:error:frame:)", "LazyList.signal(on:)", "ReplaySubject.init(capacity:)"] {
            XCTAssertTrue(names.contains(known), "the parser did not find \(known) in the sources")
        }
        // Nor more: the unavailable stubs for other libraries' spellings are not operators.
        for stub in ["Signal.debounce(_:on:)", "Signal.share()", "Signal.flatMap(_:)", "MulticastConnection.refCount()"] {
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

    private func swiftFiles(at url: URL) -> [URL] {
        if url.pathExtension == "swift" { return [url] }
        guard let walk = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { return [] }
        return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }
}

/// A public member of a type, as declared in the library's sources.
private struct PublicMember: CustomStringConvertible {
    struct Parameter {
        /// The argument label, `_` for none.
        let label: String
        let hasDefault: Bool
        let isClosure: Bool
        /// A variadic parameter or a parameter pack, which takes any number of arguments.
        let isVariadic: Bool
    }

    let type: String
    /// `init` for an initializer.
    let name: String
    /// `nil` for a property.
    let parameters: [Parameter]?

    /// `Signal.take(until:)`, `Signal.values`.
    var signature: String {
        guard let parameters else { return "\(type).\(name)" }
        return "\(type).\(name)(\(parameters.map { "\($0.label):" }.joined()))"
    }

    var description: String { signature }

    /// Whether `call` calls this member: the same name, and arguments that fit the parameters.
    func fits(_ call: Call) -> Bool {
        guard call.name == name, (name == "init") == (call.type != nil) else { return false }
        if name == "init", call.type != type { return false }
        guard let parameters else { return call.labels == nil }
        guard let labels = call.labels else { return false }
        var next = 0
        var variadicTaken = false
        for label in labels {
            while next < parameters.count, parameters[next].label != label {
                guard parameters[next].hasDefault || (parameters[next].isVariadic && variadicTaken) else { return false }
                next += 1
                variadicTaken = false
            }
            guard next < parameters.count else { return false }
            if parameters[next].isVariadic {
                variadicTaken = true
            } else {
                next += 1
            }
        }
        var rest = Array(parameters[next...])
        if variadicTaken, !rest.isEmpty { rest.removeFirst() }
        for _ in 0..<call.trailingClosures {
            guard let closure = rest.firstIndex(where: \.isClosure), rest[..<closure].allSatisfy(\.hasDefault) else { return false }
            rest.removeFirst(closure + 1)
        }
        return rest.allSatisfy(\.hasDefault)
    }

    /// The public members declared in `source` (a file of the library), with the type they are
    /// declared in or on: the last top-level `extension`, `class`, `struct` or `enum` before
    /// them. Only members at the first level of indentation count (not those of nested types),
    /// and not those marked `@available(*, unavailable, …)`: the stubs that name our operator to
    /// a user who types another library's spelling, which cannot be called.
    static func declared(in source: String) -> [PublicMember] {
        let lines = source.components(separatedBy: "\n")
        var members: [PublicMember] = []
        var type: String?
        var isUnavailable = false
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if let declared = topLevelType(line) {
                type = declared
                isUnavailable = false
            } else if line.hasPrefix("    @") {
                // An attribute may span lines too.
                var text = line
                while depth(of: text) > 0, index + 1 < lines.count {
                    index += 1
                    text += "\n" + lines[index]
                }
                if text.hasPrefix("    @available("), text.contains("unavailable") { isUnavailable = true }
            } else if let type, line.hasPrefix("    public ") || line.hasPrefix("    open ") {
                // A declaration may span lines: read on until its parentheses close.
                var text = line
                while depth(of: text) > 0, index + 1 < lines.count {
                    index += 1
                    text += "\n" + lines[index]
                }
                if !isUnavailable, let member = member(type: type, declaration: text) { members.append(member) }
                isUnavailable = false
            } else if !line.hasPrefix("    ///"), !line.trimmingCharacters(in: .whitespaces).isEmpty {
                isUnavailable = false
            }
            index += 1
        }
        return members
    }

    /// The name of the type a top-level line declares or extends.
    private static func topLevelType(_ line: String) -> String? {
        var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let first = line.first, first.isLetter else { return nil }
        let modifiers: Set<String> = ["public", "open", "package", "internal", "private", "fileprivate", "final"]
        while let word = words.first, modifiers.contains(word) { words.removeFirst() }
        guard words.count >= 2, ["extension", "class", "struct", "enum", "actor", "protocol"].contains(words[0]) else { return nil }
        return String(words[1].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    private static func member(type: String, declaration: String) -> PublicMember? {
        var rest = Substring(declaration.drop { $0 == " " })
        let modifiers: Set<String> = ["public", "open", "final", "static", "class", "override", "convenience", "nonisolated", "mutating", "required"]
        var kind = ""
        while true {
            let word = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(word.count).drop { $0 == " " }
            if modifiers.contains(String(word)) { continue }
            kind = String(word)
            break
        }
        switch kind {
        case "var", "let":
            return PublicMember(type: type, name: identifier(at: rest), parameters: nil)
        case "init":
            return PublicMember(type: type, name: "init", parameters: parameters(after: rest))
        case "func":
            let name = identifier(at: rest)
            guard !name.isEmpty else { return nil }   // an operator function, such as `==`
            return PublicMember(type: type, name: name, parameters: parameters(after: rest))
        default:
            return nil   // a nested type or a typealias
        }
    }

    /// The identifier at the start of `text`, without backquotes.
    private static func identifier(at text: Substring) -> String {
        String(text.drop { $0 == "`" }.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    /// The parameters of the first parenthesized list in `text`.
    private static func parameters(after text: Substring) -> [Parameter] {
        guard let open = text.firstIndex(of: "(") else { return [] }
        let list = balanced(text[open...])
        return splitAtTopLevel(list, separator: ",").compactMap { parameter in
            let trimmed = parameter.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let colon = topLevelIndex(of: ":", in: trimmed) else { return nil }
            let names = trimmed[..<colon].split(separator: " ")
            let typeAndDefault = String(trimmed[trimmed.index(after: colon)...])
            let typeText = splitAtTopLevel(typeAndDefault, separator: "=").first ?? typeAndDefault
            return Parameter(
                label: names.first.map(String.init) ?? "_",
                hasDefault: splitAtTopLevel(typeAndDefault, separator: "=").count > 1,
                isClosure: typeText.contains("->"),
                isVariadic: typeText.contains("...") || typeText.trimmingCharacters(in: .whitespaces).hasPrefix("repeat ")
            )
        }
    }

    /// How many more brackets `text` opens than it closes.
    static func depth(of text: String) -> Int {
        var nesting = Nesting()
        for character in text { nesting.read(character) }
        return nesting.depth
    }

    /// The text inside the brackets that open at the start of `text`, up to the matching close.
    static func balanced<Text: Collection<Character>>(_ text: Text) -> String {
        guard let opener = text.first else { return "" }
        var nesting = Nesting(opening: opener)
        var inside = ""
        for character in text.dropFirst() {
            nesting.read(character)
            if nesting.depth == 0 { break }
            inside.append(character)
        }
        return inside
    }

    /// `text` split at each `separator` outside brackets (the `=` of `==`, `!=`, `<=`, `>=` is not
    /// a separator).
    static func splitAtTopLevel(_ text: String, separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var nesting = Nesting()
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : " "
            let following = index + 1 < characters.count ? characters[index + 1] : " "
            nesting.read(character)
            let isOperator = separator == "=" && (following == "=" || "=!<>".contains(previous))
            if character == separator, nesting.depth == 0, !isOperator {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }

    private static func topLevelIndex(of separator: Character, in text: String) -> String.Index? {
        var nesting = Nesting()
        for index in text.indices {
            nesting.read(text[index])
            if text[index] == separator, nesting.depth == 0 { return index }
        }
        return nil
    }
}

/// Bracket nesting through code, read a character at a time: `(`, `[` and `{` always; `<` only
/// right after an identifier (a generic argument list, not a comparison), and `>` only where it
/// closes such a `<` (not in `->`).
private struct Nesting {
    private var open: [Character] = []
    private var previous: Character = " "

    init() {}

    /// Nesting inside `opener`, just read.
    init(opening opener: Character) {
        open = [opener]
        previous = opener
    }

    var depth: Int { open.count }

    mutating func read(_ character: Character) {
        switch character {
        case "(", "[", "{":
            open.append(character)
        case "<" where previous.isLetter || previous.isNumber || previous == "_":
            open.append(character)
        case ">" where previous != "-" && open.last == "<":
            open.removeLast()
        case ")", "]", "}":
            // Closes its opener, and any `<` left open inside (a comparison after all).
            while let last = open.popLast(), last == "<" {}
        default:
            break
        }
        previous = character
    }
}

/// A use of a member in a row file: `.name(labels…) { … }`, `.name` alone, or `Type(…)`.
private struct Call {
    let name: String
    /// The type, for an initializer (`name` is then `init`).
    let type: String?
    /// The argument labels in the parentheses (`_` for an unlabeled argument); `nil` for a
    /// property (no parentheses and no trailing closure).
    let labels: [String]?
    let trailingClosures: Int

    /// The calls in `source`, comments and string literals left out.
    static func all(in source: String) -> [Call] {
        let code = Array(withoutCommentsAndStrings(source))
        let types = Set(MatrixCoverageTests.types.map(\.type))
        var calls: [Call] = []
        var index = 0
        while index < code.count {
            let character = code[index]
            if character == "[", isEventList(code[(index + 1)...]) {
                // Expected events (`[.next(1), .error(.first)]`): their cases are not calls.
                index += PublicMember.balanced(code[index...]).count + 2
                continue
            }
            let startsWord = index == 0 || !(code[index - 1].isLetter || code[index - 1].isNumber || code[index - 1] == "_")
            if character == "." || (startsWord && character.isUppercase) {
                var end = character == "." ? index + 1 : index
                while end < code.count, code[end] == " " { end += 1 }
                let nameStart = end
                while end < code.count, code[end].isLetter || code[end].isNumber || code[end] == "_" { end += 1 }
                let word = String(code[nameStart..<end])
                if character == "." {
                    if !word.isEmpty { calls.append(call(named: word, type: nil, code, after: end)) }
                } else if types.contains(word), code[..<index].last != "." {
                    // `Type(…)`, `Type<…>(…)`, `Type { … }`, `Type.init(…)`.
                    var after = end
                    if after < code.count, code[after] == "<" {
                        after += PublicMember.balanced(code[after...]).count + 2
                    }
                    if after + 5 <= code.count, String(code[after..<after + 5]) == ".init" { after += 5 }
                    let initializer = call(named: "init", type: word, code, after: after)
                    if initializer.labels != nil { calls.append(initializer) }
                }
                index = max(end, index + 1)
            } else {
                index += 1
            }
        }
        return calls
    }

    /// Whether an array literal starting at `text` lists events.
    private static func isEventList(_ text: ArraySlice<Character>) -> Bool {
        let start = String(text.drop { $0 == " " || $0 == "\n" }.prefix(10))
        return start.hasPrefix(".next(") || start.hasPrefix(".error(") || start.hasPrefix(".completed")
    }

    private static func call(named name: String, type: String?, _ code: [Character], after end: Int) -> Call {
        var position = end
        while position < code.count, code[position] == " " { position += 1 }
        var labels: [String]?
        if position < code.count, code[position] == "(" {
            let arguments = PublicMember.balanced(code[position...])
            position += arguments.count + 2
            let parts = PublicMember.splitAtTopLevel(arguments, separator: ",")
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                .filter { !$0.isEmpty }
            labels = parts.map { argument in
                let word = argument.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                let afterWord = argument.dropFirst(word.count).drop { $0 == " " }
                return !word.isEmpty && afterWord.hasPrefix(":") && !afterWord.hasPrefix("::") ? String(word) : "_"
            }
        }
        var trailing = 0
        var look = position
        while look < code.count, code[look] == " " { look += 1 }
        if look < code.count, code[look] == "{" {
            trailing = 1
            labels = labels ?? []
        }
        return Call(name: name, type: type, labels: labels, trailingClosures: trailing)
    }

    /// `source` with its comments removed and its string literals emptied.
    private static func withoutCommentsAndStrings(_ source: String) -> String {
        var result = ""
        let characters = Array(source)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let following = index + 1 < characters.count ? characters[index + 1] : " "
            if character == "/", following == "/" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if character == "/", following == "*" {
                index += 2
                while index + 1 < characters.count, !(characters[index] == "*" && characters[index + 1] == "/") { index += 1 }
                index += 2
            } else if character == "\"" {
                result.append("\"\"")
                index += 1
                while index < characters.count, characters[index] != "\"" {
                    if characters[index] == "\\" { index += 1 }
                    index += 1
                }
                index += 1
            } else {
                result.append(character)
                index += 1
            }
        }
        return result
    }
}
