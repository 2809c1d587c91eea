import Command
import Foundation
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

/// RAC 2.5's `RACCommandSpec`, example by example, with the Swift spellings. Every test runs on
/// the main thread and waits by running the main run loop.
final class RACCommandSpecTests: LeakCheckedTestCase {
    private func makeReturningCommand() -> Command<Int?, Int?, TestError> {
        Command { .return($0) }
    }

    // MARK: with a simple signal block

    func testSimple_enabledByDefault() {
        let command = makeReturningCommand()
        XCTAssertFalse(command.allowsConcurrentExecution)
        XCTAssertEqual(command.enabled.first(), true)
    }

    func testSimple_notExecutingByDefault() {
        XCTAssertEqual(makeReturningCommand().executing.first(), false)
    }

    func testSimple_createsAnExecutionSignal() {
        let command = makeReturningCommand()
        let signalsReceived = Counter()
        let values = Recorder<Int?>()
        let completed = Counter()
        command.executionSignals.subscribe(next: { signal in
            signalsReceived.increment()
            signal.subscribe(next: { values.record($0) }, completed: { completed.increment() })
        })
        XCTAssertEqual(signalsReceived.value, 0)
        command.execute(nil)
        XCTAssertTrue(spinMainRunLoop { signalsReceived.value == 1 })
        XCTAssertEqual(completed.value, 1)
        XCTAssertEqual(values.values, [nil])
    }

    func testSimple_returnsTheExecutionSignalFromExecute() {
        let command = makeReturningCommand()
        let events = command.execute(7).record()
        XCTAssertTrue(spinMainRunLoop { events.events.count == 2 })
        XCTAssertEqual(events.events, [.next(7), .completed])
    }

    func testSimple_alwaysSendsExecutionSignalsOnTheMainThread() {
        let command = makeReturningCommand()
        let received = Recorder<String>()
        command.executionSignals.subscribe(next: { _ in
            received.record(Thread.isMainThread && Scheduler.current === Scheduler.main ? "main" : "elsewhere")
        })
        let waited = Recorder<Bool>()
        Scheduler.background().schedule {
            waited.record((try? command.execute(nil).waitUntilCompleted().get()) != nil)
        }
        XCTAssertEqual(received.values, [])
        XCTAssertTrue(spinMainRunLoop { received.values.count == 1 && waited.values.count == 1 })
        XCTAssertEqual(received.values, ["main"])
        XCTAssertEqual(waited.values, [true])
    }

    func testSimple_sendsNothingOnErrorsByDefault() {
        let command = makeReturningCommand()
        let errors = command.errors.record()
        XCTAssertNotNil(try? command.execute(nil).asynchronouslyWaitUntilCompleted(timeout: 10)?.get())
        XCTAssertEqual(errors.events, [])
    }

    func testSimple_executingWhileAnExecutionSignalRuns() {
        let command = makeReturningCommand()
        let executingSeen = Recorder<Bool?>()
        // Captures the command: disposed at the end, or the two would keep each other.
        let subscription = command.executionSignals.subscribe(next: { signal in
            signal.subscribe(next: { _ in executingSeen.record(command.executing.first()) })
        })
        XCTAssertNotNil(try? command.execute(nil).asynchronouslyWaitUntilCompleted(timeout: 10)?.get())
        XCTAssertEqual(executingSeen.values, [true])
        XCTAssertEqual(command.executing.first(), false)
        subscription.dispose()
    }

    func testSimple_alwaysUpdatesExecutingOnTheMainThread() {
        let command = makeReturningCommand()
        let updatedOn = Recorder<String>()
        command.executing.skip(1).subscribe(next: { executing in
            guard executing else { return }
            updatedOn.record(Thread.isMainThread && Scheduler.current === Scheduler.main ? "main" : "elsewhere")
        })
        Scheduler.background().schedule {
            _ = command.execute(nil).waitUntilCompleted()
        }
        XCTAssertEqual(command.executing.first(), false)
        XCTAssertTrue(spinMainRunLoop { !updatedOn.values.isEmpty })
        XCTAssertEqual(updatedOn.values, ["main"])
    }

    func testSimple_deallocatesWithoutSubscribers() {
        weak var weakCommand: Command<Int, Never, Never>?
        do {
            let command = Command<Int, Never, Never> { _ in .empty }
            weakCommand = command
        }
        XCTAssertNil(weakCommand)
    }

    func testSimple_completesSignalsOnTheMainThreadWhenDeallocated() {
        let completedOn = Recorder<String>()
        let record: @Sendable (String) -> @Sendable () -> Void = { name in
            { completedOn.record("\(name): \(Thread.isMainThread && Scheduler.current === Scheduler.main ? "main" : "elsewhere")") }
        }
        Scheduler.background().schedule {
            let command = Command<Int, Never, Never> { _ in .empty }
            command.executionSignals.subscribe(completed: record("executionSignals"))
            command.executing.subscribe(completed: record("executing"))
            command.enabled.subscribe(completed: record("enabled"))
            command.errors.subscribe(completed: record("errors"))
        }
        XCTAssertTrue(spinMainRunLoop { completedOn.values.count == 4 })
        XCTAssertEqual(Set(completedOn.values), ["executionSignals: main", "executing: main", "enabled: main", "errors: main"])
    }

    // MARK: the rest of the spec

    func testInvokesTheSignalBlockOncePerExecution() {
        let received = Recorder<String>()
        let command = Command<String, Never, Never> { input in
            received.record(input)
            return .empty
        }
        XCTAssertNotNil(command.execute("foo").asynchronouslyWaitUntilCompleted(timeout: 10))
        XCTAssertEqual(received.values, ["foo"])
        XCTAssertNotNil(command.execute("bar").asynchronouslyWaitUntilCompleted(timeout: 10))
        XCTAssertEqual(received.values, ["foo", "bar"])
    }

    func testSendsOnExecutionSignalsInOrderOfExecution() {
        let command = Command<[String], String, Never> { Signal.concat($0.map { Signal.return($0) }) }
        let received = command.executionSignals.concat().record()
        XCTAssertNotNil(command.execute(["foo", "bar"]).asynchronouslyWaitUntilCompleted(timeout: 10))
        XCTAssertNotNil(command.execute(["buzz", "baz"]).asynchronouslyWaitUntilCompleted(timeout: 10))
        XCTAssertEqual(received.values, ["foo", "bar", "buzz", "baz"])
    }

    /// A command that allows concurrent execution, executing two subjects that the test sends to.
    private func twoConcurrentExecutions() -> (Command<Subject<Int, TestError>, Int, TestError>, Subject<Int, TestError>, Subject<Int, TestError>) {
        let command = Command<Subject<Int, TestError>, Int, TestError> { $0 }
        command.allowsConcurrentExecution = true
        let first = Subject<Int, TestError>()
        let second = Subject<Int, TestError>()
        command.execute(first)
        command.execute(second)
        return (command, first, second)
    }

    func testWaitsForAllSignalsToEndBeforeExecutingSendsFalse() {
        let (command, first, second) = twoConcurrentExecutions()
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == true })

        first.sendError(.first)
        drainMainQueue()
        XCTAssertEqual(command.executing.first(), true)

        second.sendNext(1)
        drainMainQueue()
        XCTAssertEqual(command.executing.first(), true)

        second.sendCompleted()
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == false })
    }

    func testDoesNotDeliverErrorsFromExecutionSignals() {
        let subject = Subject<String, TestError>()
        let command = Command<Void, String, TestError> { subject }
        let received = command.executionSignals.flatten().record()
        command.execute(())
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == true })

        subject.sendNext("unit")
        XCTAssertTrue(spinMainRunLoop { received.events == [.next("unit")] })
        XCTAssertEqual(command.executing.first(), true)

        subject.sendNext("foo")
        XCTAssertTrue(spinMainRunLoop { received.events == [.next("unit"), .next("foo")] })
        XCTAssertEqual(command.executing.first(), true)

        subject.sendError(.first)
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == false })
        XCTAssertEqual(received.events, [.next("unit"), .next("foo")])
    }

    func testDeliversErrorsFromExecute() {
        let subject = Subject<String, TestError>()
        let command = Command<Void, String, TestError> { subject }
        let received = command.execute(()).record()
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == true })

        subject.sendNext("unit")
        subject.sendNext("foo")
        XCTAssertEqual(received.events, [.next("unit"), .next("foo")])
        XCTAssertEqual(command.executing.first(), true)

        subject.sendError(.first)
        XCTAssertEqual(received.events, [.next("unit"), .next("foo"), .error(.failed(.first))])
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == false })
    }

    func testDeliversErrorsOntoErrors() {
        let (command, first, second) = twoConcurrentExecutions()

        // Errors of executions started before subscribing still come.
        let errors = command.errors.record()
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == true })

        first.sendError(.first)
        XCTAssertTrue(spinMainRunLoop { errors.values == [.first] })
        XCTAssertEqual(command.executing.first(), true)

        second.sendError(.second)
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == false })
        XCTAssertEqual(errors.values, [.first, .second])
    }

    func testDoesNotDeliverNonErrorEventsOntoErrors() {
        let subject = Subject<Int, TestError>()
        let command = Command<Void, Int, TestError> { subject }
        let errors = command.errors.record()
        command.execute(())
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == true })
        subject.sendNext(1)
        subject.sendCompleted()
        XCTAssertTrue(spinMainRunLoop { command.executing.first() == false })
        XCTAssertEqual(errors.events, [])
    }

    func testSendsErrorsOnTheMainThread() {
        let command = Command<Signal<Int, TestError>, Int, TestError> { $0 }
        let received = Recorder<String>()
        command.errors.subscribe(next: { error in
            received.record("\(error) on \(Thread.isMainThread && Scheduler.current === Scheduler.main ? "main" : "elsewhere")")
        })
        Scheduler.background().schedule { command.execute(.error(.first)) }
        XCTAssertEqual(received.values, [])
        XCTAssertTrue(spinMainRunLoop { !received.values.isEmpty })
        XCTAssertEqual(received.values, ["first on main"])
    }

    // MARK: enabled signal

    private func makeEnabledCommand() -> (Subject<Bool, Never>, Command<Void, Void, Never>) {
        let enabledSubject = Subject<Bool, Never>()
        return (enabledSubject, Command(enabled: enabledSubject) { .return(()) })
    }

    func testEnabled_sendsTrueByDefault() {
        let (_, command) = makeEnabledCommand()
        XCTAssertEqual(command.enabled.first(), true)
    }

    func testEnabled_sendsWhateverTheEnabledSignalSentMostRecently() {
        let (enabledSubject, command) = makeEnabledCommand()
        enabledSubject.sendNext(false)
        XCTAssertTrue(spinMainRunLoop { command.enabled.first() == false })
        enabledSubject.sendNext(true)
        XCTAssertTrue(spinMainRunLoop { command.enabled.first() == true })
        enabledSubject.sendNext(false)
        XCTAssertTrue(spinMainRunLoop { command.enabled.first() == false })
    }

    func testEnabled_samplesTheEnabledSignalSynchronouslyAtInit() {
        let command = Command<Void, Never, Never>(enabled: .return(false)) { .empty }
        XCTAssertEqual(command.enabled.first(), false)
    }

    func testEnabled_falseWhileExecutingAndConcurrentExecutionIsNotAllowed() {
        let (_, command) = makeEnabledCommand()
        let seen = Recorder<[Bool?]>()
        // Captures the command: disposed at the end, or the two would keep each other.
        let subscription = command.executionSignals.flatten().subscribe(next: {
            seen.record([command.executing.first(), command.enabled.first()])
        })
        XCTAssertEqual(command.enabled.first(), true)
        XCTAssertNotNil(command.execute(()).asynchronouslyWaitUntilCompleted(timeout: 10))
        XCTAssertEqual(seen.values, [[true, false]])
        XCTAssertEqual(command.enabled.first(), true)
        subscription.dispose()
    }

    func testEnabled_trueWhileExecutingWhenConcurrentExecutionIsAllowed() {
        let (_, command) = makeEnabledCommand()
        command.allowsConcurrentExecution = true
        let seen = Recorder<[Bool?]>()
        let innerCompleted = Counter()
        // Only the first execution executes again, or this would never end.
        command.executionSignals.take(1).flatten().subscribe(next: {
            seen.record([command.executing.first(), command.enabled.first()])
            command.execute(()).subscribe(completed: { innerCompleted.increment() })
        })
        XCTAssertEqual(command.enabled.first(), true)
        command.execute(())
        XCTAssertTrue(spinMainRunLoop { innerCompleted.value == 1 })
        XCTAssertEqual(seen.values, [[true, true]])
        XCTAssertEqual(command.enabled.first(), true)
    }

    func testEnabled_executeFailsWithNotEnabledWhenFalse() {
        let (enabledSubject, command) = makeEnabledCommand()
        enabledSubject.sendNext(false)
        let result = command.execute(()).firstResult()
        guard case .failure(.notEnabled) = result else { return XCTFail("got \(result)") }
    }

    func testEnabled_alwaysUpdatesOnTheMainThread() {
        let (enabledSubject, command) = makeEnabledCommand()
        let updatedOn = Recorder<String>()
        command.enabled.skip(1).subscribe(next: { _ in
            updatedOn.record(Thread.isMainThread && Scheduler.current === Scheduler.main ? "main" : "elsewhere")
        })
        Scheduler.background().schedule { enabledSubject.sendNext(false) }
        XCTAssertEqual(command.enabled.first(), true)
        XCTAssertTrue(spinMainRunLoop { command.enabled.first() == false })
        XCTAssertEqual(updatedOn.values, ["main"])
    }

    func testEnabled_completesWhenTheCommandIsReleasedThoughTheEnabledSignalHasNot() {
        let enabledSubject = Subject<Bool, Never>()
        weak var weakCommand: Command<Void, Never, Never>?
        let completed = Counter()
        do {
            let command = Command<Void, Never, Never>(enabled: enabledSubject) { .empty }
            weakCommand = command
            command.enabled.subscribe(completed: { completed.increment() })
        }
        XCTAssertNil(weakCommand)
        XCTAssertTrue(spinMainRunLoop { completed.value == 1 })
    }
}
