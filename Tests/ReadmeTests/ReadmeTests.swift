import Command
import Disposables
import Foundation
import Observation
import Schedulers
import Sequences
import Signals
import Subjects
import Synchronization
import TestSupport
import Tuples
import TestSupport
import XCTest

/// The README's examples, verbatim, with checks of what their comments claim.
///
/// `testReadme_everyExampleIsCompiledHere` keeps the two in step: each ```swift block of the
/// README must appear, line for line, in this file.
final class ReadmeTests: LeakCheckedTestCase {
    func testTuples() throws {
        // README: Tuples
        let tuple = Tuple("Ada", 36, nil)
        let count = tuple.count          // 3
        let second = tuple.second as? Int  // 36
        let hole = tuple.third           // nil: a hole, not the end

        let (name, age) = try Tuple("Ada", 36).unpack(as: String.self, Int.self)
        // name == "Ada", age == 36
        do {
            _ = try tuple.unpack(as: String.self, Int.self)
        } catch {
            // TupleError.countMismatch(expected: 2, actual: 3)
        }
        // End of README

        XCTAssertEqual(count, 3)
        XCTAssertEqual(second, 36)
        XCTAssertNil(hole)
        XCTAssertEqual(name, "Ada")
        XCTAssertEqual(age, 36)
        XCTAssertThrowsError(try tuple.unpack(as: String.self, Int.self)) { error in
            XCTAssertEqual(error as? TupleError, .countMismatch(expected: 2, actual: 3))
        }
    }

    func testDisposables() {
        // README: Disposables
        let subscriptions = CompoundDisposable()
        subscriptions.add(Disposable { print("closed the file") })
        subscriptions.add(Disposable { print("cancelled the request") })
        subscriptions.dispose()          // prints both, once

        let current = SerialDisposable()
        current.disposable = Disposable { print("old search") }
        let old = current.swap(Disposable { print("new search") })
        old?.dispose()                   // prints "old search"; swapping never disposes

        do {
            let scoped = Disposable { print("released") }.asScoped()
            _ = scoped
        }                                // prints "released" when `scoped` goes away
        // End of README

        XCTAssertTrue(subscriptions.isDisposed)
        XCTAssertNotNil(old)
        XCTAssertTrue(old?.isDisposed ?? false)
        XCTAssertFalse(current.disposable?.isDisposed ?? true)
    }

    func testSchedulers() {
        // README: Schedulers
        let scheduler = TestScheduler()
        let log = Mutex<[String]>([])
        scheduler.schedule(afterDelay: 2) { log.withLock { $0.append("two seconds") } }
        scheduler.schedule(afterDelay: 1) { log.withLock { $0.append("one second") } }
        scheduler.advance(by: 1)         // log: ["one second"]
        XCTAssertEqual(log.withLock { $0 }, ["one second"])
        scheduler.run()                  // log: ["one second", "two seconds"]

        // Recursion that does not grow the stack: a reschedule asked for inside the block runs after it.
        let countdown = Atomic(3)
        Scheduler.immediate.scheduleRecursive { reschedule in
            if countdown.subtract(1, ordering: .relaxed).newValue > 0 { reschedule() }
        }                                // countdown: 0
        // End of README

        XCTAssertEqual(log.withLock { $0 }, ["one second", "two seconds"])
        XCTAssertEqual(countdown.load(ordering: .relaxed), 0)
    }

    func testSignals() {
        // README: Signals
        let numbers = Signal<Int, Never> { subscriber in
            for number in 1...5 { subscriber.sendNext(number) }
            subscriber.sendCompleted()
            return nil
        }
        let received = Mutex<[Int]>([])
        numbers
            .filter { $0.isMultiple(of: 2) }
            .map { $0 * 10 }
            .subscribe(next: { value in received.withLock { $0.append(value) } })
        // received: [20, 40] on the main thread, before `subscribe` returns. From a task, the signal's
        // block runs on a background scheduler: there, `await numbers.filter { … }.map { … }.allValues()`.

        let (clicks, input) = Signal<String, Never>.pipe()
        let subscription = clicks.take(2).subscribe(next: { print("click on \($0)") })
        input.sendNext("OK")             // prints "click on OK"
        input.sendNext("Cancel")         // prints "click on Cancel"; take(2) then completes
        // subscription.isDisposed == true

        let pairs = Signal.zip(Signal<String, Never>.return("a"), Signal<Int, Never>.return(1))
        pairs.subscribeNext { letter, number in print(letter, number) }   // prints "a 1"
        // End of README

        XCTAssertEqual(received.withLock { $0 }, [20, 40])
        XCTAssertTrue(subscription.isDisposed)
        let pair = Mutex<String>("")
        pairs.subscribeNext { letter, number in pair.withLock { $0 = "\(letter) \(number)" } }
        XCTAssertEqual(pair.withLock { $0 }, "a 1")
    }

    /// The first Signals example's comment: from a task the created signal's block runs on a
    /// background scheduler, and awaiting the values gives them all.
    func testSignals_fromATask() async {
        let numbers = Signal<Int, Never> { subscriber in
            for number in 1...5 { subscriber.sendNext(number) }
            subscriber.sendCompleted()
            return nil
        }
        let fromTask = await Task.detached {
            let ranOn = Mutex<String?>(nil)
            let values = await numbers
                .doNext { _ in ranOn.withLock { $0 = Thread.isMainThread ? "main" : "background" } }
                .filter { $0.isMultiple(of: 2) }.map { $0 * 10 }.allValues()
            return (values, ranOn.withLock { $0 })
        }.value
        XCTAssertEqual(fromTask.0, [20, 40])
        XCTAssertEqual(fromTask.1, "background")
    }

    func testSignalsDisposal() {
        // README: Signals, disposal
        let (taps, tap) = Signal<Int, Never>.pipe()
        let log = Mutex<[String]>([])
        let current = Mutex<Disposable?>(nil)
        let firstTap = taps.take(1).subscribe(next: { value in
            log.withLock { $0.append("tap \(value)") }
            current.withLock { $0 }?.dispose()
        }, completed: { log.withLock { $0.append("completed") } })
        current.withLock { $0 = firstTap }
        tap.sendNext(1)                  // log: ["tap 1"]; take(1)'s completion does not follow dispose()
        // End of README

        XCTAssertEqual(log.withLock { $0 }, ["tap 1"])
        XCTAssertTrue(firstTap.isDisposed)
    }

    func testSignalsOperators() {
        // README: Signals, operators
        let scheduler = TestScheduler()
        let (queries, typed) = Signal<String, Never>.pipe()
        let searches = Mutex<[String]>([])
        queries.throttle(0.3, on: scheduler).subscribe(next: { query in searches.withLock { $0.append(query) } })
        typed.sendNext("r")
        typed.sendNext("ra")
        scheduler.advance(by: 0.1)
        typed.sendNext("rac")
        scheduler.advance(by: 0.3)       // searches: ["rac"], sent once typing paused for 0.3 s

        let (name, nameField) = Signal<String, Never>.pipe()
        let (password, passwordField) = Signal<String, Never>.pipe()
        let validity = Mutex<[Bool]>([])
        Signal.combineLatest(name, password)
            .map { name, password in !name.isEmpty && password.count >= 8 }
            .subscribe(next: { isValid in validity.withLock { $0.append(isValid) } })
        nameField.sendNext("ada")        // nothing yet: the password has no value
        passwordField.sendNext("secret")
        passwordField.sendNext("correct horse")
        // validity: [false, true]

        struct ServerBusy: Error {}
        let attempts = Mutex(0)
        let request = Signal<String, ServerBusy> { subscriber in
            let attempt = attempts.withLock { count in count += 1; return count }
            if attempt < 3 { subscriber.sendError(ServerBusy()) } else { subscriber.sendNext("200 OK"); subscriber.sendCompleted() }
            return nil
        }
        let response = Mutex<String?>(nil)
        request.retry(5).subscribe(next: { body in response.withLock { $0 = body } })
        // response: "200 OK", on the third attempt
        // End of README

        XCTAssertEqual(searches.withLock { $0 }, ["rac"])
        XCTAssertEqual(validity.withLock { $0 }, [false, true])
        XCTAssertEqual(response.withLock { $0 }, "200 OK")
        XCTAssertEqual(attempts.withLock { $0 }, 3)
    }

    func testSubjects() {
        // README: Subjects
        let subject = Subject<Int, Never>()
        let heard = Mutex<[Int]>([])
        subject.subscribe(next: { value in heard.withLock { $0.append(value) } })
        subject.sendNext(1)              // heard: [1]

        let recent = ReplaySubject<String, Never>(capacity: 2)
        recent.sendNext("a")
        recent.sendNext("b")
        recent.sendNext("c")
        let replayed = Mutex<[String]>([])
        recent.subscribe(next: { value in replayed.withLock { $0.append(value) } })
        // replayed: ["b", "c"], then whatever is sent next

        let ticks = Signal<Int, Never> { subscriber in
            subscriber.sendNext(42)
            return nil
        }
        let shared = ticks.publish().autoconnect()
        let first = shared.subscribe(next: { print("first", $0) })   // connects: prints "first 42"
        let second = shared.subscribe(next: { print("second", $0) })
        first.dispose()
        second.dispose()                 // the last one out disposes the connection

        let model = ObservableValue("Ada")
        let field = ObservableValue("")
        model.channel.subscribe(field.channel)
        field.channel.subscribe(model.channel)
        // field.value == "Ada"
        field.value = "Grace"            // model.value == "Grace"
        // End of README

        XCTAssertEqual(heard.withLock { $0 }, [1])
        XCTAssertEqual(replayed.withLock { $0 }, ["b", "c"])
        let printed = Mutex<[String]>([])
        let checked = ticks.publish().autoconnect()
        let one = checked.subscribe(next: { value in printed.withLock { $0.append("first \(value)") } })
        let two = checked.subscribe(next: { value in printed.withLock { $0.append("second \(value)") } })
        one.dispose()
        two.dispose()
        XCTAssertEqual(printed.withLock { $0 }, ["first 42"])
        XCTAssertTrue(first.isDisposed && second.isDisposed)
        XCTAssertEqual(model.value, "Grace")
        XCTAssertEqual(field.value, "Grace")
    }

    func testSequences() {
        // README: Sequences
        let squares = LazyList(1...).map { $0 * $0 }     // infinite: nothing is computed yet
        let evenSquares = squares.filter { $0.isMultiple(of: 2) }.take(3).array
        // [4, 16, 36]: only the first six squares were computed

        let total = LazyList([1, 2, 3, 4]).foldLeft(0, +)   // 10
        let firstBig = squares.foldRight(0) { square, rest in square > 50 ? square : rest.head! }
        // 64: the right fold stopped there, on an infinite list

        let sent = Mutex<[Int]>([])
        LazyList([1, 2, 3]).signal(on: .immediate).subscribe(next: { value in sent.withLock { $0.append(value) } })
        // sent: [1, 2, 3], then completed
        let buffered = Signal<Int, Never>.return(5).concat(.return(6)).lazyList.array   // [5, 6]
        // End of README

        XCTAssertEqual(evenSquares, [4, 16, 36])
        XCTAssertEqual(squares.description, "LazyList(1, 4, 9, 16, 25, 36, 49, 64, …)", "the fold computed up to 64")
        XCTAssertEqual(total, 10)
        XCTAssertEqual(firstBig, 64)
        XCTAssertEqual(sent.withLock { $0 }, [1, 2, 3])
        XCTAssertEqual(buffered, [5, 6])
    }

    func testCommand() {
        // README: Command
        struct Credentials: Sendable {
            var user = ""
            var password = ""
        }
        enum LoginError: Error { case rejected }

        let form = ObservableValue(Credentials())
        let formIsValid = form.signal.map { !$0.user.isEmpty && $0.password.count >= 8 }
        let logIn = Command<Credentials, String, LoginError>(enabled: formIsValid) { credentials in
            credentials.password == "correct horse" ? .return("token for \(credentials.user)") : .error(.rejected)
        }
        let buttonIsEnabled = ObservableValue(true)
        let errorText = ObservableValue("")
        logIn.enabled.subscribe(next: { buttonIsEnabled.value = $0 })    // false: the form is empty
        logIn.errors.subscribe(next: { errorText.value = "Login failed: \($0)" })

        form.value = Credentials(user: "ada", password: "wrong horse")   // the button turns on
        logIn.execute(form.value)
        // On the main queue: the button turns off, the request fails, errorText says
        // "Login failed: rejected", and the button turns on again.
        let again = logIn.execute(form.value)   // fails at once with .notEnabled: the first still runs
        // End of README

        guard case .failure(.notEnabled) = again.firstResult() else { return XCTFail("the second execute ran") }
        // The main queue runs here, as an app's run loop would run it.
        let buttonStates = Mutex<[Bool]>([])
        let states = buttonIsEnabled.signal.subscribe(next: { value in buttonStates.withLock { $0.append(value) } })
        XCTAssertTrue(spinMainRunLoop { !errorText.value.isEmpty && logIn.enabled.first() == true }, "the execution did not end")
        XCTAssertEqual(errorText.value, "Login failed: rejected")
        XCTAssertEqual(buttonStates.withLock { $0 }, [false, true, false, true], "off for the empty form, on once it is valid, off while it ran, on again")
        form.value.password = "correct horse"
        XCTAssertEqual(logIn.execute(form.value).asynchronousFirst(default: "", timeout: 10), "token for ada")
        states.dispose()
    }

    func testSwiftConcurrency() async {
        // README: Swift concurrency
        let words = Signal<String, Never>.return("reactive").concat(.return("cocoa"))
        var seen: [String] = []
        for await word in words.values {
            seen.append(word)
        }
        // seen: ["reactive", "cocoa"]

        let greeting = Signal<String, Never> { await Task.yield(); return "hello" }
        let first = await greeting.firstValue()     // "hello"
        let all = await words.allValues()           // ["reactive", "cocoa"]
        // End of README

        XCTAssertEqual(seen, ["reactive", "cocoa"])
        XCTAssertEqual(first, "hello")
        XCTAssertEqual(all, ["reactive", "cocoa"])
    }

    func testSwiftConcurrency_typedFailures() async throws {
        let api = SearchAPI()
        let query = "rac"
        // README: Swift concurrency (typed failures)
        let results = Signal { try await api.search(query) }            // Signal<[String], any Error>
        let typed = Signal { () async throws(SearchError) -> [String] in  // Signal<[String], SearchError>
            try await api.typedSearch(query)
        }
        let mapped = Signal { try await api.search(query) }.mapError { SearchError(underlying: $0) }
        // End of README

        XCTAssertTrue(type(of: results) == Signal<[String], any Error>.self)
        XCTAssertTrue(type(of: typed) == Signal<[String], SearchError>.self)
        XCTAssertTrue(type(of: mapped) == Signal<[String], SearchError>.self)
        let found = try await results.allValues()
        XCTAssertEqual(found, [["rac"]])
        do {
            _ = try await typed.firstValue()
            XCTFail("typedSearch did not fail")
        } catch {
            XCTAssertEqual(error.reason, "offline")
        }
    }

    @MainActor
    func testActors() async {
        // README: The main actor and other actors
        let downloads = Downloads()
        let files = Signal<String, Never>.return("report.pdf")
        files.subscribeOnActor(downloads, next: { downloads, file in downloads.finished.append(file) })
        // End of README

        let model = ProfileViewModel()
        let (titles, titleInput) = Signal<String, Never>.pipe()
        model.bind(titles: titles, statuses: .return("online"))
        titleInput.sendNext("Ada")
        let delivered = await eventually {
            let finished = await downloads.finished
            return model.title == "Ada" && model.status == "online" && !finished.isEmpty
        }
        XCTAssertTrue(delivered, "the main actor and the actor did not both get their values")
        let finished = await downloads.finished
        XCTAssertEqual(model.title, "Ada")
        XCTAssertEqual(model.status, "online")
        XCTAssertEqual(finished, ["report.pdf"])
        model.subscriptions.dispose()
    }

    func testEverydayOperators() {
        // README: Everyday operators for apps
        let (texts, textInput) = Signal<String, Never>.pipe()
        let (taps, tapInput) = Signal<Void, Never>.pipe()
        let numbers = texts.compactMap { Int($0) }                     // "1", "x", "3" -> 1, 3
        let submitted = taps.withLatestFrom(texts) { _, text in text }  // the text at each tap
        let pairs = numbers.buffer(count: 2)                           // [1, 3], then the rest at the end
        let firstNumber = numbers.take(1).replaceEmpty(with: 0)        // 0 if the texts end without one
        submitted.debug("submit").subscribe(next: { print("submit", $0) })  // "submit: subscribed [main thread]"
        pairs.subscribe(next: { print($0) })
        textInput.sendNext("1")
        textInput.sendNext("x")
        tapInput.sendNext(())            // prints "submit: next(x) [main thread]", then "submit x"
        textInput.sendNext("3")          // prints "[1, 3]"

        let scheduler = TestScheduler()  // virtual time; an app passes .main
        let suggestions = texts.flatMapLatest { text in
            Signal<String, Never>.return(text.uppercased()).delay(1, on: scheduler)
        }                                // a new text cancels the lookup for the one before
        let scrolls = texts.rateLimit(0.5, on: scheduler)               // at most one value per 0.5 s
        let requests = texts.pace(0.5, on: scheduler)                   // every value, 0.5 s apart
        let attempts = Signal<String, URLError>.error(URLError(.timedOut))
            .retry(3, delay: .exponential(initial: 1), on: scheduler)  // waits 1 s, 2 s, then 4 s before each retry
        // End of README

        let lines = Recorder<String>()
        let logged = submitted.debug("submit", to: { lines.record($0) }).record()
        let batches = pairs.record()
        let first = firstNumber.record()
        textInput.sendNext("5")
        tapInput.sendNext(())
        textInput.sendNext("6")
        textInput.sendNext("7")
        XCTAssertEqual(logged.values, ["5"])
        XCTAssertEqual(lines.values, ["submit: subscribed [main thread]", "submit: next(5) [main thread]"])
        XCTAssertEqual(batches.values, [[5, 6]])
        XCTAssertEqual(first.events, [.next(5), .completed])

        let suggested = scheduler.record(suggestions)
        let scrolled = scheduler.record(scrolls)
        let requested = scheduler.record(requests)
        let tried = scheduler.record(attempts)
        textInput.sendNext("r")
        textInput.sendNext("ra")
        textInput.sendNext("rac")
        scheduler.advance(by: 0.6)
        textInput.sendNext("racs")
        textInput.sendCompleted()
        scheduler.run()
        // Texts that ended, subscribed to afterwards, send no number: 0 stands in.
        XCTAssertEqual(firstNumber.record().events, [.next(0), .completed])
        // "rac" was still being looked up when "racs" came: cancelled.
        XCTAssertEqual(suggested.events.map(\.event), [.next("RACS"), .completed])
        XCTAssertEqual(suggested.events.map(\.time), [1.6, 1.6])
        XCTAssertEqual(scrolled.values, ["r", "rac", "racs"])
        // Every text, 0.5 s apart; "racs", sent at 0.6 s, waits behind "rac", and completion behind it.
        XCTAssertEqual(requested.events.map(\.event), [.next("r"), .next("ra"), .next("rac"), .next("racs"), .completed])
        XCTAssertEqual(requested.events.map(\.time), [0, 0.5, 1, 1.5, 1.5])
        XCTAssertEqual(tried.events.map(\.time), [7], "three retries, after 1 s, 2 s and 4 s, then the error")
        XCTAssertEqual(batches.events.last?.isFinished, true)
        XCTAssertEqual(batches.values, [[5, 6], [7]])
    }

    func testViewModels() {
        // README: View models: `Property` and `Lifetime`
        var profile: ProfileModel? = ProfileModel()
        let (clicks, clickInput) = Signal<Void, Never>.pipe()
        clicks.take(during: profile!.lifetime).subscribe(next: { print("clicked") })
        profile?.greeting.signal.subscribe(next: { print($0) })   // prints "Hello, Ada!" at once
        profile?.rename("Grace")         // prints "Hello, Grace!"; profile?.greeting.value == "Hello, Grace!"
        profile = nil                    // the lifetime ends: the clicks subscription completes
        clickInput.sendNext(())          // prints nothing
        // End of README

        let model = ProfileModel()
        weak let weakModel = model
        let greetings = model.greeting.signal.record()
        let clicked = clicks.take(during: model.lifetime).record()
        model.rename("Hedy")
        clickInput.sendNext(())
        XCTAssertEqual(greetings.values, ["Hello, Ada!", "Hello, Hedy!"])
        XCTAssertEqual(model.greeting.value, "Hello, Hedy!")
        XCTAssertEqual(clicked.values.count, 1)
        greetings.dispose()
        _ = consume model
        XCTAssertNil(weakModel)
        XCTAssertEqual(clicked.events.count, 2, "the lifetime ended: completed")
        XCTAssertTrue(clicked.events.last?.isFinished == true)
    }

    @MainActor
    func testObservation() {
        // README: Following an `@Observable` model
        let form = LoginForm()
        let canLogIn = form.signal(for: \.user).map { !$0.isEmpty }
        canLogIn.subscribe(next: { print("can log in:", $0) })   // prints "can log in: false" at once
        form.user = "ada"
        form.user = "ada lovelace"       // once the main queue runs: prints "can log in: true", once
        // End of README

        let printed = canLogIn.record()
        XCTAssertEqual(printed.values, [true], "subscribed on the main thread: the value at once")
        form.user = ""
        form.user = "ada"
        XCTAssertTrue(spinMainRunLoop { printed.values.count == 2 })
        XCTAssertEqual(printed.values, [true, true], "two changes in one turn: one value")
        form.user = ""
        XCTAssertTrue(spinMainRunLoop { printed.values.count == 3 })
        XCTAssertEqual(printed.values, [true, true, false])
        printed.dispose()
    }

    func testBinding() {
        // README: Binding
        let settings = Settings()
        let themes = Signal<String, Never>.return("dark")
        themes.assign(to: \.value, on: settings.theme)   // settings.theme.value == "dark"

        let query = ObservableValue("")
        let shown = ObservableValue("")
        shown.bind(from: query.signal.map { $0.uppercased() })
        query.value = "rac"                              // shown.value == "RAC"
        // End of README

        XCTAssertEqual(settings.theme.value, "dark")
        XCTAssertEqual(shown.value, "RAC")
    }

    func testFindingLeaks() {
        // README: Finding leaks
        let (values, input) = Signal<Int, Never>.pipe()
        let before = SignalDiagnostics.liveSubscriptionCount
        let subscription = values.map { $0 * 2 }.subscribe(next: { _ in })
        let during = SignalDiagnostics.liveSubscriptionCount
        // SignalDiagnostics.liveSubscriptionCount == before + 1: alive while `input` may still send
        subscription.dispose()
        // SignalDiagnostics.liveSubscriptionCount == before
        // End of README

        XCTAssertEqual(during, before + 1)
        XCTAssertEqual(SignalDiagnostics.liveSubscriptionCount, before)
        withExtendedLifetime(input) {}
    }

    func testFindingLeaks_whichSubscriptions() {
        let wasTracking = SignalDiagnostics.isTrackingSubscriptions
        defer { SignalDiagnostics.isTrackingSubscriptions = wasTracking }
        // README: Finding leaks, which
        SignalDiagnostics.isTrackingSubscriptions = true
        let (queries, search) = Signal<String, Never>.pipe()
        let forgotten = queries.named("search").map { $0.lowercased() }.subscribe(next: { _ in })
        print(SignalDiagnostics.report())
        // 1 live:
        //   `[search] -map:` subscribed at App/SearchScreen.swift:41
        let report = SignalDiagnostics.report()
        forgotten.dispose()
        // SignalDiagnostics.liveSubscriptions no longer lists it
        // End of README

        XCTAssertTrue(report.contains("`[search] -map:` subscribed at ReadmeTests/ReadmeTests.swift:\(#line - 9)"), report)
        XCTAssertFalse(SignalDiagnostics.liveSubscriptions.contains { $0.file == "ReadmeTests/ReadmeTests.swift" })
        withExtendedLifetime(search) {}
    }

    func testMarbles() {
        // README: Testing with marbles
        let scheduler = TestScheduler()
        let typed = scheduler.createColdSignal("ab-c-----d|", values: ["a": "r", "b": "re", "c": "rea", "d": "react"])
        let recording = scheduler.record(typed.throttle(2, on: scheduler))
        scheduler.run()
        let mismatch = recording.mismatch(expected: "-----c----(d|)", values: ["c": "rea", "d": "react"])
        // mismatch == nil: "rea" after two quiet seconds, at 5 s; "react" and completion at 10 s
        // End of README

        XCTAssertNil(mismatch)
        XCTAssertEqual(recording.events.map(\.time), [5, 10, 10])
    }

    func testVirtualTimeHarness() {
        // README: Testing with marbles (the view model's harness)
        let clock = TestScheduler()
        let typing: TestSignal<String, Never> = clock.createHotSignal([.next(210, "r"), .next(210.25, "re"), .next(212, "rea")])
        let asked = Recorder<String>()        // a fake's call log, safe from any thread
        let search: @Sendable (String) -> Signal<[String], Never> = { text in
            asked.record(text)
            return .return([text + "ct"])
        }
        let shown = clock.start { typing.throttle(0.5, on: clock).flatMapLatest(search) }
        // shown.events == [.next(210.75, ["rect"]), .next(212.5, ["react"])], at absolute virtual times
        // asked.values == ["re", "rea"]; typing.subscriptions == [.init(200, 1000)]
        // End of README

        XCTAssertEqual(shown.events, [.next(210.75, ["rect"]), .next(212.5, ["react"])])
        XCTAssertEqual(asked.values, ["re", "rea"])
        XCTAssertEqual(typing.subscriptions, [.init(200, 1000)])
    }

    /// The repository explains itself to someone who has only it: every relative link of its
    /// Markdown files names a file or folder it has, and no text file points at the team's
    /// documents outside it or at its issue tracker.
    func testRepository_refersOnlyToFilesItHas() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let markdown = ["README.md", "CONTRIBUTING.md", "Benchmarks/README.md", "Sources/Signals/Delivery/README.md"]
        for file in markdown {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            let folder = root.appendingPathComponent(file).deletingLastPathComponent()
            for link in text.components(separatedBy: "](").dropFirst() {
                let target = String(link.prefix { $0 != ")" }).components(separatedBy: "#")[0]
                if target.isEmpty || target.contains("://") { continue }
                let path = folder.appendingPathComponent(target).standardizedFileURL.path
                XCTAssertTrue(FileManager.default.fileExists(atPath: path), "\(file) links to \(target), which the repository lacks")
            }
        }
        let outside = ["BENCHMARKS.md", "DESIGN.md", "SEMANTICS.md", "STYLE.md", "API.md", "shared/", "closing note"]
        let tracker = try NSRegularExpression(pattern: "\\bissues?\\s*#?[0-9]", options: [.caseInsensitive])
        let folders = ["Sources", "Tests", "Benchmarks", "Examples", ".ci"]
        var files = markdown + ["Package.swift"]
        for folder in folders {
            let walk = try XCTUnwrap(FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path))
            for case let path as String in walk where !path.hasPrefix(".build") && !path.contains("/.build") {
                if [".swift", ".md", ".supp"].contains(where: path.hasSuffix) || folder == ".ci" { files.append(folder + "/" + path) }
            }
        }
        for file in Set(files) where file != "Tests/ReadmeTests/ReadmeTests.swift" {
            guard let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else { continue }
            for name in outside where text.contains(name) {
                XCTFail("\(file) refers to \(name), which is not in the repository")
            }
            if let match = tracker.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) {
                XCTFail("\(file) refers to the issue tracker: \((text as NSString).substring(with: match.range))")
            }
        }
    }

    /// Tests share state between threads through the package's `Lock`, never a bare
    /// `Synchronization.Mutex`: on Linux a contended `Mutex` hands over inside the kernel, where
    /// ThreadSanitizer cannot see it, so two critical sections of one `Mutex` on two threads are
    /// reported as a race in a few runs out of many (a CI run failed so, in a test's tally). Only
    /// this file may name `Mutex`, as the README's examples (which it compiles) do.
    func testTests_shareStateThroughLock_notMutex() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let walk = try XCTUnwrap(FileManager.default.enumerator(atPath: tests.path))
        let mutex = try NSRegularExpression(pattern: "\\bMutex\\s*[<(]")
        for case let path as String in walk where path.hasSuffix(".swift") && !path.hasPrefix("ReadmeTests/") {
            let text = try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
            if mutex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                XCTFail("Tests/\(path) makes a Synchronization.Mutex; use Lock, which ThreadSanitizer sees")
            }
        }
    }

    func testReadme_everyExampleIsCompiledHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let tests = try String(contentsOf: here, encoding: .utf8)
        let testLines = Set(tests.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        // The command-line program is the example package's, which CI builds and runs.
        let example = try String(
            contentsOf: root.appendingPathComponent("Examples/CommandLineTool/Sources/CommandLineTool/main.swift"),
            encoding: .utf8
        )
        let exampleLines = Set(example.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        // The installation section's manifest, and its dependency lines for use before the first
        // tag, belong to a package of their own: the example package depends on this one the same
        // way (by path), and CI builds it.
        let isManifest = { (block: String) in block.hasPrefix("// swift-tools-version") || block.hasPrefix(".package(") }
        XCTAssertEqual(blocks.filter(isManifest).count, 2)
        XCTAssertEqual(blocks.count, 24)
        for block in blocks where !isManifest(block) {
            for line in block.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("import ") { continue }
                XCTAssertTrue(
                    testLines.contains(trimmed) || exampleLines.contains(trimmed),
                    "README line not compiled by ReadmeTests or the example package: \(trimmed)"
                )
            }
        }
    }
}

// README: View models: `Property` and `Lifetime` (the declaration)
final class ProfileModel: Sendable {
    let name: Property<String>
    let greeting: Property<String>
    let lifetime: Lifetime
    private let nameCell = ObservableValue("Ada")
    private let token: Lifetime.Token

    init() {
        name = Property(nameCell)
        greeting = name.map { "Hello, \($0)!" }
        (lifetime, token) = Lifetime.make()
    }

    func rename(_ newName: String) {
        nameCell.value = newName
    }
}

// README: Following an `@Observable` model (the declaration)
@Observable @MainActor final class LoginForm {
    var user = ""
}

// README: The main actor and other actors (the declarations)
@MainActor final class ProfileViewModel {
    var title = ""
    var status = ""
    let subscriptions = CompoundDisposable()

    func bind(titles: Signal<String, Never>, statuses: Signal<String, Never>) {
        subscriptions.add(titles.subscribeNextOnMainActor { [weak self] in self?.title = $0 })
        subscriptions.add(statuses.assignOnMainActor(to: \.status, on: self))
    }
}

actor Downloads {
    var finished: [String] = []
}

// For the README's Swift concurrency example: an API client whose search throws.
struct SearchError: Error {
    var reason = "offline"

    init() {}

    init(underlying: any Error) {
        reason = "\(underlying)"
    }
}

struct SearchAPI: Sendable {
    func search(_ query: String) async throws -> [String] { [query] }
    func typedSearch(_ query: String) async throws(SearchError) -> [String] { throw SearchError() }
}

// README: Binding (the declaration)
final class Settings: Sendable {
    let theme = ObservableValue("light")
}
