import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

// The example of the article "Testing a view model in virtual time"
// (Sources/Signals/Signals.docc/TestingAViewModelInVirtualTime.md), compiled and run here: the
// article's code is the code between "Article:" and "End of article" below, line for line.

// Article: the view model
struct SearchAPI: Sendable {
    var search: @Sendable (String) -> Signal<[String], Never>
}

final class SearchViewModel: Sendable {
    let results: Signal<[String], Never>

    init(query: Signal<String, Never>, api: SearchAPI, scheduler: Scheduler) {
        results = query
            .throttle(0.5, on: scheduler)
            .flatMapLatest { text in api.search(text) }
    }
}
// End of article

final class VirtualTimeArticleTests: LeakCheckedTestCase {
    func testSearchViewModel() {
        // Article: the test
        let scheduler = TestScheduler()
        let query: TestSignal<String, Never> = scheduler.createHotSignal([
            .next(210, "r"), .next(210.25, "re"),   // typed quickly: only "re" is searched
            .next(211.5, "rea"),                    // before the reply to "re", which is dropped
        ])
        let calls = Recorder<String>()
        let replies = Recorder<TestSignal<[String], Never>>()
        let api = SearchAPI(search: { text in
            calls.record(text)
            let reply: TestSignal<[String], Never> = scheduler.createColdSignal([.next(2, [text + "ct", text + "ctive"]), .completed(2)])
            replies.record(reply)
            return reply
        })

        let results = scheduler.start { SearchViewModel(query: query, api: api, scheduler: scheduler).results }

        XCTAssertEqual(results.events, [.next(214, ["react", "reactive"])])
        XCTAssertEqual(calls.values, ["re", "rea"])
        XCTAssertEqual(replies.values.map(\.subscriptions), [[.init(210.75, 212)], [.init(212, 214)]])
        XCTAssertEqual(query.subscriptions, [.init(200, 1000)])
        // End of article
    }

    /// The article's code is this file's, line for line.
    func testArticle_showsTheCodeOfThisFile() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: root.appendingPathComponent("Sources/Signals/Signals.docc/TestingAViewModelInVirtualTime.md"), encoding: .utf8)
        let tests = try String(contentsOf: here, encoding: .utf8)
        let testLines = Set(tests.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        XCTAssertEqual(blocks.count, 2)
        for line in blocks.joined().split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("import ") { continue }
            XCTAssertTrue(testLines.contains(trimmed), "article line not compiled by VirtualTimeArticleTests: \(trimmed)")
        }
    }
}
