import Foundation
import Observation
import Command
import Disposables
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

// The code of the article "Building an app" (Sources/ReactiveCocoaSwift/ReactiveCocoaSwift.docc/
// BuildingAnApp.md), verbatim, and tests that run it.
// `testArticle_everyExampleIsCompiledHere` keeps the two in step.

// Article: a search screen
/// What the screen searches with.
protocol SearchService: Sendable {
    func search(_ query: String) async throws -> [String]
}

@MainActor @Observable
final class SearchViewModel {
    /// The search field's text: the view writes it.
    var query = ""
    /// What the list shows.
    private(set) var results: [String] = []
    /// A line under the field: nothing, "No results" or the error.
    private(set) var message = ""

    @ObservationIgnored private let subscriptions = CompoundDisposable()

    init(service: SearchService, pause: TimeInterval = 0.3) {
        let answers = signal(for: \.query)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .distinctUntilChanged()
            .throttle(pause)                   // RAC's throttle: waits for a pause in the typing
            .map { query in Self.answer(to: query, from: service) }
            .switchToLatest()                  // a new query cancels the search still running
        subscriptions.add(answers.subscribeNextOnMainActor { [weak self] answer in
            self?.show(answer)
        })
    }

    isolated deinit {
        subscriptions.dispose()
    }

    private nonisolated static func answer(to query: String, from service: SearchService) -> Signal<Answer, Never> {
        guard !query.isEmpty else { return .return(.found([])) }
        return Signal { try await service.search(query) }
            .map { Answer.found($0) }
            .catch { error -> Signal<Answer, Never> in .return(.failed("\(error)")) }
    }

    private func show(_ answer: Answer) {
        switch answer {
        case let .found(results):
            self.results = results
            message = results.isEmpty && !query.isEmpty ? "No results" : ""
        case let .failed(reason):
            message = "Search failed: \(reason)"
        }
    }

    enum Answer: Sendable {
        case found([String])
        case failed(String)
    }
}
// End of article

// Article: a sign-in form
enum SignInError: Error, Equatable {
    case rejected
}

protocol AuthService: Sendable {
    /// A session token for the user, or `.rejected`.
    func signIn(user: String, password: String) async throws(SignInError) -> String
}

@MainActor @Observable
final class SignInViewModel {
    var user = ""
    var password = ""
    private(set) var canSignIn = false
    private(set) var isSigningIn = false
    private(set) var errorMessage = ""
    private(set) var session: String?

    struct Credentials: Sendable {
        var user: String
        var password: String
    }

    @ObservationIgnored let signIn: Command<Credentials, String, SignInError>
    @ObservationIgnored private let formIsValid: ObservableValue<Bool>
    @ObservationIgnored private let subscriptions = CompoundDisposable()

    init(service: AuthService) {
        let formIsValid = ObservableValue(false)   // kept: a binding holds its cell weakly
        self.formIsValid = formIsValid
        signIn = Command(enabled: formIsValid.signal) { credentials in
            Signal { () async throws(SignInError) -> String in
                try await service.signIn(user: credentials.user, password: credentials.password)
            }
        }
        let form = Signal.combineLatest(signal(for: \.user), signal(for: \.password))
        subscriptions.add(formIsValid.bind(from: form.map { user, password in
            !user.isEmpty && password.count >= 8
        }))
        subscriptions.add(signIn.enabled.assignOnMainActor(to: \.canSignIn, on: self))
        subscriptions.add(signIn.executing.assignOnMainActor(to: \.isSigningIn, on: self))
        subscriptions.add(signIn.errors.subscribeNextOnMainActor { [weak self] error in
            self?.errorMessage = "Sign-in failed: \(error)"
        })
        subscriptions.add(signIn.executionSignals.flatten().subscribeNextOnMainActor { [weak self] token in
            self?.session = token
        })
    }

    isolated deinit {
        subscriptions.dispose()
    }

    /// The button's action; the button is enabled while `canSignIn`.
    func signInTapped() {
        errorMessage = ""
        signIn.execute(Credentials(user: user, password: password))
    }
}
// End of article

// Article: a background pipeline
/// Where the app's log lines go.
protocol LogStore: Sendable {
    func upload(_ lines: [String]) async throws
}

/// Takes log lines from any thread and uploads them in the background, in batches of
/// `batchSize` lines or what came in `interval` seconds, one upload at a time.
final class LogShipper: Sendable {
    /// How many lines have been uploaded: a status view shows it.
    let uploaded = ObservableValue(0)
    private let lines = Subject<String, Never>()
    private let subscription: Disposable

    init(
        store: LogStore,
        batchSize: Int = 50,
        interval: TimeInterval = 10,
        scheduler: Scheduler = .background(priority: .low, name: "log shipper")
    ) {
        let uploaded = uploaded
        subscription = lines
            .deliver(on: scheduler)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
            .buffer(count: batchSize, interval: interval, on: scheduler)
            .map { batch in
                Signal { try await store.upload(batch) }
                    .retry(3, delay: .exponential(initial: 1, maximum: 30), on: scheduler)
                    .map { batch.count }
                    .catch { _ -> Signal<Int, Never> in .return(0) }  // dropped after 3 retries
            }
            .concat()                      // one upload at a time, in order
            .scan(0, +)
            .subscribe(next: { total in uploaded.value = total })
    }

    deinit {
        subscription.dispose()
    }

    /// Any thread.
    func log(_ line: String) {
        lines.sendNext(line)
    }
}
// End of article

/// A log store for the tests: keeps the batches, and fails each batch's first upload.
private final class FakeLogStore: LogStore {
    let batches = Recorder<[String]>()
    private let failed = Recorder<[String]>()

    func upload(_ lines: [String]) async throws {
        if !failed.values.contains(lines) {
            failed.record(lines)
            throw URLError(.timedOut)
        }
        batches.record(lines)
    }
}

/// A search service for the tests: answers after a moment, fails for "offline", and counts the
/// searches that were cancelled.
private final class FakeSearchService: SearchService {
    let started = Recorder<String>()
    let cancelled = Recorder<String>()

    func search(_ query: String) async throws -> [String] {
        started.record(query)
        do {
            try await Task.sleep(for: .milliseconds(query == "sw" ? 2_000 : 10))
        } catch {
            cancelled.record(query)
            throw error
        }
        if query == "offline" { throw URLError(.notConnectedToInternet) }
        return ["swift", "swiftui", "swiftpm"].filter { $0.hasPrefix(query) }
    }
}

/// An authentication service for the tests: one password works.
private struct FakeAuthService: AuthService {
    func signIn(user: String, password: String) async throws(SignInError) -> String {
        try? await Task.sleep(for: .milliseconds(10))
        guard password == "correct horse" else { throw .rejected }
        return "session of \(user)"
    }
}

final class BuildingAnAppTests: LeakCheckedTestCase {
    func testArticle_everyExampleIsCompiledHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/ReactiveCocoaSwift/ReactiveCocoaSwift.docc/BuildingAnApp.md"),
            encoding: .utf8
        )
        let tests = try String(contentsOf: here, encoding: .utf8)
        let testLines = Set(tests.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        XCTAssertGreaterThanOrEqual(blocks.count, 3)
        for block in blocks {
            for line in block.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("import ") { continue }
                XCTAssertTrue(testLines.contains(trimmed), "article line not compiled by BuildingAnAppTests: \(trimmed)")
            }
        }
    }

    func testLogShipper_uploadsInBatches_retriesAndCounts() {
        let store = FakeLogStore()
        let scheduler = TestScheduler()
        let shipper = LogShipper(store: store, batchSize: 3, interval: 10, scheduler: scheduler)
        for line in ["a", " ", "b", "c\n", "d"] { shipper.log(line) }
        scheduler.advance()
        // "a", "b", "c": a full batch; its first upload fails, and is retried after 1 s.
        XCTAssertTrue(pollWithoutRunningTheMainQueue { store.batches.values.isEmpty && shipper.uploaded.value == 0 })
        XCTAssertTrue(pollWithoutRunningTheMainQueue {
            scheduler.advance(by: 0.1)
            return store.batches.values == [["a", "b", "c"]]
        })
        XCTAssertTrue(pollWithoutRunningTheMainQueue { shipper.uploaded.value == 3 })
        // "d" goes 10 s after it came, alone, retried once too.
        XCTAssertTrue(pollWithoutRunningTheMainQueue {
            scheduler.advance(by: 0.5)
            return store.batches.values == [["a", "b", "c"], ["d"]]
        })
        XCTAssertTrue(pollWithoutRunningTheMainQueue { shipper.uploaded.value == 4 })
    }

    func testSignInForm_enablesTheButton_showsTheError_thenSignsIn() {
        MainActor.assumeIsolated { Self.signInForm() }
    }

    @MainActor
    private static func signInForm() {
        let model = SignInViewModel(service: FakeAuthService())
        XCTAssertTrue(spinMainRunLoop { !model.canSignIn })
        model.user = "ada"
        model.password = "wrong horse"
        XCTAssertTrue(spinMainRunLoop { model.canSignIn })
        model.signInTapped()
        XCTAssertTrue(spinMainRunLoop { model.isSigningIn && !model.canSignIn })
        XCTAssertTrue(spinMainRunLoop { model.errorMessage == "Sign-in failed: rejected" })
        XCTAssertTrue(spinMainRunLoop { !model.isSigningIn && model.canSignIn })
        XCTAssertNil(model.session)

        model.password = "correct horse"
        model.signInTapped()
        XCTAssertEqual(model.errorMessage, "")
        XCTAssertTrue(spinMainRunLoop { model.session == "session of ada" })
        XCTAssertTrue(spinMainRunLoop { !model.isSigningIn })
    }

    func testSearchScreen_showsTheResultsOfTheLastQuery() {
        MainActor.assumeIsolated { Self.searchScreen() }
    }

    @MainActor
    private static func searchScreen() {
        let service = FakeSearchService()
        let model = SearchViewModel(service: service, pause: 0.05)
        model.query = "sw"
        XCTAssertTrue(spinMainRunLoop { service.started.values == ["sw"] })
        model.query = "swift"
        XCTAssertTrue(spinMainRunLoop { model.results == ["swift", "swiftui", "swiftpm"] })
        XCTAssertEqual(model.message, "")
        XCTAssertTrue(spinMainRunLoop { service.cancelled.values == ["sw"] }, "the search for \"sw\" was cancelled: \(service.started.values) \(service.cancelled.values)")

        model.query = "offline"
        XCTAssertTrue(spinMainRunLoop { model.message.hasPrefix("Search failed: ") })
        model.query = "rust"
        XCTAssertTrue(spinMainRunLoop { model.message == "No results" })
        XCTAssertEqual(model.results, [])
    }
}
