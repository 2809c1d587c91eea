import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class PaceTests: LeakCheckedTestCase {
    private typealias Events = [Stamped<Int, TestError>]

    // Marble tests: each character is one frame of virtual time (1 s), and a match fixes the
    // exact time of every event.
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6]

    // MARK: Every value, spaced

    func testPace_sendsEveryValueInOrderAtMostOnePerInterval() {
        // The doc comment's example: a leaves at once; b and c wait, and leave 2 s apart; the
        // interval c started ends at 6 s with nothing waiting, so d leaves at once, and e, which
        // comes 1 s after it, waits for the rest of d's interval.
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("abc----de", values: values, error: TestError.first)
        let recording = scheduler.record(source.pace(2, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "a-b-c--d-e", values: values, error: .first))
    }

    func testPace_aBurstLeavesOneValuePerIntervalAtExactTimes() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.pace(1, on: scheduler).record(on: scheduler)
        for value in 1...4 { source.input.sendNext(value) }
        XCTAssertEqual(recorder.events, [at(0, .next(1))] as Events, "the first value leaves at once, the others wait")
        scheduler.advance(by: 0.999)
        XCTAssertEqual(recorder.events, [at(0, .next(1))] as Events, "nothing leaves before the interval has passed")
        scheduler.advance(to: TestScheduler.startDate.addingTimeInterval(10))
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(1, .next(2)), at(2, .next(3)), at(3, .next(4))] as Events)
        XCTAssertTrue(scheduler.isEmpty, "the interval 4 started ended with nothing waiting, and no timer is left")
        // Long after the last value, the next one leaves at once.
        source.input.sendNext(5)
        XCTAssertEqual(recorder.events.last, at(10, .next(5)))
        recorder.dispose()
    }

    func testPace_aValueWaitsOnlyForWhatIsLeftOfThePreviousInterval() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.pace(1, on: scheduler).record(on: scheduler)
        scheduler.at(0.25) { source.input.sendNext(1) }
        scheduler.at(0.75) { source.input.sendNext(2) }   // 1's interval runs until 1.25
        scheduler.at(3.5) { source.input.sendNext(3) }    // 2's ended at 2.25: at once
        scheduler.at(4) { source.input.sendNext(4) }      // 3's runs until 4.5
        scheduler.at(4.5) { source.input.sendCompleted() } // at 4.5, as 4 waits: after it
        scheduler.run()
        XCTAssertEqual(recorder.events, [
            at(0.25, .next(1)), at(1.25, .next(2)), at(3.5, .next(3)), at(4.5, .next(4)), at(4.5, .completed),
        ] as Events)
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(recorder.disposable.isDisposed)
    }

    func testPace_theFirstValueLeavesOnTheSendingThreadAndTheOthersOnTheScheduler() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let onScheduler = Recorder<Bool>()
        let recorder = source.signal.pace(1, on: scheduler)
            .doNextForTest { _ in onScheduler.record(Scheduler.current === scheduler) }
            .record(on: scheduler)
        source.input.sendNext(1)
        source.input.sendNext(2)
        source.input.sendNext(3)
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(1, .next(2)), at(2, .next(3))] as Events)
        XCTAssertEqual(onScheduler.values, [false, true, true])
        recorder.dispose()
    }

    func testPace_zeroIntervalSendsOneValueOfABurstPerTurnOfTheScheduler() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.pace(0, on: scheduler).record(on: scheduler)
        source.input.sendNext(1)
        source.input.sendNext(2)
        source.input.sendNext(3)
        XCTAssertEqual(recorder.events, [at(0, .next(1))] as Events)
        XCTAssertTrue(scheduler.step())
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(0, .next(2))] as Events)
        XCTAssertTrue(scheduler.step())
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(0, .next(2)), at(0, .next(3))] as Events)
        // 3's interval ends on the next turn, with nothing waiting; then a value leaves at once.
        XCTAssertTrue(scheduler.step())
        XCTAssertTrue(scheduler.isEmpty)
        source.input.sendNext(4)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(0, .next(2)), at(0, .next(3)), at(0, .next(4)), at(0, .completed)] as Events)
    }

    func testPace_infiniteIntervalSendsTheFirstValueAndHoldsTheRestAndCompletion() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let (recorder, token) = trackingLifetime { token -> TimedRecorder<Int, TestError> in
            let recorder = source.signal.map { value -> Int in _ = token; return value }
                .pace(.infinity, on: scheduler).record(on: scheduler)
            source.input.sendNext(1)
            source.input.sendNext(2)
            return recorder
        }
        source.input.sendCompleted()
        scheduler.advance(by: 1e9)
        XCTAssertEqual(recorder.events, [at(0, .next(1))] as Events)
        XCTAssertFalse(recorder.disposable.isDisposed, "completion waits behind 2")
        recorder.dispose()
        XCTAssertTrue(scheduler.isEmpty, "disposal cancelled the timer that never fires")
        XCTAssertFalse(token.isAlive)
    }

    // MARK: Completion, errors, disposal

    func testPace_completionComesRightAfterTheLastValueWaiting() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("abc|", values: values, error: TestError.first)
        let recording = scheduler.record(source.pace(3, on: scheduler))
        scheduler.run()
        // b waits for a's interval (0-3 s), c for b's (3-6 s): completion, which came at 3 s,
        // follows c at once, not an interval later.
        XCTAssertNil(recording.mismatch(expected: "a--b--(c|)", values: values, error: .first))
        XCTAssertEqual(elapsed(scheduler), 6, "no timer ran after the last value")
        XCTAssertEqual(source.subscriptions.count, 1)
    }

    func testPace_completionWithNothingWaitingComesAtOnceAndCancelsTheInterval() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("a-|", values: values, error: TestError.first)
        let recording = scheduler.record(source.pace(5, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "a-|", values: values, error: .first))
        XCTAssertEqual(elapsed(scheduler), 2, "the interval's timer was cancelled by completion")
    }

    func testPace_synchronousSources() {
        let scheduler = TestScheduler()
        let values = TestSource([1, 2, 3]).signal.pace(1, on: scheduler).record(on: scheduler)
        let empty = TestSource<Int>([]).signal.pace(1, on: scheduler).record(on: scheduler)
        let failing = TestSource([1, 2], end: .error(.second)).signal.pace(1, on: scheduler).record(on: scheduler)
        XCTAssertEqual(values.events, [at(0, .next(1))] as Events)
        XCTAssertEqual(empty.events, [at(0, .completed)] as Events)
        XCTAssertEqual(failing.events, [at(0, .next(1)), at(0, .error(.second))] as Events)
        scheduler.run()
        XCTAssertEqual(values.events, [at(0, .next(1)), at(1, .next(2)), at(2, .next(3)), at(2, .completed)] as Events)
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testPace_anErrorComesAtOnceAndDropsTheValuesWaiting() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let (recorder, token) = trackingLifetime { token -> TimedRecorder<Int, TestError> in
            let recorder = source.signal.pace(1, on: scheduler).record(on: scheduler)
            source.input.sendNext(1)
            source.input.sendNext(2)
            source.input.sendNext(3)
            scheduler.at(0.5) { [token] in
                withExtendedLifetime(token) {}
                source.input.sendError(.second)
            }
            return recorder
        }
        scheduler.run()
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(0.5, .error(.second))] as Events)
        XCTAssertTrue(scheduler.isEmpty, "the error cancelled the interval's timer")
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(recorder.disposable.isDisposed)
        XCTAssertFalse(token.isAlive)
    }

    func testPace_disposalMidBacklogCancelsTheTimerDisposesTheSourceAndSendsNothingMore() {
        // (The shared `assertDisposalMidStream` expects nothing before the disposal; here the
        // first value leaves at once.)
        let paced: [(String, (Signal<Int, TestError>, TestScheduler) -> Signal<Int, TestError>)] = [
            ("unbounded", { $0.pace(1, on: $1) }),
            ("bounded", { $0.pace(1, on: $1, bufferingAtMost: 10, whenFull: .fail(.first)) }),
        ]
        for (name, apply) in paced {
            let scheduler = TestScheduler()
            let source = PipeSource()
            let recorder = apply(source.signal, scheduler).record(on: scheduler)
            for value in 1...5 { source.input.sendNext(value) }
            scheduler.advance(by: 1.5)
            recorder.dispose()
            XCTAssertTrue(scheduler.isEmpty, "the interval's timer was not cancelled (\(name))")
            XCTAssertEqual(source.disposals.value, 1, name)
            source.input.sendNext(6)
            source.input.sendCompleted()
            scheduler.advance(by: 100)
            XCTAssertEqual(recorder.events, [at(0, .next(1)), at(1, .next(2))] as Events, name)
        }
    }

    func testPace_disposalInsideAValueSendsNothingMore() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let received = Recorder<Int>()
        let box = DisposableBox()
        box.disposable = source.signal.pace(1, on: scheduler).subscribe(next: { value in
            received.record(value)
            if value == 2 { box.disposable?.dispose() }
        }, completed: { received.record(-1) })
        for value in 1...4 { source.input.sendNext(value) }
        source.input.sendCompleted()
        scheduler.run()
        XCTAssertEqual(received.values, [1, 2])
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(scheduler.isEmpty)
    }

    // MARK: The bounded form

    func testPaceBounded_dropNewestDropsTheValuesThatFindTheQueueFull() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.pace(1, on: scheduler, bufferingAtMost: 2, whenFull: .dropNewest).record(on: scheduler)
        for value in 1...5 { source.input.sendNext(value) }
        scheduler.advance(by: 1)
        source.input.sendNext(6)   // 3 waits alone: room for 6
        source.input.sendNext(7)   // dropped
        source.input.sendCompleted()
        scheduler.run()
        XCTAssertEqual(recorder.events, [
            at(0, .next(1)), at(1, .next(2)), at(2, .next(3)), at(3, .next(6)), at(3, .completed),
        ] as Events)
    }

    func testPaceBounded_dropOldestKeepsTheNewestValues() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let recorder = source.signal.pace(1, on: scheduler, bufferingAtMost: 2, whenFull: .dropOldest).record(on: scheduler)
        for value in 1...5 { source.input.sendNext(value) }
        source.input.sendCompleted()
        scheduler.run()
        // The doc comment's example: 2 and 3 made room for 4 and 5.
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(1, .next(4)), at(2, .next(5)), at(2, .completed)] as Events)
    }

    func testPaceBounded_failEndsWithTheErrorAtOnceDisposingTheSource() {
        let scheduler = TestScheduler()
        let source = PipeSource()
        let (recorder, token) = trackingLifetime { token -> TimedRecorder<Int, TestError> in
            let recorder = source.signal.map { value -> Int in _ = token; return value }
                .pace(1, on: scheduler, bufferingAtMost: 2, whenFull: .fail(.second)).record(on: scheduler)
            source.input.sendNext(1)
            scheduler.advance(by: 0.5)
            source.input.sendNext(2)
            source.input.sendNext(3)
            return recorder
        }
        XCTAssertEqual(recorder.events, [at(0, .next(1))] as Events, "2 and 3 fill the queue")
        source.input.sendNext(4)
        XCTAssertEqual(recorder.events, [at(0, .next(1)), at(0.5, .error(.second))] as Events)
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertTrue(scheduler.isEmpty, "the interval's timer was cancelled")
        XCTAssertTrue(recorder.disposable.isDisposed)
        source.input.sendNext(5)
        scheduler.run()
        XCTAssertEqual(recorder.events.count, 2)
        XCTAssertFalse(token.isAlive)
    }

    func testPaceBounded_failWithSignalErrorAndAnyError() {
        let scheduler = TestScheduler()
        let (typed, typedInput) = Signal<Int, SignalError>.pipe()
        let (untyped, untypedInput) = Signal<Int, any Error>.pipe()
        let typedErrors = Recorder<SignalError>()
        let untypedErrors = Recorder<SignalError?>()
        _ = typed.pace(1, on: scheduler, bufferingAtMost: 1, whenFull: .fail(.backlogFull)).subscribe(error: { typedErrors.record($0) })
        _ = untyped.pace(1, on: scheduler, bufferingAtMost: 1, whenFull: .fail(SignalError.backlogFull))
            .subscribe(error: { untypedErrors.record($0 as? SignalError) })
        for value in 1...3 {
            typedInput.sendNext(value)
            untypedInput.sendNext(value)
        }
        XCTAssertEqual(typedErrors.values, [.backlogFull])
        XCTAssertEqual(untypedErrors.values, [.backlogFull])
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testPaceBounded_theQueueNeverHoldsMoreThanTheLimit() {
        // Memory stays within the limit however fast the source sends: each value dropped is
        // released at once.
        for policy in [PacePolicy<Never>.dropNewest, .dropOldest] {
            let scheduler = TestScheduler()
            let live = Counter()
            let (values, input) = Signal<Tracked, Never>.pipe()
            let subscription = values.pace(1, on: scheduler, bufferingAtMost: 3, whenFull: policy).subscribe()
            var most = 0
            for _ in 0..<1_000 {
                input.sendNext(Tracked(live))
                most = max(most, live.value)
            }
            // The one sent at once, released as its callbacks return, and three waiting.
            XCTAssertLessThanOrEqual(most, 4, "\(policy)")
            XCTAssertEqual(live.value, 3, "\(policy)")
            subscription.dispose()
            XCTAssertEqual(live.value, 0, "disposal released the values waiting (\(policy))")
        }
    }

    // MARK: Lifetime

    func testPace_releasesEverythingOnceTheSubscriptionEnds() {
        let scheduler = TestScheduler()
        let before = SignalDiagnostics.liveSubscriptionCount
        weak var weakSignal: Signal<LifetimeToken, Never>?
        var (input, token): (Subscriber<LifetimeToken, Never>?, WeakReference<LifetimeToken>) = trackingLifetime { token in
            let (tokens, input) = Signal<LifetimeToken, Never>.pipe()
            let paced = tokens.pace(1, on: scheduler)
            weakSignal = paced
            _ = paced.subscribe()
            input.sendNext(LifetimeToken())
            input.sendNext(token)
            return input
        }
        XCTAssertTrue(token.isAlive, "the value waiting is held")
        input?.sendCompleted()
        XCTAssertTrue(token.isAlive, "completion waits for the value waiting")
        scheduler.run()
        XCTAssertFalse(token.isAlive, "sent, then released")
        XCTAssertNil(weakSignal)
        XCTAssertTrue(scheduler.isEmpty)
        // The pipe's input counts as a live subscription while it lives.
        input = nil
        XCTAssertEqual(SignalDiagnostics.liveSubscriptionCount, before)
    }

    func testPace_disposalReleasesTheValuesWaiting() {
        let scheduler = TestScheduler()
        let (tokens, input) = Signal<LifetimeToken, Never>.pipe()
        let (subscription, token) = trackingLifetime { token -> Disposable in
            let subscription = tokens.pace(1, on: scheduler, bufferingAtMost: 10, whenFull: .dropNewest).subscribe()
            input.sendNext(LifetimeToken())
            input.sendNext(token)
            return subscription
        }
        XCTAssertTrue(token.isAlive)
        subscription.dispose()
        XCTAssertFalse(token.isAlive, "disposal released the value waiting")
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testPace_namesItsSignal() {
        let wasEnabled = SignalDebug.isEnabled
        SignalDebug.isEnabled = true
        defer { SignalDebug.isEnabled = wasEnabled }
        let source = Signal<Int, TestError>.never.named("source")
        XCTAssertEqual(source.pace(0.5, on: TestScheduler()).name, "[source] -pace: 0.5")
        XCTAssertEqual(
            source.pace(1, on: TestScheduler(), bufferingAtMost: 3, whenFull: .dropOldest).name,
            "[source] -pace: 1.0 bufferingAtMost: 3 whenFull: dropOldest"
        )
    }

    // MARK: Threads

    func testPace_concurrentSendersOnAQueueSchedulerGetEveryValueInEachSendersOrderSpaced() {
        // Four threads send at once into one pipe; the intervals run on a real queue. Every value
        // arrives, each sender's in its order, and the values are spaced: each interval starts
        // as its value is sent and runs at least `interval` on the monotonic clock, so the last
        // of n values comes at least (n - 1) intervals after the sending began.
        let scheduler = QueueScheduler(name: "pace test")
        let senders = 4
        let perSender = BuildKind.rounds(25, sanitized: 10)
        let interval = 0.002
        let (signal, input) = Signal<(sender: Int, index: Int), Never>.pipe()
        let received = Recorder<(sender: Int, index: Int)>()
        let done = DispatchSemaphore(value: 0)
        let subscription = signal.pace(interval, on: scheduler)
            .subscribe(next: { received.record($0) }, completed: { done.signal() })
        let start = DispatchTime.now().uptimeNanoseconds
        let group = DispatchGroup()
        for sender in 0..<senders {
            group.enter()
            onAPlainThread {
                for index in 0..<perSender { input.sendNext((sender, index)) }
                group.leave()
            }
        }
        XCTAssertTrue(group.waitForAll())
        input.sendCompleted()
        XCTAssertTrue(done.waitForSignal())
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let values = received.values
        XCTAssertEqual(values.count, senders * perSender)
        for sender in 0..<senders {
            XCTAssertEqual(values.filter { $0.sender == sender }.map(\.index), Array(0..<perSender), "sender \(sender)")
        }
        XCTAssertGreaterThanOrEqual(elapsed, Double(senders * perSender - 1) * interval)
        XCTAssertTrue(subscription.isDisposed)
    }

    // MARK: Bad input

    func testPace_badInputStops() {
        let never = Signal<Int, TestError>.never
        let cases: [(name: String, message: String, body: () -> Void)] = [
            ("NaN", "pace(_:on:) needs an interval of zero or more, got nan", { _ = never.pace(.nan, on: TestScheduler()) }),
            ("negative", "pace(_:on:) needs an interval of zero or more, got -1.0", { _ = never.pace(-1, on: TestScheduler()) }),
            ("immediate", "pace(_:on:) cannot run on Scheduler.immediate", { _ = never.pace(1, on: .immediate) }),
            ("bounded, negative", "pace(_:on:bufferingAtMost:whenFull:) needs an interval of zero or more, got -0.5", {
                _ = never.pace(-0.5, on: TestScheduler(), bufferingAtMost: 1, whenFull: .dropNewest)
            }),
            ("bounded, zero limit", "pace(_:on:bufferingAtMost:whenFull:) needs a limit of 1 or more, got 0", {
                _ = never.pace(1, on: TestScheduler(), bufferingAtMost: 0, whenFull: .dropOldest)
            }),
        ]
        for stop in cases {
            if let failure = expectStop(stop.name, in: self, messageContains: stop.message, stop.body) {
                XCTFail(failure)
            }
        }
    }
}

/// A value that counts the live instances of its kind.
private final class Tracked: Sendable {
    private let live: Counter

    init(_ live: Counter) {
        self.live = live
        live.increment()
    }

    deinit {
        live.decrement()
    }
}
