import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class MarbleTests: LeakCheckedTestCase {
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4]

    // MARK: - Parsing and rendering

    func testMarbles_parsesOneFramePerCharacter() {
        XCTAssertEqual(marks("-a-b--c|"), [mark(1, "a"), mark(3, "b"), mark(6, "c"), mark(7, "|")])
        XCTAssertEqual(marks("--#"), [mark(2, "#")])
        XCTAssertEqual(marks("a1Z"), [mark(0, "a"), mark(1, "1"), mark(2, "Z")])
        XCTAssertEqual(marks(""), [])
        XCTAssertEqual(marks("---"), [])
    }

    func testMarbles_aGroupTakesOneFrame() {
        XCTAssertEqual(marks("-(ab)-c"), [mark(1, "a"), mark(1, "b"), mark(3, "c")])
        XCTAssertEqual(marks("(a|)"), [mark(0, "a"), mark(0, "|")])
        XCTAssertEqual(marks("(ab)(cd)#"), [mark(0, "a"), mark(0, "b"), mark(1, "c"), mark(1, "d"), mark(2, "#")])
    }

    func testMarbles_spacesAreIgnoredAndTimeAfterTheEndIsDropped() {
        XCTAssertEqual(Marbles(" -a - b "), Marbles("-a-b"))
        XCTAssertEqual(Marbles("-a|---"), Marbles("-a|"))
        XCTAssertEqual(Marbles("-a|---").description, "-a|")
        XCTAssertEqual(Marbles("( a b )").description, "(ab)")
    }

    func testMarbles_theZeroMarkerTakesNoFrame() {
        XCTAssertEqual(marks("a^b"), [mark(-1, "a"), mark(0, "b")])
        XCTAssertEqual(marks("--a-^-b"), [mark(-2, "a"), mark(1, "b")])
        XCTAssertEqual(marks("#^"), [mark(-1, "#")])
        XCTAssertTrue(Marbles("^-a").hasZeroMarker)
        XCTAssertFalse(Marbles("-a").hasZeroMarker)
    }

    func testMarbles_renderingAndParsingRoundTrip() {
        let diagrams = [
            "", "-", "|", "#", "a", "-a-b--c|", "--#", "(ab)", "-(ab)-(c|)", "(a#)", "a-b-c-d",
            "0123456789", "----------a|", "^", "^a", "a^", "a^b", "--a-^-b|", "#^", "(ab)^(cd)",
            "xyzXYZ", "-a-(bcd)--|", "a b c", "-a|--",
        ]
        for diagram in diagrams {
            let parsed = Marbles(diagram)
            XCTAssertEqual(Marbles(parsed.description), parsed, "\"\(diagram)\" rendered \"\(parsed.description)\"")
            XCTAssertEqual(Marbles(parsed.description).description, parsed.description, "\"\(diagram)\"")
        }
        // A canonical diagram renders as itself.
        for diagram in ["-a-b--c|", "--#", "-(ab)-(c|)", "a^b", "a-^-b|", "(ab)^(cd)", "^a", "a^", "^", ""] {
            XCTAssertEqual(Marbles(diagram).description, diagram)
        }
        // Frames before the first mark of a hot diagram's past are not drawn.
        XCTAssertEqual(Marbles("--a-^-b|").description, "a-^-b|")
    }

    func testMarbles_malformedDiagramsNameTheOffsetAndTheReason() {
        let cases: [(diagram: String, offset: Int, reason: String)] = [
            ("-a*", 2, "unknown character '*'"),
            ("-a(b", 2, "never closed"),
            ("-a)", 2, "')' without '('"),
            ("-()", 1, "empty group"),
            ("(a(b))", 2, "'(' inside a group"),
            ("(a-b)", 2, "'-' inside a group"),
            ("(a^)", 2, "'^' inside a group"),
            ("^-^", 2, "a second '^'"),
            ("-a|b", 3, "'b' after the end"),
            ("-#-|", 3, "'|' after the end"),
            ("(|a)", 2, "'a' after the end"),
            ("-?", 1, "unknown character '?'"),
            ("-!", 1, "unknown character '!'"),
        ]
        for (diagram, offset, reason) in cases {
            do {
                _ = try Marbles(parsing: diagram)
                XCTFail("\"\(diagram)\" parsed")
            } catch {
                XCTAssertEqual(error.diagram, diagram)
                XCTAssertEqual(error.offset, offset, "\"\(diagram)\": \(error)")
                XCTAssertTrue(error.reason.contains(reason), "\"\(diagram)\": \(error)")
                XCTAssertTrue(error.description.contains("offset \(offset) of marble diagram \"\(diagram)\""), "\(error)")
            }
        }
    }

    // MARK: - Cold signals

    func testColdSignal_eachSubscriptionPlaysTheDiagramFromItsOwnStart() {
        let scheduler = TestScheduler()
        let signal = scheduler.createColdSignal("-a-(bc)|", values: values, error: TestError.first)
        let first = scheduler.record(signal)
        scheduler.advance(by: 2)
        let second = scheduler.record(signal)
        scheduler.run()
        XCTAssertEqual(first.events, [.next(1, 1), .next(3, 2), .next(3, 3), .completed(4)])
        XCTAssertEqual(second.events, [.next(1, 1), .next(3, 2), .next(3, 3), .completed(4)], "times from the second recording's start")
        XCTAssertEqual(second.startDate, TestScheduler.startDate.addingTimeInterval(2))
        XCTAssertEqual(scheduler.now, TestScheduler.startDate.addingTimeInterval(6))
        XCTAssertNil(second.mismatch(expected: "-a-(bc)|", values: values, error: .first))
    }

    func testColdSignal_sendsNothingDuringSubscribeNotEvenFrameZero() {
        let scheduler = TestScheduler()
        let recording = scheduler.record(scheduler.createColdSignal("(ab|)", values: values))
        XCTAssertEqual(recording.events, [])
        scheduler.run()
        XCTAssertEqual(recording.events, [.next(0, 1), .next(0, 2), .completed(0)])
    }

    func testColdSignal_errorsAndFramesOtherThanOneSecond() {
        let scheduler = TestScheduler()
        let recording = scheduler.record(scheduler.createColdSignal("-a--#", values: values, error: TestError.second, frame: 0.25))
        scheduler.run()
        XCTAssertEqual(recording.events, [.next(0.25, 1), .error(1, .second)])
        XCTAssertNil(recording.mismatch(expected: "-a--#", values: values, error: .second, frame: 0.25))
        XCTAssertEqual(recording.marbles(values: values, frame: 0.25), "-a--#")
        XCTAssertEqual(recording.marbles(values: values, frame: 0.125), "--a-----#")
    }

    func testColdSignal_disposalCancelsWhatIsPending() {
        let scheduler = TestScheduler()
        let recording = scheduler.record(scheduler.createColdSignal("a-b-c|", values: values))
        scheduler.advance(by: 2)
        recording.dispose()
        XCTAssertTrue(scheduler.isEmpty, "the pending frames were cancelled")
        scheduler.run()
        XCTAssertEqual(recording.events, [.next(0, 1), .next(2, 2)])
        XCTAssertTrue(recording.isDisposed)
    }

    func testColdSignal_nothingOutlivesTheEnd() {
        let scheduler = TestScheduler()
        weak var weakSignal: Signal<Int, Never>?
        let recording: SignalRecording<Int, Never> = {
            let signal: Signal<Int, Never> = scheduler.createColdSignal("-a|", values: values)
            weakSignal = signal
            return scheduler.record(signal)
        }()
        scheduler.run()
        XCTAssertNil(weakSignal)
        XCTAssertTrue(recording.isDisposed)

        let (pending, token) = trackingLifetime { token in
            scheduler.record(scheduler.createColdSignal("--a", values: ["a": token]))
        }
        scheduler.advance(by: 1)
        XCTAssertTrue(token.isAlive, "the pending value is held")
        pending.dispose()
        XCTAssertTrue(scheduler.isEmpty)
        XCTAssertFalse(token.isAlive, "disposal released the pending value")
    }

    func testColdSignal_logsWhenEachSubscriptionBeganAndEnded() {
        let scheduler = TestScheduler()
        scheduler.advance(by: 5)
        let source = scheduler.createColdSignal("-a-b-c|", values: values, error: TestError.first)
        scheduler.advance(by: 1)
        let taken = scheduler.record(source.take(2))
        let whole = scheduler.record(source)
        let disposed = scheduler.record(source)
        scheduler.advance(by: 2)
        disposed.dispose()
        scheduler.run()
        XCTAssertNil(taken.mismatch(expected: "-a-(b|)", values: values, error: .first))
        XCTAssertEqual(source.subscriptions, [
            .init(6, 9),
            .init(6, 12),
            .init(6, 8),
        ], "times on the scheduler's clock, not since the signal was made (at 5); a terminal event disposes as it is sent")
        let pending = scheduler.record(source)
        XCTAssertEqual(source.subscriptions.last, .init(12))
        pending.dispose()
        XCTAssertEqual(whole.events.count, 4)
    }

    // MARK: - Hot signals

    func testHotSignal_playsOnceAndEachSubscriberGetsWhatComesAfterIt() {
        let scheduler = TestScheduler()
        let hot = scheduler.createHotSignal("a-b-c|", values: values, error: TestError.first)
        let early = scheduler.record(hot)
        scheduler.advance(by: 1)
        let late = scheduler.record(hot)
        scheduler.run()
        XCTAssertEqual(early.events, [.next(0, 1), .next(2, 2), .next(4, 3), .completed(5)])
        XCTAssertEqual(late.events, [.next(1, 2), .next(3, 3), .completed(4)], "times from the late recording's start")
        XCTAssertNil(late.mismatch(expected: "-b-c|", values: values, error: .first))
        let afterTheEnd = scheduler.record(hot)
        XCTAssertEqual(afterTheEnd.events, [.completed(0)], "a pipe sends its end to a late subscriber")
    }

    func testHotSignal_eventsBeforeTheZeroMarkerAreInThePast() {
        let scheduler = TestScheduler()
        scheduler.advance(by: 10)
        let hot = scheduler.createHotSignal("a-^-b|", values: values, error: TestError.first)
        let recording = scheduler.record(hot)
        scheduler.run()
        XCTAssertEqual(recording.events, [.next(1, 2), .completed(2)])

        let ended = scheduler.createHotSignal("a#^--", values: values, error: TestError.second)
        XCTAssertEqual(scheduler.record(ended).events, [.error(0, .second)], "it ended before anyone subscribed")
    }

    func testHotSignal_disposalDetachesOneSubscriberOnly() {
        let scheduler = TestScheduler()
        let hot: TestSignal<Int, Never> = scheduler.createHotSignal("-a-b-c", values: values)
        let leaving = scheduler.record(hot)
        let staying = scheduler.record(hot)
        scheduler.advance(by: 2)
        leaving.dispose()
        scheduler.run()
        XCTAssertEqual(leaving.events, [.next(1, 1)])
        XCTAssertNil(staying.mismatch(expected: "-a-b-c", values: values))
        staying.dispose()
        XCTAssertEqual(hot.subscriptions, [.init(subscribed: 0, disposed: 2), .init(subscribed: 0, disposed: 5)])
    }

    func testHotSignal_nothingOutlivesTheDiagram() {
        let scheduler = TestScheduler()
        weak var weakSignal: TestSignal<LifetimeToken, Never>?
        weak var weakRecording: SignalRecording<LifetimeToken, Never>?
        let (_, token) = trackingLifetime { token in
            let hot: TestSignal<LifetimeToken, Never> = scheduler.createHotSignal("-a|", values: ["a": token])
            let recording = scheduler.record(hot)
            weakSignal = hot
            weakRecording = recording
        }
        XCTAssertTrue(token.isAlive, "the scheduler's blocks hold the diagram's values")
        scheduler.run()
        XCTAssertNil(weakSignal)
        XCTAssertNil(weakRecording)
        XCTAssertFalse(token.isAlive)
    }

    // MARK: - Recording

    func testRecording_timesCountFromTheRecordingsStart() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        scheduler.advance(by: 3)
        let recording = scheduler.record(signal)
        scheduler.schedule(after: scheduler.now.addingTimeInterval(0.5)) { input.sendNext(7) }
        scheduler.schedule(after: scheduler.now.addingTimeInterval(2)) { input.sendError(.first) }
        scheduler.run()
        XCTAssertEqual(recording.events, [.next(0.5, 7), .error(2, .first)])
        XCTAssertEqual(recording.values, [7])
        XCTAssertEqual(recording.events.map(\.description), ["next(7) at 0.5 s", "error(first) at 2.0 s"])
    }

    func testRecording_fromEveryThreadSubscribesAtOnce() {
        // A recording made anywhere has subscribed by the time `record` returns: nothing waits
        // for a background scheduler (Swift Testing, for one, runs tests off the main thread).
        let scheduler = TestScheduler()
        let signal = scheduler.createColdSignal("-a|", values: values, error: TestError.first)
        let recordings = Recorder<SignalRecording<Int, TestError>>()
        let subscribedAtOnce = Recorder<Bool>()
        let recordHere: @Sendable () -> Void = {
            let recording = scheduler.record(signal)
            subscribedAtOnce.record(signal.subscriptions.count == recordings.values.count + 1)
            recordings.record(recording)
        }
        recordHere()
        onAPlainThread(recordHere)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            recordHere()
            done.signal()
        }
        XCTAssertTrue(done.waitForSignal())
        QueueScheduler(name: "marbles").schedule {
            recordHere()
            done.signal()
        }
        XCTAssertTrue(done.waitForSignal())
        scheduler.schedule(recordHere)
        scheduler.step()
        XCTAssertEqual(subscribedAtOnce.values, [true, true, true, true, true])
        scheduler.run()
        for recording in recordings.values {
            XCTAssertEqual(recording.events, [.next(1, 1), .completed(2)])
        }
        XCTAssertEqual(signal.subscriptions, Array(repeating: .init(subscribed: 0, disposed: 2), count: 5))
    }

    func testRecording_rendersUnknownValuesAndEventsBetweenFramesVisibly() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recording = scheduler.record(signal)
        scheduler.schedule(after: scheduler.now.addingTimeInterval(1)) { input.sendNext(1) }
        scheduler.schedule(after: scheduler.now.addingTimeInterval(2)) { input.sendNext(9) }
        scheduler.schedule(after: scheduler.now.addingTimeInterval(3.5)) { input.sendNext(2) }
        scheduler.schedule(after: scheduler.now.addingTimeInterval(5)) { input.sendCompleted() }
        scheduler.run()
        XCTAssertEqual(recording.marbles(values: values), "-a?!-|")
        XCTAssertEqual(recording.marbles(values: values, frame: 0.5), "--a-?--b--|")
        XCTAssertEqual(recording.marbles(frame: 0.5) { Character(String($0)) }, "--1-9--2--|")
        XCTAssertEqual(recording.marbles { Character(String($0)) }, "-19!-|")
    }

    func testRecording_groupsEventsOfTheSameFrameAndPicksTheSmallestOfSeveralSymbols() {
        let scheduler = TestScheduler()
        let recording = scheduler.record(TestSource([1, 2, 2]).signal)
        XCTAssertEqual(recording.marbles(values: ["b": 2, "a": 1, "x": 2]), "(abb|)")
        XCTAssertEqual(recording.events, [.next(0, 1), .next(0, 2), .next(0, 2), .completed(0)])
    }

    func testRecording_aUsersOwnSignalInMarbles() {
        // The README's example: a search field's text, throttled.
        let scheduler = TestScheduler()
        let typed = scheduler.createColdSignal("ab-c-----d|", values: ["a": "r", "b": "re", "c": "rea", "d": "react"])
        let recording = scheduler.record(typed.throttle(2, on: scheduler))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "-----c----(d|)", values: ["c": "rea", "d": "react"]))
        XCTAssertEqual(recording.events, [.next(5, "rea"), .next(10, "react"), .completed(10)])
        // Frame 9 is as wide as its widest cell, so that the frames after it line up.
        XCTAssertEqual(recording.mismatch(expected: "-----c---(d|)", values: ["c": "rea", "d": "react"])?.description, """
            expected: -----c---(d|)
              actual: -----c----   (d|)
            expected events: next(rea) at 5.0 s, next(react) at 9.0 s, completed at 9.0 s
              actual events: next(rea) at 5.0 s, next(react) at 10.0 s, completed at 10.0 s
            """)
    }

    // MARK: - Mismatches

    func testMismatch_printsBothDiagramsLinedUpAndBothEventLists() throws {
        let scheduler = TestScheduler()
        let recording = scheduler.record(scheduler.createColdSignal("-a--b|", values: values))
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "-a--b|", values: values))
        let mismatch = try XCTUnwrap(recording.mismatch(expected: "-a-b|", values: values))
        XCTAssertEqual(mismatch.expected, "-a-b|")
        XCTAssertEqual(mismatch.actual, "-a--b|")
        XCTAssertEqual(mismatch.description, """
            expected: -a-b|
              actual: -a--b|
            expected events: next(1) at 1.0 s, next(2) at 3.0 s, completed at 4.0 s
              actual events: next(1) at 1.0 s, next(2) at 4.0 s, completed at 5.0 s
            """)
    }

    func testMismatch_padsGroupsSoThatFramesLineUp() throws {
        let scheduler = TestScheduler()
        let recording = scheduler.record(scheduler.createColdSignal("-(ab)-c|", values: values))
        scheduler.run()
        let mismatch = try XCTUnwrap(recording.mismatch(expected: "-a-(cd)|", values: values))
        XCTAssertEqual(mismatch.expected, "-a   -(cd)|")
        XCTAssertEqual(mismatch.actual, "-(ab)-c   |")
    }

    func testMismatch_catchesWhatTheDiagramsCannotShow() {
        let scheduler = TestScheduler()
        let failing: SignalRecording<Int, TestError> = scheduler.record(scheduler.createColdSignal("-#", error: TestError.second))
        let late = scheduler.record(scheduler.createColdSignal("-a", values: values, frame: 1.5))
        scheduler.run()
        let wrongError = failing.mismatch(expected: "-#", error: TestError.first)
        XCTAssertEqual(wrongError?.expected, wrongError?.actual, "both draw '#'")
        XCTAssertEqual(wrongError?.description.contains("error(first) at 1.0 s"), true)
        XCTAssertEqual(wrongError?.description.contains("error(second) at 1.0 s"), true)
        XCTAssertEqual(late.mismatch(expected: "-a", values: values)?.actual, "-!")
        XCTAssertNil(late.mismatch(expected: "-a", values: values, frame: 1.5))
        XCTAssertNotNil(late.mismatch(expected: "-", values: values, frame: 1.5))
        XCTAssertNotNil(late.mismatch(expected: "-aa", values: values, frame: 1.5))
    }

    func testMismatch_nothingRecordedAgainstSomethingExpected() throws {
        let scheduler = TestScheduler()
        let recording = scheduler.record(Signal<Int, Never>.never)
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: "---"))
        let mismatch = try XCTUnwrap(recording.mismatch(expected: "--a", values: values))
        XCTAssertEqual(mismatch.actual, "")
        XCTAssertTrue(mismatch.description.hasSuffix("  actual events: none"))
        recording.dispose()
    }

    // MARK: - Helpers

    private func marks(_ diagram: String) -> [Marbles.Mark] {
        Marbles(diagram).marks
    }

    private func mark(_ frame: Int, _ symbol: Character) -> Marbles.Mark {
        Marbles.Mark(frame: frame, symbol: symbol)
    }
}
