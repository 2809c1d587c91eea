import Foundation
import TestSupport
import XCTest

/// Every public member of `Signal` that module `Signals` declares is listed in the topics of its
/// DocC page (`Sources/Signals/Signals.docc/Signal.md`), so that a new operator is filed where a
/// reader of the reference looks for it, not left in DocC's catch-all group at the end. The
/// members are read from the sources (the parser of `MatrixCoverageTests`); a topic is a symbol
/// link in the page's "Topics" section, matched by name and argument labels (overloads that differ
/// only in their types share one entry, and DocC's disambiguating suffix is ignored).
final class DocCTopicCoverageTests: XCTestCase {
    /// Members documented elsewhere, each with the reason.
    static let listedElsewhere: [String: String] = [
        // One overload per arity, twelve, which DocC tells apart only by hashed suffixes: the
        // group "Transforming values" names it in a sentence instead.
        "reduceApply()": "named in prose in Transforming values",
    ]

    func testEveryPublicMemberOfSignalHasATopic() throws {
        var members: [PublicMember] = []
        for file in PackageSource.swiftFiles(at: "Sources/Signals") {
            let source = try String(contentsOf: file, encoding: .utf8)
            members += PublicMember.declared(in: source, file: PackageSource.relativePath(of: file))
                .filter { $0.type == "Signal" && !$0.isUnavailable }
        }
        let page = try PackageSource.read("Sources/Signals/Signals.docc/Signal.md")
        let topics = try XCTUnwrap(page.range(of: "## Topics"), "Signal.md has no Topics section")
        let listed = Set(Self.links(in: String(page[topics.upperBound...])))

        // The parser must find what it is meant to, on both sides.
        let signatures = Set(members.map { String($0.signature.dropFirst("Signal.".count)) })
        for known in ["map(_:)", "take(until:)", "values", "subscribe(next:error:completed:file:line:)"] {
            XCTAssertTrue(signatures.contains(known), "the parser did not find Signal.\(known) in Sources/Signals")
            XCTAssertTrue(listed.contains(known), "no topic for \(known) was read from Signal.md")
        }

        var missing: [String] = []
        for member in members {
            let signature = String(member.signature.dropFirst("Signal.".count))
            if listed.contains(signature) || Self.listedElsewhere[signature] != nil { continue }
            missing.append("\(member.signature) (\(member.location))")
        }
        XCTAssertEqual(Set(missing).sorted(), [], """
            Public members of Signal with no topic: add a line ``- ``name(labels:)`` `` to the right \
            group of Sources/Signals/Signals.docc/Signal.md (see CONTRIBUTING.md, "Adding an operator").
            """)
        for stale in Self.listedElsewhere.keys where !signatures.contains(stale) {
            XCTFail("listedElsewhere names \(stale), which Sources/Signals no longer declares")
        }
    }

    /// The signatures the symbol links of `text` name: ``` ``map(_:)`` ``` is `map(_:)`,
    /// ``` ``Signal/values`` ``` is `values`, ``` ``and()-7e99`` ``` is `and()`.
    static func links(in text: String) -> [String] {
        text.components(separatedBy: "``").enumerated().compactMap { index, part -> String? in
            guard index % 2 == 1, !part.isEmpty, !part.contains(" ") else { return nil }
            var link = Substring(part)
            if let slash = link.lastIndex(of: "/"), !link[..<slash].contains("(") { link = link[link.index(after: slash)...] }
            let name = link.prefix { $0 != "(" && $0 != "-" }
            let rest = link.dropFirst(name.count)
            guard rest.first == "(", let close = rest.firstIndex(of: ")") else { return String(name) }
            return String(name) + rest[...close]
        }
    }
}
