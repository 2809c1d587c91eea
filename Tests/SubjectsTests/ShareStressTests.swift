import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

/// `share(replay:)` under races of 8 threads, `Stress.rounds` rounds each (40 under a sanitizer):
///
/// - Subscriptions and disposals churning on 8 threads while one subscriber stays: the source is
///   subscribed once, and the one that stays gets what is sent afterwards.
/// - Churning with no one staying: every connection made ends, and the next subscriber connects
///   to a live source.
/// - The last subscriber leaving while a new one arrives: the new one is never left on an ended
///   connection, and gets a kept value only from the connection it joined.
/// - A sender sending nonstop while 8 threads subscribe and dispose: no subscriber gets a value of
///   another connection than its own.
/// - A synchronous source subscribed from 8 threads at once: each subscriber gets its value and
///   completion, whichever connection it joined.
///
/// The racing threads subscribe with a scheduler current (`performAsCurrentScheduler`), so that
/// each subscription is made inside the racing call, not later on the subscription scheduler.
final class ShareStressTests: LeakCheckedTestCase {
    func testShare_churningOnEightThreadsWhileOneStays_subscribesTheSourceOnce() {
        forEachRound("share: churn while one stays") { round in
            let source = DrivenSource<TestError>()
            let shared = source.signal.share(replay: round % 2)
            let stays = shared.record()
            race(threads: 8) { _ in
                current.performAsCurrentScheduler {
                    for _ in 0..<4 { shared.subscribe(next: { _ in }).dispose() }
                }
            }
            XCTAssertEqual(source.subscriptions.value, 1, "round \(round)")
            XCTAssertEqual(source.disposals.value, 0, "round \(round)")
            source.input.sendNext(7)
            XCTAssertEqual(stays.values, [7], "round \(round)")
            stays.dispose()
            XCTAssertEqual(source.disposals.value, 1, "round \(round)")
        }
    }

    func testShare_churningOnEightThreads_endsEveryConnection_andTheNextSubscriberConnects() {
        forEachRound("share: churn") { round in
            let source = DrivenSource<TestError>()
            let shared = source.signal.share(replay: round % 2)
            race(threads: 8) { index in
                current.performAsCurrentScheduler {
                    for step in 0..<4 {
                        let values = Counter()
                        if (index + step).isMultiple(of: 2) {
                            shared.subscribeDisposingInFirstValue(counting: values)
                            source.input.sendNext(index)
                        } else {
                            shared.subscribe(next: { _ in }).dispose()
                        }
                    }
                }
            }
            // A subscriber that disposes in its first value may still wait for a value; the last
            // one out of each connection ends it. Send until every connection has ended.
            let ended = pollWithoutRunningTheMainQueue {
                source.input.sendNext(-1)
                return source.subscriptions.value == source.disposals.value
            }
            XCTAssertTrue(ended, "round \(round): \(source.subscriptions.value) source subscriptions, \(source.disposals.value) ended")
            let last = shared.record()
            XCTAssertEqual(source.subscriptions.value, source.disposals.value + 1, "round \(round): the next subscriber connected")
            source.input.sendNext(7)
            XCTAssertEqual(last.values, [7], "round \(round)")
            last.dispose()
            XCTAssertEqual(source.subscriptions.value, source.disposals.value, "round \(round)")
        }
    }

    func testShare_theLastSubscriberLeavingWhileANewOneArrives_neverLeavesItOnAnEndedConnection() {
        forEachRound("share: last out races the next in") { round in
            let source = DrivenSource<TestError>()
            let shared = source.signal.share(replay: 1)
            let leaving = shared.record()
            source.input.sendNext(0)
            let arriving = Lock<EventRecorder<Int, TestError>?>(nil)
            race(threads: 2) { index in
                if index == 0 {
                    leaving.dispose()
                } else {
                    current.performAsCurrentScheduler {
                        let recorder = shared.record()
                        arriving.withLock { $0 = recorder }
                    }
                }
            }
            let recorder = arriving.withLock { $0! }
            // Joined before the end: one connection, and its kept 0. After: a second one, fresh.
            let joinedTheFirst = source.subscriptions.value == 1
            XCTAssertEqual(source.subscriptions.value - source.disposals.value, 1, "round \(round): one connection runs")
            source.input.sendNext(1)
            XCTAssertTrue(pollWithoutRunningTheMainQueue { recorder.values.last == 1 }, "round \(round)")
            XCTAssertEqual(recorder.values, joinedTheFirst ? [0, 1] : [1], "round \(round)")
            recorder.dispose()
            XCTAssertEqual(source.subscriptions.value, source.disposals.value, "round \(round)")
        }
    }

    func testShare_subscribersRacingASender_getOnlyTheirOwnConnectionsValues() {
        forEachRound("share: each connection's values") { round in
            // Each connection tags the pipe's values with its own number: value = number * 1_000 + n.
            let (pipe, input) = Signal<Int, TestError>.pipe()
            let connections = Lock(0)
            let source = Signal<Int, TestError> { subscriber in
                let number = connections.withLock { count -> Int in
                    count += 1
                    return count
                }
                return pipe.map { number * 1_000 + $0 }.subscribe(subscriber)
            }
            let shared = source.share(replay: round % 3)
            let stop = Flag()
            let sender = startThread("share sender") {
                var value = 0
                while !stop.isSet {
                    value = (value + 1) % 1_000
                    input.sendNext(value)
                }
            }
            let recorders = Recorder<EventRecorder<Int, TestError>>()
            race(threads: 8) { _ in
                current.performAsCurrentScheduler {
                    for _ in 0..<4 {
                        let recorder = shared.record()
                        recorders.record(recorder)
                        recorder.dispose()
                    }
                }
            }
            stop.set()
            XCTAssertTrue(pollWithoutRunningTheMainQueue { sender.isSet }, "round \(round)")
            for recorder in recorders.values {
                let numbers = Set(recorder.values.map { $0 / 1_000 })
                XCTAssertLessThanOrEqual(numbers.count, 1, "round \(round): a subscriber got the values of connections \(numbers.sorted())")
            }
            input.sendCompleted()
        }
    }

    func testShare_aSynchronousSourceSubscribedFromEightThreads_givesEachSubscriberItsValueAndCompletion() {
        forEachRound("share: synchronous source from eight threads") { round in
            let subscriptions = Counter()
            let shared = Signal<Int, TestError> { subscriber in
                subscriptions.increment()
                subscriber.sendNext(1)
                subscriber.sendCompleted()
                return nil
            }.share(replay: 1)
            let recorders = Recorder<EventRecorder<Int, TestError>>()
            race(threads: 8) { _ in
                current.performAsCurrentScheduler { recorders.record(shared.record()) }
            }
            // Each joined a connection before its value (and got it live) or after (and got it
            // replayed), or came after an end and connected again.
            for (index, recorder) in recorders.values.enumerated() {
                XCTAssertTrue(pollWithoutRunningTheMainQueue { recorder.events.count >= 2 }, "round \(round), subscriber \(index)")
                XCTAssertEqual(recorder.events, [.next(1), .completed], "round \(round), subscriber \(index)")
            }
            XCTAssertGreaterThanOrEqual(subscriptions.value, 1)
            XCTAssertLessThanOrEqual(subscriptions.value, 8)
        }
    }
}

/// Made current on the racing threads so that their subscriptions are made at once.
private let current = QueueScheduler(name: "share stress")

/// `Stress.forEachRound`, with fewer rounds under a sanitizer: 40 instead of 200, which keep
/// the five races within about 20 s of CI's ThreadSanitizer run (200 took 84 s); every variant a
/// round cycles through (`round % 2`, `round % 3`) still comes back many times.
private func forEachRound(_ shape: String, file: StaticString = #filePath, line: UInt = #line, _ body: (_ round: Int) -> Void) {
    for round in 0..<BuildKind.raceRounds(optimized: Stress.rounds, debug: Stress.rounds, sanitized: 40) {
        withWatchdog(seconds: Stress.roundSeconds, "\(shape), round \(round)", file: file, line: line) {
            body(round)
        }
    }
}
