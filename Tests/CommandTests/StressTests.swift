import Command
import Disposables
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

/// Stress tests: ``Stress/rounds`` rounds of 8 threads each (1,000 in release, 400 in debug, 200
/// under a sanitizer), each under a watchdog, bounded in time and deterministic in outcome, on one
/// command per test.
///
/// Each round, eight threads execute the command at once while the main thread waits for them,
/// so no execution can end during the race (an execution is subscribed on the main queue); then
/// the main thread runs its queue until the round's executions have ended. So each round's
/// outcome is exact: without concurrent execution, one `execute` starts and every other one,
/// made while it runs, fails with `notEnabled`; with it, all start. An even input's execution
/// sends the input and completes, an odd one's fails with it, on the main thread in even rounds
/// and on a background scheduler in odd ones; each result, `errors`, `executionSignals`,
/// `executing` and `enabled` must show exactly that.
final class CommandStressTests: LeakCheckedTestCase {
    /// An execution's error, naming its input.
    private struct Failed: Error, Equatable {
        let input: Int
    }

    private typealias Result = Signal<Int, CommandError<Failed>>

    /// A command whose execution of an even input sends it and completes, and of an odd one
    /// fails with it; the signal block records each input it is called with in `started`.
    private func command(recordingIn started: Recorder<Int>) -> Command<Int, Int, Failed> {
        let background = QueueScheduler(name: "CommandStressTests")
        return Command { input in
            started.record(input)
            let work = Signal<Int, Failed> { subscriber in
                if input.isMultiple(of: 2) {
                    subscriber.sendNext(input)
                    subscriber.sendCompleted()
                } else {
                    subscriber.sendError(Failed(input: input))
                }
                return nil
            }
            // The tests give round `r` inputs from `r * 16` on: odd rounds end their executions on
            // a background scheduler.
            return input / 16 % 2 == 0 ? work : work.subscribe(on: background)
        }
    }

    /// What `execute(input)` sends when it starts an execution.
    private func events(ofAnExecutionOf input: Int) -> [Event<Int, CommandError<Failed>>] {
        input.isMultiple(of: 2) ? [.next(input), .completed] : [.error(.failed(Failed(input: input)))]
    }

    func testExecute_eightThreadsTwiceEachWithoutConcurrentExecution_oneStartsPerRoundAndTheRestAreNotEnabled() {
        let started = Recorder<Int>()
        let command = command(recordingIn: started)
        let executing = command.executing.record()
        let enabled = command.enabled.record()
        let errors = command.errors.record()
        let executionValues = command.executionSignals.flatten().record()
        Stress.forEachRound("a command executed from eight threads") { round in
            let startedBefore = started.values.count
            let results = Lock<[Int: Result]>([:])
            race(threads: 8) { index in
                // The second call comes while the round's execution runs, whoever started it.
                for attempt in 0..<2 {
                    let input = round * 16 + attempt * 8 + index
                    let result = command.execute(input)
                    results.withLock { $0[input] = result }
                }
            }
            let inputs = started.values.dropFirst(startedBefore)
            guard inputs.count == 1, let winner = inputs.first else {
                return XCTFail("round \(round): \(inputs.count) executions started, not one")
            }
            // On the main thread, a refused execution fails at once; the started one waits for
            // the main queue.
            let recorders = results.withLock { $0 }.mapValues { $0.record() }
            XCTAssertEqual(recorders.count, 16, "round \(round)")
            for (input, recorder) in recorders where input != winner {
                XCTAssertEqual(recorder.events, [.error(.notEnabled)], "round \(round), input \(input)")
            }
            let result = recorders[winner]!
            XCTAssertTrue(spinMainRunLoop {
                result.events.last?.isFinished == true && executing.values.last == false
            }, "round \(round)")
            XCTAssertEqual(result.events, events(ofAnExecutionOf: winner), "round \(round)")
        }
        drainMainQueue()
        let inputs = started.values
        XCTAssertEqual(inputs.count, Stress.rounds)
        XCTAssertEqual(executing.values, [false] + Array(repeating: [true, false], count: Stress.rounds).joined())
        XCTAssertEqual(enabled.values, [true] + Array(repeating: [false, true], count: Stress.rounds).joined())
        XCTAssertEqual(errors.values, inputs.filter { !$0.isMultiple(of: 2) }.map(Failed.init(input:)))
        XCTAssertEqual(executionValues.values, inputs.filter { $0.isMultiple(of: 2) })
    }

    func testExecute_eightThreadsWithConcurrentExecution_allStartAndEachGetsItsOwnOutcome() {
        let started = Recorder<Int>()
        let command = command(recordingIn: started)
        command.allowsConcurrentExecution = true
        let executing = command.executing.record()
        let enabled = command.enabled.record()
        let errors = command.errors.record()
        let executionValues = command.executionSignals.flatten().record()
        Stress.forEachRound("a command allowing concurrent execution executed from eight threads") { round in
            let startedBefore = started.values.count
            let results = Lock<[Int: Result]>([:])
            race(threads: 8) { index in
                let input = round * 16 + index
                let result = command.execute(input)
                results.withLock { $0[input] = result }
            }
            XCTAssertEqual(started.values.count - startedBefore, 8, "round \(round)")
            let recorders = results.withLock { $0 }.mapValues { $0.record() }
            XCTAssertEqual(recorders.count, 8, "round \(round)")
            // The eight executions overlap: `executing` turns true and false once a round.
            XCTAssertTrue(spinMainRunLoop {
                recorders.values.allSatisfy { $0.events.last?.isFinished == true } && executing.values.last == false
            }, "round \(round)")
            for (input, recorder) in recorders {
                XCTAssertEqual(recorder.events, events(ofAnExecutionOf: input), "round \(round), input \(input)")
            }
        }
        drainMainQueue()
        let inputs = started.values
        XCTAssertEqual(Set(inputs).count, 8 * Stress.rounds)
        XCTAssertEqual(executing.values, [false] + Array(repeating: [true, false], count: Stress.rounds).joined())
        XCTAssertEqual(enabled.values, [true])
        XCTAssertEqual(errors.values.map(\.input).sorted(), inputs.filter { !$0.isMultiple(of: 2) }.sorted())
        XCTAssertEqual(executionValues.values.sorted(), inputs.filter { $0.isMultiple(of: 2) }.sorted())
    }
}
