import Foundation
import TestSupport
import XCTest

/// The stubs that name our operators to a user who types another library's spelling are kept in
/// three places, and this test keeps the three in step: the unavailable declarations themselves
/// (`@available(*, unavailable, …)` in Sources: Sources/Signals/OtherLibraries/*.swift,
/// Sources/Subjects/OtherLibraries.swift, Sources/Disposables/OtherLibraries.swift), the spellings
/// that OtherLibrariesNamesTests type-checks against them, and the article's list of them
/// (Sources/Signals/Signals.docc/ComingFromOtherLibraries.md, "What the compiler tells you").
///
/// A stub is read from its declaration: the type it is declared on (`Signal`, `MulticastConnection`,
/// `SubscriberProtocol`, `Disposable`), whether it is static or an initializer, its base name and
/// argument labels, and the libraries whose spelling it is, from the start of its doc comment
/// ("RxSwift's and Combine's `flatMap(_:)`"). A spelling calls it when it calls that name on a value
/// (on the type, for a static stub; `Signal(…)` for an initializer) with labels that fit its
/// parameters, defaulted ones left out and a closure trailing, as MatrixCoverageTests matches calls
/// (TestSupport's SourceParsing.swift). The article lists it when the library's bullet has it in
/// code voice in the label form the article uses: `debounce(_:on:)`, `Signal.just(_:)`,
/// `Signal(value:)`, with `…` for labels left out (`on(starting:…value:)`, `handleEvents(…)`), in
/// the clause for its type ("on a subscriber or a subject", "on a `MulticastConnection`", "on a
/// disposable") when it is not on `Signal`; a code span right after "RxSwift's" or "Combine's"
/// counts for that library. Overloads that differ only in their types (a `TimeInterval` and a
/// `Duration`) are one stub.
final class StubRegistryTests: XCTestCase {
    static let libraries = ["ReactiveSwift", "RxSwift", "Combine"]

    /// Each library's list of spellings in OtherLibrariesNamesTests.
    static let spellingLists = ["ReactiveSwift": "reactiveSwift", "RxSwift": "rxSwift", "Combine": "combine"]

    static let spellingsFile = "Tests/AdoptionTests/OtherLibrariesNamesTests.swift"
    static let article = "Sources/Signals/Signals.docc/ComingFromOtherLibraries.md"
    static let articleSection = "### What the compiler tells you"

    /// The clause of the article's list that holds the stubs of a type other than `Signal`.
    static let articleContexts: [(type: String, phrase: String)] = [
        ("SubscriberProtocol", "on a subscriber"),
        ("MulticastConnection", "on a `MulticastConnection`"),
        ("Disposable", "on a disposable"),
        ("TestScheduler", "on a `TestScheduler`"),
        ("ReplaySubject", "to make a `ReplaySubject`"),
    ]

    /// A stub: an unavailable public member, and the libraries its doc comment names.
    struct Stub {
        let member: PublicMember
        let libraries: [String]

        /// How the article writes it: `debounce(_:on:)`, `Signal.just(_:)`, `Signal(value:)`.
        var articleForm: String {
            let labels = "(\((member.parameters ?? []).map { "\($0.label):" }.joined()))"
            if member.name == "init" { return member.type + labels }
            return (member.isStatic ? member.type + "." : "") + member.name + labels
        }
    }

    /// Every unavailable public member in Sources, each with its libraries; fails for an
    /// unavailable declaration the parser cannot read, or one whose doc comment names no library.
    static func stubs() throws -> [Stub] {
        var stubs: [Stub] = []
        for file in PackageSource.swiftFiles(at: "Sources") {
            let path = PackageSource.relativePath(of: file)
            let source = try String(contentsOf: file, encoding: .utf8)
            // A file without the word has no unavailable declaration (and most files are read no further).
            guard source.contains("unavailable") else { continue }
            let members = PublicMember.all(in: source, file: path).filter(\.isUnavailable)
            // Every `@available(…, unavailable, …)` must be one of these members, or a type that
            // helps one (ReactiveSwift's `FlattenStrategy` cases, Combine's `Subscribers.Completion`):
            // an unavailable declaration the parser does not see would go unchecked.
            for line in unavailableDeclarationLines(in: source) where !members.contains(where: { $0.line == line.number }) {
                if !line.isType {
                    XCTFail("StubRegistryTests cannot read the unavailable declaration at \(path):\(line.number): declare stubs as `public` members of a top-level extension, at one level of indentation, as Sources/Signals/OtherLibraries/*.swift does")
                }
            }
            // The hints of ErrorTypeHints.swift stand for no library's spelling: DiagnosticsCatalogTests
            // keeps them, as it keeps the other libraries' type names.
            for member in members where !member.documentation.hasPrefix("A hint, not an operator") {
                let named = libraries(named: member.documentation)
                if named.isEmpty {
                    XCTFail("the stub \(member.signature) (\(member.location)) has no doc comment that starts by naming its library, as \"RxSwift's `just(_:)`: …\" or \"RxSwift's and Combine's `flatMap(_:)`: …\" (\(libraries.joined(separator: ", ")))")
                }
                stubs.append(Stub(member: member, libraries: named))
            }
        }
        return stubs
    }

    /// The libraries a stub's doc comment names before its first code span ("RxSwift's and
    /// Combine's (CombineExt) `withLatestFrom(_:resultSelector:)`").
    static func libraries(named documentation: String) -> [String] {
        let lead = documentation.prefix { $0 != "`" }
        return libraries.filter { lead.contains("\($0)'s") }
    }

    /// The lines (from 1) of the declarations that an `@available(…)` with the `unavailable`
    /// argument marks, at any indentation, and whether each declares a type.
    static func unavailableDeclarationLines(in source: String) -> [(number: Int, isType: Bool)] {
        let lines = source.components(separatedBy: "\n")
        var found: [(number: Int, isType: Bool)] = []
        var index = 0
        while index < lines.count {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("@available") else {
                index += 1
                continue
            }
            var attribute = trimmed
            while PublicMember.depth(of: attribute) > 0, index + 1 < lines.count {
                index += 1
                attribute += "\n" + lines[index]
            }
            index += 1
            guard PublicMember.isUnavailableAttribute(attribute) else { continue }
            // The declaration: the next line that is not another attribute, a comment or blank.
            var declaration = index
            while declaration < lines.count {
                let text = lines[declaration].trimmingCharacters(in: .whitespaces)
                if text.isEmpty || text.hasPrefix("//") {
                    declaration += 1
                } else if text.hasPrefix("@") {
                    var other = text
                    while PublicMember.depth(of: other) > 0, declaration + 1 < lines.count {
                        declaration += 1
                        other += "\n" + lines[declaration]
                    }
                    declaration += 1
                } else {
                    break
                }
            }
            guard declaration < lines.count else { break }
            let words = lines[declaration].split(separator: " ").map(String.init)
            // A top-level declaration (another library's type name, RxSwift's `Disposables.create()`
            // as a function of module Disposables) is DiagnosticsCatalogTests's, counted as a type.
            let isTopLevel = !(lines[declaration].first?.isWhitespace ?? true)
            let isType = isTopLevel || (words.contains { ["enum", "struct", "class", "actor", "protocol", "typealias"].contains($0) }
                && !words.contains("func") && !words.contains("var") && !words.contains("init"))
            found.append((declaration + 1, isType))
        }
        return found
    }

    // MARK: - The spellings

    /// A spelling of OtherLibrariesNamesTests: its code, and the calls in it.
    struct Spelling {
        let library: String
        let code: String
        let calls: [Call]
    }

    /// The spellings of each library's list in OtherLibrariesNamesTests: the code of each
    /// element (`.renamed("…", to: …)`, `.message("…", …)`, `Spelling(code: "…", …)`).
    static func spellings() throws -> [Spelling] {
        let raw = Array(try PackageSource.read(spellingsFile))
        let code = SourceText.masked(String(raw))
        var spellings: [Spelling] = []
        for library in libraries {
            let listName = try XCTUnwrap(spellingLists[library])
            let list = try XCTUnwrap(SourceText.arrayLiteral(assignedTo: listName, in: code), "no `let \(listName) = [...]` in \(spellingsFile)")
            for element in SourceText.elements(of: list, in: code) {
                let quote = try XCTUnwrap(element.first { code[$0] == "\"" }, "a spelling without code in \(spellingsFile): \(String(raw[element]))")
                let text = try XCTUnwrap(SourceText.stringLiteral(at: quote, in: raw))
                spellings.append(Spelling(library: library, code: text, calls: Call.all(in: text, initializerTypes: ["Signal"])))
            }
        }
        return spellings
    }

    /// Whether `call` calls `stub`: its name and labels fit, on a value (on the type, for a static
    /// stub; an initializer call, for an initializer).
    static func call(_ call: Call, calls stub: PublicMember) -> Bool {
        guard stub.fits(call) else { return false }
        if stub.name == "init" { return true }
        return stub.isStatic ? call.receiver == .type(stub.type) : call.receiver == .value
    }

    // MARK: - The article

    /// A spelling in code voice in the article's list.
    struct Mention: CustomStringConvertible {
        enum Labels {
            case exact([String])
            /// `on(starting:…value:)`: the first labels and the last, with any between.
            case elided(first: [String], last: [String])
        }

        let library: String
        /// The type whose clause it is in: `Signal`, or one of `articleContexts`.
        let context: String
        /// `Signal` in `Signal.just(_:)` and `Signal(value:)`.
        let type: String?
        /// `init` for `Signal(value:)`.
        let name: String
        let labels: Labels
        let text: String

        var description: String { "`\(text)` (\(library))" }

        func lists(_ stub: Stub) -> Bool {
            let member = stub.member
            guard stub.libraries.contains(library), context == (member.type == "Signal" ? "Signal" : member.type) else { return false }
            if name == "init" {
                guard member.name == "init", member.type == type else { return false }
            } else {
                guard member.name == name, member.name != "init", member.isStatic == (type != nil) else { return false }
                if let type, type != member.type { return false }
            }
            let parameters = member.parameters ?? []
            switch labels {
            case let .exact(labels):
                return PublicMember.labels(labels, trailingClosures: 0, fit: parameters)
            case let .elided(first, last):
                let all = parameters.map(\.label)
                return all.starts(with: first) && all.reversed().starts(with: last.reversed())
            }
        }
    }

    /// The spellings in code voice in the bullets of the article's "What the compiler tells you",
    /// one bullet per library, but those in parentheses (asides such as "renamed to ``…``"); fails
    /// when the section or a library's bullet is missing.
    static func mentions() throws -> [Mention] {
        let lines = try PackageSource.read(article).components(separatedBy: "\n")
        let start = try XCTUnwrap(lines.firstIndex(of: articleSection), "no \"\(articleSection)\" in \(article)")
        var bullets: [String] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("#") { break }
            if line.hasPrefix("- ") {
                bullets.append(String(line.dropFirst(2)))
            } else if line.hasPrefix("  "), !bullets.isEmpty, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                bullets[bullets.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            } else if !bullets.isEmpty {
                break   // the list ends at the first line that is not part of a bullet
            }
        }
        var mentions: [Mention] = []
        for library in libraries {
            let bullet = try XCTUnwrap(bullets.first { $0.hasPrefix(library + ": ") }, "the list in \"\(articleSection)\" of \(article) has no bullet \"- \(library): …\"")
            mentions += spans(in: String(bullet.dropFirst(library.count + 2))).compactMap { span in
                guard !span.isAside, let parsed = parse(span.text) else { return nil }
                let context = articleContexts.last { span.clause.contains($0.phrase) }?.type ?? "Signal"
                let before = span.clause.trimmingCharacters(in: .whitespaces)
                let named = libraries.first { before.hasSuffix("\($0)'s") } ?? library
                return Mention(library: named, context: context, type: parsed.type, name: parsed.name, labels: parsed.labels, text: span.text)
            }
        }
        return mentions
    }

    /// The code spans of `text` (Markdown), each with the text of its clause before it (from the
    /// last `;` or `. ` outside code), and whether it is inside parentheses; ``symbol links`` are
    /// left out.
    private static func spans(in text: String) -> [(text: String, clause: String, isAside: Bool)] {
        var spans: [(text: String, clause: String, isAside: Bool)] = []
        let characters = Array(text)
        var clause = ""
        var parentheses = 0
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "`" {
                let isLink = index + 1 < characters.count && characters[index + 1] == "`"
                let delimiter = isLink ? 2 : 1
                var end = index + delimiter
                while end < characters.count, characters[end] != "`" { end += 1 }
                let span = String(characters[(index + delimiter)..<min(end, characters.count)])
                if !isLink { spans.append((span, clause, parentheses > 0)) }
                clause += String(characters[index..<min(end + delimiter, characters.count)])
                index = end + delimiter
                continue
            }
            if character == "(" { parentheses += 1 }
            if character == ")" { parentheses = max(0, parentheses - 1) }
            let endsSentence = character == "." && (index + 1 == characters.count || characters[index + 1] == " ")
            if parentheses == 0, character == ";" || endsSentence {
                clause = ""
            } else {
                clause.append(character)
            }
            index += 1
        }
        return spans
    }

    /// `debounce(_:on:)`, `Signal.just(_:)`, `Signal(value:)`, `on(starting:…value:)`; `nil` for
    /// code that is not such a spelling (`.merge`, `DispatchQueue.main`).
    private static func parse(_ text: String) -> (type: String?, name: String, labels: Mention.Labels)? {
        guard text.hasSuffix(")"), let open = text.firstIndex(of: "(") else { return nil }
        let head = text[..<open].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let inside = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        let isIdentifier = { (word: String) in
            !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !(word.first?.isNumber ?? true)
        }
        guard head.allSatisfy(isIdentifier), head.count <= 2 else { return nil }
        func labels(_ text: Substring) -> [String]? {
            guard !text.isEmpty else { return [] }
            guard text.hasSuffix(":") else { return nil }
            let words = text.dropLast().split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            return words.allSatisfy { $0 == "_" || isIdentifier($0) } ? words : nil
        }
        let parts = inside.split(separator: "…", omittingEmptySubsequences: false)
        let parsedLabels: Mention.Labels
        if parts.count == 2, let first = labels(parts[0]), let last = labels(parts[1]) {
            parsedLabels = .elided(first: first, last: last)
        } else if parts.count == 1, let exact = labels(parts[0]) {
            parsedLabels = .exact(exact)
        } else {
            return nil
        }
        if head.count == 2 { return (head[0], head[1], parsedLabels) }
        if head[0].first?.isUppercase ?? false { return (head[0], "init", parsedLabels) }
        return (nil, head[0], parsedLabels)
    }

    // MARK: - The checks

    /// The parsers find what they are meant to, so that none of the checks below can pass by
    /// finding nothing.
    func testTheParsersFindTheKnownStubsSpellingsAndEntries() throws {
        let stubs = try Self.stubs()
        XCTAssertGreaterThan(stubs.count, 100, "the parser found only \(stubs.count) stubs in Sources")
        let known: [(signature: String, libraries: [String])] = [
            ("Signal.debounce(_:on:)", ["ReactiveSwift"]), ("Signal.debounce(_:scheduler:)", ["RxSwift"]),
            ("Signal.debounce(for:scheduler:)", ["Combine"]), ("Signal.flatMap(_:)", ["RxSwift", "Combine"]),
            ("Signal.init(value:)", ["ReactiveSwift"]), ("Signal.just(_:)", ["RxSwift"]), ("Signal.flatMap(_:_:)", ["ReactiveSwift"]),
            ("Signal.makeConnectable()", ["Combine"]), ("MulticastConnection.refCount()", ["RxSwift"]),
            ("SubscriberProtocol.onNext(_:)", ["RxSwift"]), ("Disposable.disposed(by:)", ["RxSwift"]), ("Disposable.store(in:)", ["Combine"]),
        ]
        for (signature, libraries) in known {
            let found = stubs.filter { $0.member.signature == signature }
            XCTAssertFalse(found.isEmpty, "the parser did not find the stub \(signature)")
            for stub in found { XCTAssertEqual(stub.libraries, libraries, "the libraries of \(signature)") }
        }
        XCTAssertTrue(stubs.contains { $0.member.signature == "Signal.just(_:)" && $0.member.isStatic })
        XCTAssertFalse(stubs.contains { $0.member.name == "_FlattenLatest" || $0.member.name == "_Completion" }, "the parser took a helper type for a stub")
        XCTAssertFalse(stubs.contains { $0.member.signature == "Signal.map(_:)" }, "the parser took an operator for a stub")

        let spellings = try Self.spellings()
        for library in Self.libraries {
            XCTAssertGreaterThan(spellings.filter { $0.library == library }.count, 25, "the parser found few spellings of \(library) in \(Self.spellingsFile)")
        }
        XCTAssertTrue(spellings.contains { $0.library == "ReactiveSwift" && $0.code == "_ = numbers.logEvents(identifier: \"numbers\")" })
        XCTAssertTrue(spellings.contains { $0.code == "_ = Signal<Int, Never>.just(1)" && $0.calls.contains { $0.name == "just" && $0.receiver == .type("Signal") } })
        XCTAssertTrue(spellings.contains { $0.code == "_ = Signal<Int, Never>(value: 1)" && $0.calls.contains { $0.name == "init" && $0.labels == ["value"] } })

        let mentions = try Self.mentions()
        for library in Self.libraries {
            XCTAssertGreaterThan(mentions.filter { $0.library == library }.count, 25, "the parser found few entries for \(library) in \(Self.article)")
        }
        let found = Set(mentions.map { "\($0.library) \($0.context) \($0.text)" })
        for entry in ["ReactiveSwift Signal debounce(_:on:)", "ReactiveSwift Signal Signal(value:)", "RxSwift Signal Signal.just(_:)",
                      "ReactiveSwift Signal on(starting:…value:)", "RxSwift SubscriberProtocol onNext(_:)",
                      "RxSwift MulticastConnection refCount()", "RxSwift Disposable disposed(by:)", "Combine Disposable store(in:)"] {
            XCTAssertTrue(found.contains(entry), "the parser did not find \(entry) in \(Self.article)")
        }
        XCTAssertFalse(mentions.contains { $0.text.contains("rateLimit") || $0.text == "add(_:)" }, "the parser took a link or an aside for an entry")
    }

    /// Every stub has, for each library its doc comment names, a spelling in that library's list
    /// of OtherLibrariesNamesTests that calls it, so that the compiler's message for it is checked.
    func testEveryStubHasASpellingInOtherLibrariesNamesTests() throws {
        let spellings = try Self.spellings()
        var reported: Set<String> = []
        for stub in try Self.stubs() {
            for library in stub.libraries where !spellings.contains(where: { spelling in
                spelling.library == library && spelling.calls.contains { Self.call($0, calls: stub.member) }
            }) {
                guard reported.insert("\(library) \(stub.member.signature)").inserted else { continue }
                XCTFail("""
                    no spelling of \(library) calls the stub \(stub.member.signature) (\(stub.member.location)): add one to \
                    `\(Self.spellingLists[library] ?? "")` in \(Self.spellingsFile), the code a user of \(library) writes, with \
                    the error it must draw
                    """)
            }
        }
    }

    /// Every stub is in the article's list, under each library its doc comment names, in the
    /// article's label form, so that a reader finds the spellings the compiler helps with.
    func testEveryStubIsListedInTheArticle() throws {
        let mentions = try Self.mentions()
        var reported: Set<String> = []
        for stub in try Self.stubs() {
            for library in stub.libraries where !mentions.contains(where: { $0.library == library && $0.lists(stub) }) {
                guard reported.insert("\(library) \(stub.articleForm) \(stub.member.type)").inserted else { continue }
                let place = Self.articleContexts.first { $0.type == stub.member.type }.map { ", in its clause \"\($0.phrase)…\"" } ?? ""
                XCTFail("""
                    the article's list does not give \(library)'s \(stub.member.signature) (\(stub.member.location)): add \
                    `\(stub.articleForm)` to the \(library) bullet\(place) of "\(Self.articleSection)" in \(Self.article)
                    """)
            }
        }
    }

    /// The other way: every spelling of a library's list calls a stub of that library, and every
    /// entry of the article's list names one, so that neither keeps a spelling whose stub is gone
    /// or belongs to another library.
    func testEverySpellingAndEntryNamesAStubOfItsLibrary() throws {
        let stubs = try Self.stubs()
        for spelling in try Self.spellings() where !stubs.contains(where: { stub in
            stub.libraries.contains(spelling.library) && spelling.calls.contains { Self.call($0, calls: stub.member) }
        }) {
            XCTFail("the spelling `\(spelling.code)` of \(spelling.library) in \(Self.spellingsFile) calls no stub of \(spelling.library): a stub's doc comment must name \(spelling.library), or the spelling belongs to another list (or to `unstubbed`)")
        }
        for mention in try Self.mentions() where !stubs.contains(where: mention.lists) {
            XCTFail("the article's list (\(Self.article)) gives \(mention) in the \(mention.context) clause, but no stub of \(mention.library) there has that spelling")
        }
    }
}
