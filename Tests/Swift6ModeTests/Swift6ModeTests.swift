import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import TestSupport
import Testing
import TestSupport
import XCTest

/// Runs the user code of `UserCode.swift`, and checks that it needed no escape hatch.
final class Swift6ModeTests: LeakCheckedTestCase {
    @MainActor
    func testViewModel_bindsOnTheMainActor() async {
        let model = ProfileViewModel()
        let (titles, titleInput) = Signal<String, Never>.pipe()
        model.bind(titles: titles, statuses: .return("online"))
        titleInput.sendNext("Ada")
        let bound = await eventually { model.title == "Ada" && model.status == "online" }
        XCTAssertTrue(bound, "the main actor never got the title and the status")
        XCTAssertEqual(model.title, "Ada")
        XCTAssertEqual(model.status, "online")

        model.load(.error(.offline))
        let failed = await eventually { !model.errorText.isEmpty }
        XCTAssertTrue(failed, "the main actor never got the error")
        XCTAssertEqual(model.errorText, "offline")
        XCTAssertFalse(model.isLoaded)
        model.subscriptions.dispose()
    }

    @MainActor
    func testViewModel_awaitsSignals() async throws {
        let model = ProfileViewModel()
        let title = try await model.firstTitle(of: Network.title)
        XCTAssertEqual(title, "Ada")
        do {
            _ = try await model.firstTitle(of: .error(.offline))
            XCTFail("the error was not thrown")
        } catch {
            XCTAssertEqual(error, .offline)
        }
        await model.follow(Signal.return("away").concat(.return("back")))
        XCTAssertEqual(model.status, "back")
        let shown = try await model.showProgress(Network.progress)
        XCTAssertEqual(shown.last, 1, "the newest value always arrives")
        XCTAssertEqual(shown, shown.sorted(), "in order, some perhaps skipped")
    }

    func testActor_followsDownloads() async {
        let log = DownloadLog()
        let subscription = await log.follow(Signal.return("a.pdf").concat(.error(.offline)))
        // The actor's closures run on its own executor: wait for them, however busy the machine.
        let failed = await eventually { await !log.failures.isEmpty }
        XCTAssertTrue(failed, "the actor never got the error")
        let finished = await log.finished
        let failures = await log.failures
        XCTAssertEqual(finished, ["a.pdf"])
        XCTAssertEqual(failures, [.offline])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testBinding_settings() {
        let settings = Settings()
        let themes = Signal<String, Never>.return("dark")
        themes.assign(to: \.value, on: settings.theme)
        XCTAssertEqual(settings.theme.value, "dark")
        let size = ObservableValue(14)
        size.bind(to: settings.fontSize)
        XCTAssertEqual(settings.fontSize.value, 14)
    }

    func testAsyncSequence_signalOfAStream() async {
        let pages = await Network.pages.allValues()
        XCTAssertEqual(pages, [1, 2, 3])
    }

    /// The user code compiles with warnings as errors (Package.swift); it must also do so with
    /// none of the escape hatches Swift 6 offers.
    func testUserCode_needsNoEscapeHatch() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for file in ["UserCode.swift", "Swift6ModeTests.swift"] {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            // Spelled in pieces so that this file does not contain them either.
            for hatch in ["@unchecked" + " Sendable", "nonisolated" + "(unsafe)", "assume" + "Isolated", "@pre" + "concurrency"] {
                XCTAssertFalse(source.contains(hatch), "\(file) uses \(hatch)")
            }
        }
    }
}

/// Marble tests in Swift Testing, as a user tests a signal of their own; each is also a leak test.
@Suite(.serialized, .checksLiveSubscriptions)
struct SearchMarbleTests {
    @Test func searchIsThrottled() {
        let scheduler = TestScheduler()
        let typed = scheduler.createColdSignal("ab-c-----d|", values: ["a": "r", "b": "re", "c": "rea", "d": "react"])
        let recording = scheduler.record(typed.throttle(2, on: scheduler))
        scheduler.run()
        #expect(recording.mismatch(expected: "-----c----(d|)", values: ["c": "rea", "d": "react"]) == nil)
    }
}
