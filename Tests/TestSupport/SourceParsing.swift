import Foundation

// The package's own Swift files, read as text by the tests that check a rule across files: every
// public operator has a thread-matrix row (MatrixCoverageTests) and a contract row
// (OperatorContractCoverageTests) and names its signal (OperatorContractTests), and every stub of
// another library's spelling has a spelling that type-checks it and an entry in the article
// (StubRegistryTests). Lines and brackets only, no compiler: enough for code written the way this
// package writes it, and each test asserts that its parser finds a few known items, so that a
// parser gone blind fails instead of passing on nothing.

/// The package's folder and its Swift files.
public enum PackageSource {
    /// The package's root folder (this file is `Tests/TestSupport/SourceParsing.swift`).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Swift files at `path`, relative to the root: the file itself, or every one under the
    /// folder, in the order of their paths.
    public static func swiftFiles(at path: String) -> [URL] {
        let url = root.appendingPathComponent(path)
        if url.pathExtension == "swift" { return FileManager.default.fileExists(atPath: url.path) ? [url] : [] }
        guard let walk = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { return [] }
        return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// The text of the file at `path`, relative to the root.
    public static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The path of `url` relative to the root (`Sources/Signals/Operators/Map.swift`).
    public static func relativePath(of url: URL) -> String {
        let base = root.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }
}

/// Swift source text with its comments and string literals blanked out.
public enum SourceText {
    /// `source` with the characters of its comments and the contents of its string literals
    /// (interpolations included) replaced by spaces, newlines kept: each character stays at its
    /// offset, so a range found in the result reads the same code in `source`. The quotes stay.
    public static func masked(_ source: String) -> [Character] {
        var characters = Array(source)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let following = index + 1 < characters.count ? characters[index + 1] : " "
            if character == "/", following == "/" {
                while index < characters.count, characters[index] != "\n" { blank(&characters, index); index += 1 }
            } else if character == "/", following == "*" {
                var depth = 0
                repeat {
                    if characters[index] == "/", index + 1 < characters.count, characters[index + 1] == "*" {
                        depth += 1
                        blank(&characters, index); blank(&characters, index + 1)
                        index += 2
                    } else if characters[index] == "*", index + 1 < characters.count, characters[index + 1] == "/" {
                        depth -= 1
                        blank(&characters, index); blank(&characters, index + 1)
                        index += 2
                    } else {
                        blank(&characters, index)
                        index += 1
                    }
                } while depth > 0 && index < characters.count
            } else if character == "\"" || (character == "#" && isRawStringStart(characters, index)) {
                let end = stringEnd(characters, from: index)
                maskString(&characters, from: index, to: end)
                index = end
            } else {
                index += 1
            }
        }
        return characters
    }

    /// The range of the array literal assigned to `let name` or `var name` in `code` (masked
    /// source), brackets included.
    public static func arrayLiteral(assignedTo name: String, in code: [Character]) -> Range<Int>? {
        let text = String(code)
        for keyword in ["let ", "var "] {
            var searchStart = text.startIndex
            while let found = text.range(of: keyword + name, range: searchStart..<text.endIndex) {
                searchStart = found.upperBound
                let after = found.upperBound
                // The whole name, not a prefix of a longer one.
                if after < text.endIndex, text[after].isLetter || text[after].isNumber || text[after] == "_" { continue }
                var offset = text.distance(from: text.startIndex, to: after)
                // Past the type annotation to the `=` at the top level.
                var nesting = Nesting()
                while offset < code.count {
                    let character = code[offset]
                    nesting.read(character)
                    if character == "=", nesting.depth == 0 { break }
                    offset += 1
                }
                offset += 1
                while offset < code.count, code[offset].isWhitespace { offset += 1 }
                guard offset < code.count, code[offset] == "[" else { continue }
                let inside = PublicMember.balanced(code[offset...]).count
                return offset..<(offset + inside + 2)
            }
        }
        return nil
    }

    /// The ranges of the elements of the bracketed list at `range` of `code` (masked source): the
    /// text between its top-level commas, trimmed.
    public static func elements(of range: Range<Int>, in code: [Character]) -> [Range<Int>] {
        var elements: [Range<Int>] = []
        var nesting = Nesting()
        var start = range.lowerBound + 1
        for offset in (range.lowerBound + 1)..<(range.upperBound - 1) {
            let character = code[offset]
            nesting.read(character)
            if character == ",", nesting.depth == 0 {
                elements.append(start..<offset)
                start = offset + 1
            }
        }
        elements.append(start..<(range.upperBound - 1))
        return elements.compactMap { element in
            var lower = element.lowerBound, upper = element.upperBound
            while lower < upper, code[lower].isWhitespace { lower += 1 }
            while upper > lower, code[upper - 1].isWhitespace { upper -= 1 }
            return lower < upper ? lower..<upper : nil
        }
    }

    /// The bracket depth of `code` (masked source) before each of its characters, as
    /// ``PublicMember/balanced(_:)`` counts brackets.
    public static func depths(in code: [Character]) -> [Int] {
        var nesting = Nesting()
        return code.map { character in
            defer { nesting.read(character) }
            return nesting.depth
        }
    }

    /// The last statement of `code` (masked source, a closure's body): the text after the last
    /// newline or `;` at its top level, where a line that starts with `.` goes on the one before
    /// (`signal\n    .map { … }`).
    public static func lastStatement(of code: [Character]) -> [Character] {
        let depths = depths(in: code)
        var start = 0
        for (offset, character) in code.enumerated() where depths[offset] == 0 {
            if character == ";" { start = offset + 1 }
            if character == "\n" {
                let next = code[(offset + 1)...].first { !$0.isWhitespace }
                if next != nil, next != "." { start = offset + 1 }
            }
        }
        return Array(code[start...])
    }

    /// The value of the string literal that starts at `offset` of `source` (a quote, or `#` for a
    /// raw string), escapes resolved (`\"`, `\\`, `\n`, `\t`); `nil` if none starts there.
    public static func stringLiteral(at offset: Int, in source: [Character]) -> String? {
        guard offset < source.count, source[offset] == "\"" || isRawStringStart(source, offset) else { return nil }
        var index = offset
        var hashes = 0
        while source[index] == "#" { hashes += 1; index += 1 }
        let isMultiline = index + 2 < source.count && source[index + 1] == "\"" && source[index + 2] == "\""
        index += isMultiline ? 3 : 1
        if isMultiline, index < source.count, source[index] == "\n" { index += 1 }
        let end = stringEnd(source, from: offset)
        let contentEnd = end - hashes - (isMultiline ? 3 : 1)
        var value = ""
        while index < contentEnd {
            let character = source[index]
            if character == "\\", hashes == 0, index + 1 < contentEnd {
                let escaped = source[index + 1]
                switch escaped {
                case "n": value.append("\n")
                case "t": value.append("\t")
                default: value.append(escaped)
                }
                index += 2
            } else {
                value.append(character)
                index += 1
            }
        }
        if isMultiline {
            // The closing quotes' indentation is taken off every line.
            let lines = value.components(separatedBy: "\n")
            let indentation = lines.last.map { $0.prefix { $0 == " " }.count } ?? 0
            value = lines.dropLast().map { String($0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n")
        }
        return value
    }

    private static func blank(_ characters: inout [Character], _ index: Int) {
        if characters[index] != "\n" { characters[index] = " " }
    }

    private static func isRawStringStart(_ characters: [Character], _ index: Int) -> Bool {
        var look = index
        while look < characters.count, characters[look] == "#" { look += 1 }
        return look > index && look < characters.count && characters[look] == "\""
            && (index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber))
    }

    /// The offset just past the string literal that starts at `start`.
    private static func stringEnd(_ characters: [Character], from start: Int) -> Int {
        var index = start
        var hashes = 0
        while index < characters.count, characters[index] == "#" { hashes += 1; index += 1 }
        let isMultiline = index + 2 < characters.count && characters[index + 1] == "\"" && characters[index + 2] == "\""
        let quotes = isMultiline ? 3 : 1
        index += quotes
        let closing = Array(repeating: Character("\""), count: quotes) + Array(repeating: Character("#"), count: hashes)
        while index < characters.count {
            let character = characters[index]
            if character == "\\" {
                // An escape, or (with as many `#` as the literal has) an interpolation.
                var look = index + 1
                var escapeHashes = 0
                while look < characters.count, characters[look] == "#", escapeHashes < hashes { escapeHashes += 1; look += 1 }
                if escapeHashes == hashes, look < characters.count, characters[look] == "(" {
                    index = interpolationEnd(characters, from: look)
                    continue
                }
                index = escapeHashes == hashes ? look + 1 : index + 1
                continue
            }
            if !isMultiline, character == "\n" { return index }
            if index + closing.count <= characters.count, Array(characters[index..<(index + closing.count)]) == closing {
                return index + closing.count
            }
            index += 1
        }
        return characters.count
    }

    /// The offset just past the `)` that closes the interpolation opened at `open`.
    private static func interpolationEnd(_ characters: [Character], from open: Int) -> Int {
        var depth = 0
        var index = open
        while index < characters.count {
            let character = characters[index]
            if character == "\"" || (character == "#" && isRawStringStart(characters, index)) {
                index = stringEnd(characters, from: index)
                continue
            }
            if character == "(" { depth += 1 }
            if character == ")" {
                depth -= 1
                if depth == 0 { return index + 1 }
            }
            index += 1
        }
        return characters.count
    }

    private static func maskString(_ characters: inout [Character], from start: Int, to end: Int) {
        var index = start
        while index < end, characters[index] == "#" { index += 1 }
        let isMultiline = index + 2 < end && characters[index + 1] == "\"" && characters[index + 2] == "\""
        let first = index + (isMultiline ? 3 : 1)
        let last = end - (end - start > 1 ? (isMultiline ? 3 : 1) + (index - start) : 0)
        guard first < last else { return }
        for offset in first..<last { blank(&characters, offset) }
    }
}

/// A public member of a type, as declared in the library's sources.
public struct PublicMember: Sendable, CustomStringConvertible {
    public struct Parameter: Sendable {
        /// The argument label, `_` for none.
        public let label: String
        public let hasDefault: Bool
        public let isClosure: Bool
        /// A variadic parameter or a parameter pack, which takes any number of arguments.
        public let isVariadic: Bool
    }

    public let type: String
    /// `init` for an initializer.
    public let name: String
    /// `nil` for a property.
    public let parameters: [Parameter]?
    /// A `static` or `class` member.
    public let isStatic: Bool
    /// What a method returns (`Signal<U, Failure>`, `Signal`, `Self`), or a property's type; `nil`
    /// for an initializer or a method that returns nothing.
    public let resultType: String?
    /// Marked `@available(*, unavailable, …)`: a stub that names our operator to a user who types
    /// another library's spelling, which cannot be called.
    public let isUnavailable: Bool
    /// The doc comment, without its `///`, its lines joined with spaces.
    public let documentation: String
    /// The file (as given to ``all(in:file:)``) and the line of the declaration, from 1.
    public let file: String
    public let line: Int

    /// `Signal.take(until:)`, `Signal.values`.
    public var signature: String {
        guard let parameters else { return "\(type).\(name)" }
        return "\(type).\(name)(\(parameters.map { "\($0.label):" }.joined()))"
    }

    /// `Sources/Signals/Operators/Take.swift:13`.
    public var location: String { "\(file):\(line)" }

    public var description: String { signature }

    /// Whether the result is a signal: `Signal`, `Signal<…>` or `Self` (on `Signal`).
    public var returnsSignal: Bool {
        guard let resultType else { return false }
        return resultType == "Signal" || resultType.hasPrefix("Signal<") || resultType == "Self"
    }

    /// Whether `call` calls this member: the same name, and arguments that fit the parameters.
    /// The receiver is not checked.
    public func fits(_ call: Call) -> Bool {
        guard call.name == name, (name == "init") == (call.type != nil) else { return false }
        if name == "init", call.type != type { return false }
        guard let parameters else { return call.labels == nil }
        guard let labels = call.labels else { return false }
        return Self.labels(labels, trailingClosures: call.trailingClosures, fit: parameters)
    }

    /// Whether arguments with `labels` (`_` for none), then `trailingClosures` closures, fit
    /// `parameters`: defaulted ones may be left out, a variadic one takes several, a closure may
    /// trail.
    public static func labels(_ labels: [String], trailingClosures: Int, fit parameters: [Parameter]) -> Bool {
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
        for _ in 0..<trailingClosures {
            guard let closure = rest.firstIndex(where: \.isClosure), rest[..<closure].allSatisfy(\.hasDefault) else { return false }
            rest.removeFirst(closure + 1)
        }
        return rest.allSatisfy(\.hasDefault)
    }

    /// The public members declared in `source` (a file of the library) that can be called: those
    /// of ``all(in:file:)`` that are not unavailable.
    public static func declared(in source: String, file: String = "") -> [PublicMember] {
        all(in: source, file: file).filter { !$0.isUnavailable }
    }

    /// The public members declared in `source` (a file of the library), with the type they are
    /// declared in or on: the last top-level `extension`, `class`, `struct`, `enum`, `actor` or
    /// `protocol` before them. Only members at the first level of indentation count (not those
    /// of nested types, nor nested types themselves), with those marked
    /// `@available(*, unavailable, …)` flagged as such.
    public static func all(in source: String, file: String = "") -> [PublicMember] {
        let lines = source.components(separatedBy: "\n")
        // The same lines with comments and strings blanked, to count brackets in.
        let code = String(SourceText.masked(source)).components(separatedBy: "\n")
        /// The text from line `index` on to the line where the brackets it opens close; `index`
        /// moves to that line.
        func readOn(_ index: inout Int) -> String {
            var text = lines[index]
            var nesting = Nesting()
            for character in code[index] { nesting.read(character) }
            while nesting.depth > 0, index + 1 < lines.count {
                index += 1
                text += "\n" + lines[index]
                for character in "\n" + code[index] { nesting.read(character) }
            }
            return text
        }
        var members: [PublicMember] = []
        var type: String?
        var isUnavailable = false
        var documentation: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if let declared = topLevelType(line) {
                type = declared
                isUnavailable = false
                documentation = []
            } else if line.hasPrefix("    ///") {
                documentation.append(String(line.dropFirst(7)).trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("    @") {
                // An attribute may span lines too.
                if isUnavailableAttribute(readOn(&index)) { isUnavailable = true }
            } else if let type, line.hasPrefix("    public ") || line.hasPrefix("    open ") {
                // A declaration may span lines: read on until its parentheses close.
                let declarationLine = index + 1
                let text = readOn(&index)
                if let member = member(
                    type: type, declaration: text, isUnavailable: isUnavailable,
                    documentation: documentation.joined(separator: " "), file: file, line: declarationLine
                ) {
                    members.append(member)
                }
                isUnavailable = false
                documentation = []
            } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                isUnavailable = false
                documentation = []
            }
            index += 1
        }
        return members
    }

    /// Whether `attribute` (`@available(…)`, on one or more lines) makes a declaration unavailable:
    /// one of its arguments is `unavailable`.
    public static func isUnavailableAttribute(_ attribute: String) -> Bool {
        let trimmed = attribute.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("@available"), let open = trimmed.firstIndex(of: "(") else { return false }
        return splitAtTopLevel(balanced(trimmed[open...]), separator: ",")
            .contains { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "unavailable" }
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

    private static func member(
        type: String, declaration: String, isUnavailable: Bool, documentation: String, file: String, line: Int
    ) -> PublicMember? {
        var rest = Substring(declaration.drop { $0 == " " })
        let modifiers: Set<String> = ["public", "open", "final", "static", "class", "override", "convenience", "nonisolated", "mutating", "required"]
        var kind = ""
        var isStatic = false
        while true {
            let word = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(word.count).drop { $0 == " " }
            if word == "static" || word == "class" { isStatic = true }
            if modifiers.contains(String(word)) { continue }
            kind = String(word)
            break
        }
        func make(_ name: String, _ parameters: [Parameter]?, _ resultType: String?) -> PublicMember {
            PublicMember(
                type: type, name: name, parameters: parameters, isStatic: isStatic, resultType: resultType,
                isUnavailable: isUnavailable, documentation: documentation, file: file, line: line
            )
        }
        switch kind {
        case "var", "let":
            return make(identifier(at: rest), nil, propertyType(after: rest))
        case "init":
            return make("init", parameters(after: rest), nil)
        case "func":
            let name = identifier(at: rest)
            guard !name.isEmpty else { return nil }   // an operator function, such as `==`
            return make(name, parameters(after: rest), resultType(after: rest))
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

    /// What a function whose declaration, from its name on, is `text` returns: the type after the
    /// `->` that follows its parameters, up to its body or its `where` clause.
    private static func resultType(after text: Substring) -> String? {
        guard let open = text.firstIndex(of: "(") else { return nil }
        let afterParameters = text[open...].dropFirst(balanced(text[open...]).count + 2)
        guard let arrow = afterParameters.range(of: "->") else { return nil }
        // `throws(Failure)` comes before the arrow; anything bracketed before it is not the result.
        let before = String(afterParameters[..<arrow.lowerBound])
        guard depth(of: before) == 0, !before.contains("{") else { return nil }
        return typeText(afterParameters[arrow.upperBound...])
    }

    /// A property's type: after its name's `:`.
    private static func propertyType(after text: Substring) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        return typeText(text[text.index(after: colon)...])
    }

    /// The type at the start of `text`, up to a top-level `{`, `=` or `where`.
    private static func typeText(_ text: Substring) -> String {
        var nesting = Nesting()
        var result = ""
        for character in text {
            if nesting.depth == 0, character == "{" || character == "=" { break }
            nesting.read(character)
            result.append(character)
            if nesting.depth == 0, result.hasSuffix(" where ") {
                result.removeLast(" where ".count)
                break
            }
        }
        return result.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// How many more brackets `text` opens than it closes, outside comments and string literals.
    public static func depth(of text: String) -> Int {
        var nesting = Nesting()
        for character in SourceText.masked(text) { nesting.read(character) }
        return nesting.depth
    }

    /// The text inside the brackets that open at the start of `text`, up to the matching close.
    public static func balanced<Text: Collection<Character>>(_ text: Text) -> String {
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
    public static func splitAtTopLevel(_ text: String, separator: Character) -> [String] {
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
struct Nesting {
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

/// A use of a member in test code: `.name(labels…) { … }`, `.name` alone, or `Type(…)`.
public struct Call: Sendable, CustomStringConvertible {
    /// What a `.name` is called on.
    public enum Receiver: Sendable, Equatable {
        /// A value: `signal.map`, `f().map`, `$0.map`.
        case value
        /// A type: `Signal.zip`, `Signal<Int, Never>.never`, or the type of an initializer.
        case type(String)
        /// Nothing written: `.return(1)` where a type is known, a static member or a case.
        case implicit
    }

    public let name: String
    /// The type, for an initializer (`name` is then `init`).
    public let type: String?
    /// The argument labels in the parentheses (`_` for an unlabeled argument); `nil` for a
    /// property (no parentheses and no trailing closure).
    public let labels: [String]?
    public let trailingClosures: Int
    public let receiver: Receiver
    /// Where the call's name starts in the code it was read from (a character offset).
    public let offset: Int

    /// `.take(until:)`, `Signal(value:)`.
    public var description: String {
        let arguments = labels.map { "(\($0.map { "\($0):" }.joined()))" } ?? ""
        return name == "init" ? "\(type ?? "")\(arguments)" : ".\(name)\(arguments)\(trailingClosures > 0 ? " {}" : "")"
    }

    /// The calls in `source`, comments and string literals left out; `Type(…)` counts as an
    /// initializer call only for the types in `initializerTypes`.
    public static func all(in source: String, initializerTypes: Set<String>) -> [Call] {
        all(inCode: SourceText.masked(source), initializerTypes: initializerTypes)
    }

    /// The calls in `code` (masked source, as ``SourceText/masked(_:)`` makes).
    public static func all(inCode code: [Character], initializerTypes: Set<String>) -> [Call] {
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
                    if !word.isEmpty, !(word.first?.isNumber ?? false) {
                        calls.append(call(named: word, type: nil, receiver: receiver(before: index, in: code), code, at: nameStart, after: end))
                    }
                } else if initializerTypes.contains(word), code[..<index].last != "." {
                    // `Type(…)`, `Type<…>(…)`, `Type { … }`, `Type.init(…)`.
                    var after = end
                    if after < code.count, code[after] == "<" {
                        after += PublicMember.balanced(code[after...]).count + 2
                    }
                    if after + 5 <= code.count, String(code[after..<after + 5]) == ".init" { after += 5 }
                    let initializer = call(named: "init", type: word, receiver: .type(word), code, at: nameStart, after: after)
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

    /// What the `.` at `dot` follows.
    private static func receiver(before dot: Int, in code: [Character]) -> Receiver {
        var look = dot - 1
        while look >= 0, code[look].isWhitespace { look -= 1 }
        guard look >= 0 else { return .implicit }
        let previous = code[look]
        if ")]}?!".contains(previous) { return .value }
        if previous == ">" {
            // The close of a generic argument list: the type before its `<`.
            var depth = 0
            while look >= 0 {
                if code[look] == ">" { depth += 1 }
                if code[look] == "<" {
                    depth -= 1
                    if depth == 0 { break }
                }
                look -= 1
            }
            look -= 1
            guard look >= 0 else { return .implicit }
        }
        guard code[look].isLetter || code[look].isNumber || code[look] == "_" || code[look] == "$" else { return .implicit }
        var start = look
        while start > 0, code[start - 1].isLetter || code[start - 1].isNumber || code[start - 1] == "_" || code[start - 1] == "$" { start -= 1 }
        let word = String(code[start...look])
        let keywords: Set<String> = ["return", "in", "try", "await", "case", "else", "throw", "is", "as", "where", "guard", "if", "while", "repeat", "yield"]
        if keywords.contains(word) { return .implicit }
        if word.first?.isUppercase ?? false { return .type(word) }
        return .value
    }

    private static func call(named name: String, type: String?, receiver: Receiver, _ code: [Character], at start: Int, after end: Int) -> Call {
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
        return Call(name: name, type: type, labels: labels, trailingClosures: trailing, receiver: receiver, offset: start)
    }
}

extension PackageSource {
    /// An unavailable top-level declaration of Sources: another library's type name
    /// (`DisposeBag`) or function (`create()`, for RxSwift's `Disposables.create()`).
    public struct UnavailableTopLevelDeclaration: Sendable {
        /// `typealias`, `struct`, `class`, `enum`, `protocol` or `func`.
        public let keyword: String
        public let name: String
        /// `path:line` of the declaration.
        public let location: String
    }

    /// Every declaration in Sources that starts a line (a top-level one) right after an
    /// `@available(*, unavailable…)` attribute, itself at the start of a line.
    public static func unavailableTopLevelDeclarations() throws -> [UnavailableTopLevelDeclaration] {
        var found: [UnavailableTopLevelDeclaration] = []
        for file in swiftFiles(at: "Sources") {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.hasPrefix("@available(*, unavailable") {
                // The declaration: the next line that is not an attribute.
                guard let offset = lines[(index + 1)...].firstIndex(where: { !$0.hasPrefix("@") }) else { continue }
                let words = lines[offset].split(whereSeparator: { " <(:{".contains($0) }).map(String.init)
                guard let keyword = words.firstIndex(where: { ["typealias", "struct", "class", "enum", "protocol", "func"].contains($0) }),
                      keyword + 1 < words.count else { continue }
                found.append(UnavailableTopLevelDeclaration(keyword: words[keyword], name: words[keyword + 1], location: "\(relativePath(of: file)):\(offset + 1)"))
            }
        }
        return found
    }
}
