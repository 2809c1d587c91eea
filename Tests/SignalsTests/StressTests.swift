import Dispatch
import Disposables
import Foundation
import Signals
import Synchronization
import TestSupport
import XCTest

/// Stress tests: ``Stress/rounds`` rounds of 8 threads each (1,000 in release, 400 in debug, 200
/// under a sanitizer), each under a watchdog, bounded in time and deterministic in outcome. Each
/// round checks what must hold however the threads interleave.
///
/// - Sends from six threads racing two `dispose()`s of a subscription to a created signal or a
///   pipe: the grammar holds, no callback starts after `dispose()` has returned but the one
///   already past its final check, and a subscription nobody disposes gets every event.
/// - `take(1)` and `zip` subscribed from eight threads at once to the same hot and cold sources
///   while they send: each subscription's events are exactly what its start allows.
final class SignalsStressTests: LeakCheckedTestCase {
    // MARK: Sends racing dispose

    func testCreatedSignal_sendsRacingDispose_keepTheGrammarAndStartNothingAfterDispose() {
        Stress.forEachRound("created signal: sends racing dispose") { round in
            let kind = SubscriptionKind.of(round: round, runs: 4)
            let ending = SendsRacingDispose.Ending.of(round: round, runs: 1)
            let box = SubscriberBox<Int, TestError>()
            let sourceDisposals = Counter()
            let signal = Signal<Int, TestError> { subscriber in
                box.subscriber = subscriber
                return Disposable { sourceDisposals.increment() }
            }
            let probe = CallbackProbe()
            // On the main thread, where the create block runs at once.
            let subscription = probe.subscribe(to: signal, as: kind)
            let input = box.subscriber!
            SendsRacingDispose.run(round: round, ending: ending, probe: probe, send: { input.sendEvent($0) }, dispose: subscription.dispose)
            let label = "round \(round), \(kind), \(ending)"
            XCTAssertEqual(probe.violations(), [], label)
            XCTAssertTrue(subscription.isDisposed, label)
            XCTAssertTrue(input.isDisposed, label)
            XCTAssertEqual(sourceDisposals.value, 1, "\(label): the create block's disposable is disposed once")
            let count = probe.count
            input.sendNext(CallbackProbe.value(sender: 9, index: 0))
            XCTAssertEqual(probe.count, count, "\(label): delivered after the subscription ended")
        }
    }

    func testPipe_sendsRacingDispose_keepTheGrammarAndTheOtherSubscriptionGetsEverything() {
        Stress.forEachRound("pipe: sends racing dispose") { round in
            let (pipe, input) = Signal<Int, TestError>.pipe()
            let problems = SendsRacingDispose.runWithAKeptSubscription(
                round: round, to: pipe, send: { input.sendEvent($0) }, complete: input.sendCompleted
            )
            XCTAssertEqual(problems, [])
        }
    }

    // MARK: take(1) and zip subscribed from eight threads while their sources send

    func testTakeOne_subscribedFromEightThreadsWhileAHotSourceSends_getsOneValueThenCompletes() {
        Stress.forEachRound("take(1) of a pipe subscribed from eight threads") { round in
            let (pipe, input) = Signal<Int, Never>.pipe()
            let recorders = Lock<[Int: EventRecorder<Int, Never>]>([:])
            race(threads: 8) { index in
                let recorder = pipe.take(1).record()
                recorders.withLock { $0[index] = recorder }
                // Even threads send once subscribed: their own take(1) gets that value or an
                // earlier one.
                if index.isMultiple(of: 2) { input.sendNext(index) }
            }
            // Sent after every thread subscribed: a take(1) that has no value yet gets this.
            input.sendNext(100)
            for (index, recorder) in recorders.withLock({ $0 }) {
                let events = recorder.events
                let label = "round \(round), thread \(index): \(events)"
                guard events.count == 2, let value = events[0].value, events[1] == .completed else {
                    XCTFail("\(label): not one value then completion")
                    continue
                }
                XCTAssertTrue([0, 2, 4, 6].contains(value) || (value == 100 && !index.isMultiple(of: 2)), label)
            }
            XCTAssertEqual(recorders.withLock { $0.count }, 8)
            input.sendCompleted()
        }
    }

    func testTakeOne_subscribedFromEightThreadsToAColdSource_eachRunGivesItsFirstValue() {
        Stress.forEachRound("take(1) of a cold signal subscribed from eight threads") { round in
            let runs = Counter()
            let disposals = Counter()
            // Subscribed from plain threads, its block runs on a background scheduler.
            let cold = Signal<Int, Never> { subscriber in
                runs.increment()
                for value in 0..<8 { subscriber.sendNext(value) }
                subscriber.sendCompleted()
                return Disposable { disposals.increment() }
            }
            let recorders = Recorder<EventRecorder<Int, Never>>()
            race(threads: 8) { _ in recorders.record(cold.take(1).record()) }
            let all = recorders.values
            XCTAssertEqual(all.count, 8, "round \(round)")
            XCTAssertTrue(pollWithoutRunningTheMainQueue { all.allSatisfy { $0.events.count == 2 } && disposals.value == 8 }, "round \(round)")
            for recorder in all {
                XCTAssertEqual(recorder.events, [.next(0), .completed], "round \(round)")
            }
            XCTAssertEqual(runs.value, 8, "round \(round)")
            XCTAssertEqual(disposals.value, 8, "round \(round): each run's disposable is disposed once")
        }
    }

    func testZip_subscribedFromEightThreadsToAHotAndAColdSourceWhileTheHotOneSends_pairsInOrder() {
        let rows = 4
        let sentDuringTheRace = 16
        Stress.forEachRound("zip subscribed from eight threads") { round in
            let (hot, input) = Signal<Int, Never>.pipe()
            let cold = Signal<Int, Never> { subscriber in
                for value in 0..<rows { subscriber.sendNext(value) }
                subscriber.sendCompleted()
                return nil
            }
            let recorders = Recorder<EventRecorder<[Int], Never>>()
            race(threads: 9) { index in
                if index == 8 {
                    for value in 0..<sentDuringTheRace { input.sendNext(value) }
                } else {
                    recorders.record(Signal.zip(hot, cold).map { [$0.0, $0.1] }.record())
                }
            }
            // Every zip has joined the hot source by now: these fill any rows still open.
            for value in sentDuringTheRace..<sentDuringTheRace + rows { input.sendNext(value) }
            let all = recorders.values
            XCTAssertEqual(all.count, 8, "round \(round)")
            XCTAssertTrue(pollWithoutRunningTheMainQueue { all.allSatisfy { $0.events.last == .completed } }, "round \(round)")
            for recorder in all {
                let events = recorder.events
                // The hot values from the zip's subscription on, in order, each with the cold
                // value of its row.
                let first = events.first?.value?.first ?? -1
                let expected: [Event<[Int], Never>] = (0..<rows).map { .next([first + $0, $0]) } + [.completed]
                XCTAssertEqual(events, expected, "round \(round)")
                XCTAssertTrue((0...sentDuringTheRace).contains(first), "round \(round): \(events)")
            }
            input.sendCompleted()
        }
    }
}
