import Disposables
import Foundation
import Signals
import Subjects
import Synchronization
import TestSupport
import XCTest

/// Stress tests: ``Stress/rounds`` rounds of 8 threads each (1,000 in release, 400 in debug, 200
/// under a sanitizer), each under a watchdog, bounded in time and deterministic in outcome. Each
/// round checks what must hold however the threads interleave.
///
/// - Sends from six threads racing two `dispose()`s of a subscription to a subject.
/// - Subjects bound to each other, in a loop or in chains both ways, sent to from eight threads:
///   no deadlock (a watchdog ends the run instead), each value once per subscriber, in order.
/// - `replayLast` subscribed from eight threads while its source sends: a run of values with no
///   gap and no duplicate.
/// - Eight first subscribers racing on `replayLazily`, `autoconnect` and `connect`: the source is
///   subscribed once, and every subscriber gets every event.
final class SubjectsStressTests: LeakCheckedTestCase {
    // MARK: Sends racing dispose

    func testSubject_sendsRacingDispose_keepTheGrammarAndTheOtherSubscriptionGetsEverything() {
        Stress.forEachRound("subject: sends racing dispose") { round in
            let subject = Subject<Int, TestError>()
            let problems = SendsRacingDispose.runWithAKeptSubscription(
                round: round, to: subject, send: subject.send, complete: subject.sendCompleted
            )
            XCTAssertEqual(problems, [])
        }
    }

    // MARK: Subjects bound to each other

    func testTwoSubjectsBoundToEachOther_sentToFromEightThreads_deliverEachValueOncePerSubscriber() {
        // A value is `origin * 1_000 + hops`: each subject passes on to the other, one hop
        // further, what has made fewer than `hops` hops.
        let hops = 6
        Stress.forEachRound("two subjects bound to each other") { round in
            let a = Subject<Int, Never>()
            let b = Subject<Int, Never>()
            a.filter { $0 % 1_000 < hops }.map { $0 + 1 }.subscribe(b)
            b.filter { $0 % 1_000 < hops }.map { $0 + 1 }.subscribe(a)
            let recorders = [a.record(), a.record(), b.record(), b.record()]
            race(threads: 8) { index in
                (index.isMultiple(of: 2) ? a : b).sendNext(index * 1_000)
            }
            for (position, recorder) in recorders.enumerated() {
                let isA = position < 2
                // Origin `o` starts at `a` when even; its value reaches `a` at the hops of the
                // same parity.
                let expected = (0..<8).flatMap { origin in
                    (0...hops).filter { ($0.isMultiple(of: 2) == origin.isMultiple(of: 2)) == isA }.map { origin * 1_000 + $0 }
                }
                let label = "round \(round), subscriber \(position)"
                XCTAssertTrue(pollWithoutRunningTheMainQueue { recorder.values.count >= expected.count }, label)
                let values = recorder.values
                XCTAssertEqual(values.sorted(), expected, label)
                for origin in 0..<8 {
                    let fromOrigin = values.filter { $0 / 1_000 == origin }
                    XCTAssertEqual(fromOrigin, fromOrigin.sorted(), "\(label): origin \(origin)'s hops out of order")
                }
            }
            // Each holds a subscription to the other: the terminal event crosses over and ends both.
            a.sendCompleted()
            XCTAssertEqual(recorders.map { $0.events.last }, Array(repeating: .completed, count: 4), "round \(round)")
        }
    }

    func testSubjectChainsBothWays_sentToFromEightThreadsAtBothEnds_deliverEachValueOncePerSubscriberInOrder() {
        Stress.forEachRound("subject chains both ways") { round in
            // Even values flow from subjects[0] to subjects[3], odd ones back.
            let subjects = (0..<4).map { _ in Subject<Int, Never>() }
            for index in 0..<3 {
                subjects[index].filter { $0.isMultiple(of: 2) }.subscribe(subjects[index + 1])
                subjects[index + 1].filter { !$0.isMultiple(of: 2) }.subscribe(subjects[index])
            }
            let recorders = subjects.map { $0.record() }
            // Thread `t` sends 4 values, `t * 1_000 + 2k`, into subjects[0] when `t` is even,
            // and `t * 1_000 + 2k + 1` into subjects[3] when odd.
            let sent = (0..<8).map { thread in (0..<4).map { thread * 1_000 + 2 * $0 + thread % 2 } }
            race(threads: 8) { index in
                let subject = subjects[index.isMultiple(of: 2) ? 0 : 3]
                for value in sent[index] { subject.sendNext(value) }
            }
            let all = sent.flatMap { $0 }.sorted()
            for (position, recorder) in recorders.enumerated() {
                let label = "round \(round), subjects[\(position)]"
                XCTAssertTrue(pollWithoutRunningTheMainQueue { recorder.values.count >= all.count }, label)
                let values = recorder.values
                XCTAssertEqual(values.sorted(), all, label)
                for thread in 0..<8 {
                    XCTAssertEqual(values.filter { $0 / 1_000 == thread }, sent[thread], "\(label): thread \(thread)'s values")
                }
            }
            // The chains hold each other in both directions: the terminal event crosses over to
            // every subject.
            subjects[0].sendCompleted()
            XCTAssertEqual(recorders.map { $0.events.last }, Array(repeating: .completed, count: 4), "round \(round)")
        }
    }

    // MARK: replayLast subscribed from eight threads while its source sends

    func testReplayLast_subscribedFromEightThreadsWhileAHotSourceSends_replaysTheLatestThenFollowsWithoutGap() {
        Stress.forEachRound("replayLast of a pipe subscribed from eight threads") { round in
            let (pipe, input) = Signal<Int, Never>.pipe()
            let last = pipe.replayLast()
            let recorders = Recorder<EventRecorder<Int, Never>>()
            race(threads: 9) { index in
                if index == 8 {
                    for value in 0..<32 { input.sendNext(value) }
                } else {
                    recorders.record(last.record())
                }
            }
            input.sendNext(32)
            input.sendCompleted()
            checkRuns(recorders.values, endingWith: 32, label: "round \(round)")
        }
    }

    func testReplayLast_subscribedFromEightThreadsWhileAColdSourceSendsOnABackgroundScheduler_replaysTheLatestThenFollowsWithoutGap() {
        Stress.forEachRound("replayLast of a cold signal subscribed from eight threads") { round in
            let cold = Signal<Int, Never> { subscriber in
                for value in 0..<32 { subscriber.sendNext(value) }
                subscriber.sendCompleted()
                return nil
            }
            // Connected from a plain thread: the source runs on a background scheduler, while
            // the eight threads subscribe.
            let shared = Lock<Signal<Int, Never>?>(nil)
            onAPlainThread { shared.withLock { $0 = cold.replayLast() } }
            let last = shared.withLock { $0 }!
            let recorders = Recorder<EventRecorder<Int, Never>>()
            race(threads: 8) { _ in recorders.record(last.record()) }
            checkRuns(recorders.values, endingWith: 31, label: "round \(round)")
        }
    }

    /// Checks that each recorder ends with a run of consecutive values up to `last`, then
    /// completion: a `replayLast` subscriber gets the latest value at its subscription (if any),
    /// then every later one.
    private func checkRuns(_ recorders: [EventRecorder<Int, Never>], endingWith last: Int, label: String) {
        XCTAssertEqual(recorders.count, 8, label)
        XCTAssertTrue(pollWithoutRunningTheMainQueue { recorders.allSatisfy { $0.events.last == .completed } }, label)
        for recorder in recorders {
            let events = recorder.events
            let first = events.first?.value ?? -1
            let expected: [Event<Int, Never>] = (first...last).map { .next($0) } + [.completed]
            XCTAssertEqual(events, expected, label)
            XCTAssertTrue((0...last).contains(first), "\(label): \(events)")
        }
    }

    // MARK: Eight first subscribers: the source is subscribed once

    func testReplayLazily_eightFirstSubscribersAtOnce_subscribeTheSourceOnceAndAllGetEverything() {
        Stress.forEachRound("replayLazily: eight first subscribers") { round in
            // Even rounds: a source sent to by hand once subscribed; odd rounds: one that sends
            // everything as it is subscribed.
            let driven = DrivenSource<TestError>()
            let synchronous = TestSource([1, 2, 3])
            let isDriven = round.isMultiple(of: 2)
            let shared = (isDriven ? driven.signal : synchronous.signal).replayLazily()
            let recorders = Recorder<EventRecorder<Int, TestError>>()
            race(threads: 8) { _ in recorders.record(shared.record()) }
            if isDriven {
                XCTAssertTrue(pollWithoutRunningTheMainQueue { driven.subscriptions.value > 0 }, "round \(round)")
                sendOneTwoThreeAndComplete(to: driven)
            }
            checkEverySubscriberGotOneTwoThree(recorders.values, label: "round \(round)")
            XCTAssertEqual(isDriven ? driven.subscriptions.value : synchronous.subscriptions.value, 1, "round \(round)")
        }
    }

    func testAutoconnect_eightFirstSubscribersAtOnce_subscribeTheSourceOnceAndAllGetEverything() {
        Stress.forEachRound("autoconnect: eight first subscribers") { round in
            let source = DrivenSource<TestError>()
            let shared = source.signal.publish().autoconnect()
            let recorders = Recorder<EventRecorder<Int, TestError>>()
            race(threads: 8) { _ in recorders.record(shared.record()) }
            // Each subscriber joined the subject before it connected, so all are there for what
            // the source sends once subscribed.
            XCTAssertTrue(pollWithoutRunningTheMainQueue { source.subscriptions.value > 0 }, "round \(round)")
            sendOneTwoThreeAndComplete(to: source)
            checkEverySubscriberGotOneTwoThree(recorders.values, label: "round \(round)")
            XCTAssertEqual(source.subscriptions.value, 1, "round \(round)")
            // The completion may have been handed to a racing thread still inside a delivery,
            // which sends it, then ends the source's subscription: wait for that end, then check
            // that it came once (an AddressSanitizer run saw the end a moment after the events).
            XCTAssertTrue(pollWithoutRunningTheMainQueue { source.disposals.value > 0 }, "round \(round)")
            XCTAssertEqual(source.disposals.value, 1, "round \(round): the source subscription ended once")
        }
    }

    func testConnect_fromEightThreadsEachSubscribedFirst_subscribesTheSourceOnceAndAllGetEverything() {
        Stress.forEachRound("connect from eight threads") { round in
            let source = DrivenSource<TestError>()
            let connection = source.signal.publish()
            let recorders = Recorder<EventRecorder<Int, TestError>>()
            let disposables = Recorder<ObjectIdentifier>()
            race(threads: 8) { _ in
                recorders.record(connection.signal.record())
                disposables.record(ObjectIdentifier(connection.connect()))
            }
            XCTAssertEqual(Set(disposables.values).count, 1, "round \(round): connect() returned different disposables")
            XCTAssertTrue(pollWithoutRunningTheMainQueue { source.subscriptions.value > 0 }, "round \(round)")
            sendOneTwoThreeAndComplete(to: source)
            checkEverySubscriberGotOneTwoThree(recorders.values, label: "round \(round)")
            XCTAssertEqual(source.subscriptions.value, 1, "round \(round)")
        }
    }

    private func sendOneTwoThreeAndComplete(to source: DrivenSource<TestError>) {
        for value in 1...3 { source.input.sendNext(value) }
        source.input.sendCompleted()
    }

    private func checkEverySubscriberGotOneTwoThree(_ recorders: [EventRecorder<Int, TestError>], label: String) {
        XCTAssertEqual(recorders.count, 8, label)
        XCTAssertTrue(pollWithoutRunningTheMainQueue { recorders.allSatisfy { $0.events.last?.isFinished == true } }, label)
        for recorder in recorders {
            XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3), .completed], label)
        }
    }
}

extension Subject where Value == Int, Failure == TestError {
    /// Sends `event`.
    fileprivate func send(_ event: Event<Int, TestError>) {
        switch event {
        case let .next(value): sendNext(value)
        case let .error(error): sendError(error)
        case .completed: sendCompleted()
        }
    }
}
