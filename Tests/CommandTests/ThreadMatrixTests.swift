import Command
import Disposables
import Signals
import Subjects
import TestSupport
import XCTest

/// The thread matrix for the Command module: a command's execution and its four signals,
/// subscribed from every thread context, over a synchronous and a hot source, then disposed from
/// another thread, disposed inside a callback, and let go of.
///
/// The execution's signal is the source's first three values, through a replay subject connected
/// when the row is made: the execution is subscribed on the main queue, which the matrix runs only
/// between its steps, when the hot source has sent its values, so the replay keeps them, and the
/// execution ends after them with either source. Each row's command lives as long as the signal
/// under test: letting go of that releases the command, and its signals complete.
final class ThreadMatrixTests: LeakCheckedTestCase {
    func testCommand() {
        assertMatrix([
            row("Command.execute", { source in
                let work = firstThree(of: source)
                return Command<Void, Int, TestError> { work }.execute(())
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3), .completed]),
            row("Command.executionSignals.flatten(), then execute", { source in
                executing(firstThree(of: source)) { $0.executionSignals.flatten().promoteError() }
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3), .completed]).endingOnlyWhenLetGo(),
            row("Command.errors, then execute", { (source: Signal<Int, TestError>) -> Signal<TestError, TestError> in
                // Fails on the third value, where it is sent (a `concat(.error)` would fail through
                // the subscription scheduler where none is current, maybe after the release).
                let failing = firstThree(of: source).try { value throws(TestError) in if value == 3 { throw .second } }
                return executing(failing) { $0.errors.promoteError() }
            }, sync: [.next(.second), .completed], hot: [.next(.second), .completed]).endingOnlyWhenLetGo(),
            row("Command.executing, then execute", { source in
                executing(firstThree(of: source)) { $0.executing.promoteError() }
            }, sync: [.next(false), .next(true), .next(false), .completed], hot: [.next(false), .next(true), .next(false), .completed]).endingOnlyWhenLetGo(),
            row("Command.enabled, then execute", { source in
                executing(firstThree(of: source)) { $0.enabled.promoteError() }
            }, sync: [.next(true), .next(false), .next(true), .completed], hot: [.next(true), .next(false), .next(true), .completed]).endingOnlyWhenLetGo(),
        ])
    }
}

extension ThreadMatrixTests {
    /// Two executions started one after the other, with `allowsConcurrentExecution` on and off.
    /// The first cannot have ended when the second starts: its work waits for a subject that
    /// completes only then. `ThreadMatrix.lightRounds` per cell in modes (a)-(c): the executions
    /// run as the rows above do.
    func testConcurrentExecution() {
        assertMatrix([
            row("Command.execute twice, allowsConcurrentExecution", { source in
                executedTwice(firstThree(of: source), allowingConcurrentExecution: true)
            }, sync: [.next(1), .next(2), .next(3), .next(1), .next(2), .next(3), .completed],
               hot: [.next(1), .next(2), .next(3), .next(1), .next(2), .next(3), .completed]),
            row("Command.execute twice, concurrent execution not allowed", { source in
                executedTwice(firstThree(of: source), allowingConcurrentExecution: false)
            }, sync: [.next(1), .next(2), .next(3), .error(.notEnabled)], hot: [.next(1), .next(2), .next(3), .error(.notEnabled)]),
            row("Command.enabled, allowsConcurrentExecution, then execute", { source in
                executing(firstThree(of: source), allowingConcurrentExecution: true) { $0.enabled.promoteError() }
            }, sync: [.next(true), .completed], hot: [.next(true), .completed]).endingOnlyWhenLetGo(),
        ].map { $0.inRounds(ThreadMatrix.lightRounds) })
    }
}

/// The two executions of a command executed twice at once, one after the other.
private func executedTwice(
    _ work: Signal<Int, TestError>,
    allowingConcurrentExecution: Bool
) -> Signal<Int, CommandError<TestError>> {
    let secondStarted = ReplaySubject<Int, TestError>()
    let command = Command<Void, Int, TestError> { work.concat(secondStarted) }
    command.allowsConcurrentExecution = allowingConcurrentExecution
    let first = command.execute(())
    let second = command.execute(())
    secondStarted.sendCompleted()
    return Signal.concat([first, second])
}

/// The first three values of `source`, which is subscribed now, through a replay subject.
private func firstThree(of source: Signal<Int, TestError>) -> Signal<Int, TestError> {
    source.replay().take(3)
}

/// A signal that subscribes to what `signal` picks of a command executing `work`, then executes
/// it; the command lives as long as the signal.
private func executing<Value>(
    _ work: Signal<Int, TestError>,
    allowingConcurrentExecution: Bool = false,
    _ signal: @escaping @Sendable (Command<Void, Int, TestError>) -> Signal<Value, TestError>
) -> Signal<Value, TestError> {
    let command = Command<Void, Int, TestError> { work }
    command.allowsConcurrentExecution = allowingConcurrentExecution
    return Signal { subscriber in
        let subscription = signal(command).subscribe(subscriber)
        command.execute(())
        return subscription
    }
}

extension XCTestCase {
    /// Runs the matrix over `rows` and fails once for each failing cell, naming it.
    func assertMatrix(_ rows: [MatrixRow], file: StaticString = #filePath, line: UInt = #line) {
        for failure in ThreadMatrix.failures(of: rows) {
            XCTFail(failure, file: file, line: line)
        }
    }
}
