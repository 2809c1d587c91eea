@testable import Command
import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

/// What a command leaves alive once released: nothing, once the main queue has sent its last
/// events; an execution still running keeps only itself and its subscribers.
final class LifetimeTests: LeakCheckedTestCase {
    /// Weak references to the command's core and the subjects behind its signals.
    private struct Parts {
        let core: WeakReference<CommandCore<Int, TestError>>
        let subjects: [WeakReference<AnyObject>]

        init(_ command: Command<Int, Int, TestError>) {
            core = WeakReference(command.core)
            subjects = [command.core.executionSubject, command.core.executingSubject, command.core.enabledSubject, command.core.errorsSubject]
                .map { WeakReference($0 as AnyObject) }
        }

        var anyAlive: Bool { core.isAlive || subjects.contains { $0.isAlive } }
    }

    func testReleased_signalsCompleteAndNothingStaysAlive() {
        let enabledInput = Subject<Bool, Never>()
        let enabledInputSubscriptions = Counter()
        let enabledSignal = Signal<Bool, Never> { subscriber in
            enabledInputSubscriptions.increment()
            let subscription = enabledInput.subscribe(subscriber)
            return Disposable {
                enabledInputSubscriptions.decrement()
                subscription.dispose()
            }
        }
        var command: Command<Int, Int, TestError>? = Command(enabled: enabledSignal) { .return($0) }
        let parts = Parts(command!)
        let weakCommand = WeakReference(command!)
        let completions = Counter()
        command!.executionSignals.subscribe(completed: { completions.increment() })
        command!.executing.subscribe(completed: { completions.increment() })
        command!.enabled.subscribe(completed: { completions.increment() })
        command!.errors.subscribe(completed: { completions.increment() })
        XCTAssertNotNil(command!.execute(1).asynchronouslyWaitUntilCompleted(timeout: 10))
        XCTAssertEqual(enabledInputSubscriptions.value, 1)
        command = nil
        XCTAssertFalse(weakCommand.isAlive)
        XCTAssertEqual(enabledInputSubscriptions.value, 0, "the enabled signal is disposed with the command")
        XCTAssertTrue(spinMainRunLoop { completions.value == 4 })
        XCTAssertTrue(spinMainRunLoop { !parts.anyAlive })
    }

    func testReleased_withoutEverRunningTheMainQueue_freesOnceItRuns() {
        var command: Command<Int, Int, TestError>? = Command { .return($0) }
        let parts = Parts(command!)
        command = nil
        XCTAssertTrue(spinMainRunLoop { !parts.anyAlive })
    }

    func testReleasedWhileExecuting_theExecutionCarriesOnAndKeepsNothingOfTheCommand() {
        let work = Subject<Int, TestError>()
        var command: Command<Int, Int, TestError>? = Command { _ in work }
        let parts = Parts(command!)
        let events = command!.execute(0).record()
        drainMainQueue()
        command = nil
        XCTAssertTrue(spinMainRunLoop { !parts.anyAlive }, "the running execution keeps the command's core")
        work.sendNext(1)
        work.sendCompleted()
        XCTAssertEqual(events.events, [.next(1), .completed])
    }

    func testExecutionEnded_itsSignalsAreFreed() {
        let command = Command<Int, Int, TestError> { .return($0) }
        var result: Signal<Int, CommandError<TestError>>? = command.execute(1)
        let resultReference = WeakReference(result!)
        XCTAssertNotNil(result!.asynchronouslyWaitUntilCompleted(timeout: 10))
        result = nil
        drainMainQueue()
        XCTAssertFalse(resultReference.isAlive)
    }

    func testReleasedBeforeTheExecutionIsSubscribed_itStillRuns() {
        let runs = Counter()
        var command: Command<Int, Int, TestError>? = Command { input in
            Signal { subscriber in
                runs.increment()
                subscriber.sendNext(input)
                subscriber.sendCompleted()
                return nil
            }
        }
        let parts = Parts(command!)
        let events = command!.execute(5).record()
        command = nil
        XCTAssertTrue(spinMainRunLoop { events.events.count == 2 })
        XCTAssertEqual(events.events, [.next(5), .completed])
        XCTAssertEqual(runs.value, 1)
        XCTAssertTrue(spinMainRunLoop { !parts.anyAlive })
    }

    /// A command released on one thread while another executes it: no crash, and
    /// nothing left once the main queue has run.
    func testReleasedWhileExecutingFromAnotherThread() {
        var parts: [Parts] = []
        let results = Recorder<Signal<Int, CommandError<TestError>>>()
        for _ in 0..<200 {
            let box = Lock<Command<Int, Int, TestError>?>(Command { input in
                Signal { subscriber in
                    subscriber.sendNext(input)
                    subscriber.sendCompleted()
                    return nil
                }
            })
            parts.append(Parts(box.withLock { $0! }))
            race(threads: 3) { index in
                switch index {
                case 0: box.withLock { $0 = nil }
                default:
                    for step in 0..<5 {
                        guard let command = box.withLock({ $0 }) else { return }
                        command.allowsConcurrentExecution = true
                        results.record(command.execute(step))
                    }
                }
            }
        }
        XCTAssertTrue(spinMainRunLoop { !parts.contains { $0.anyAlive } })
        // Every execution that started ran to its end.
        let recorders = results.values.map { $0.record() }
        XCTAssertTrue(spinMainRunLoop { recorders.allSatisfy { $0.events.last?.isFinished == true } })
        XCTAssertTrue(recorders.allSatisfy { $0.events.count == 2 || $0.events == [.error(.notEnabled)] })
    }
}
