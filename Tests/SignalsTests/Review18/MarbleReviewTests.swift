import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// A hostile review of marble testing: edge cases a user hits.
final class MarbleReviewTests: LeakCheckedTestCase {
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3]

    /// FAILED before the fix: `Marbles` documents that `Marbles(marbles.description) == marbles`,
    /// but a diagram whose last mark is more than one frame before `^` lost the gap:
    /// `Marbles("a-^").description` was `"a^"`, which parses to `a` at frame -1, not -2.
    func testMarbles_roundTripsAGapBeforeTheZeroMarker() {
        for text in ["a-^", "a--^", "#-^", "(ab)--^", "a|-^"] {
            let marbles = Marbles(text)
            XCTAssertEqual(marbles.description, text)
            XCTAssertEqual(Marbles(marbles.description), marbles, text)
        }
    }

    /// FAILED before the fix: with a test scheduler whose clock starts at a real date (`TestScheduler(startDate:
    /// Date())`) and a frame that is not a power of two, the recorded times carry the rounding of
    /// `Date` arithmetic at that magnitude (about 1e-7 s), far over the 1e-9-frame tolerance, so
    /// the rendering shows `!` and `mismatch` reports a diagram that matches.
    func testFractionalFrame_onAClockStartedAtARealDate() {
        let scheduler = TestScheduler(startDate: Date(timeIntervalSinceReferenceDate: 785_000_000.123))
        let source = scheduler.createColdSignal("a-b-c|", values: values, frame: 0.1)
        let recording = scheduler.record(source)
        scheduler.run()
        XCTAssertEqual(recording.marbles(values: values, frame: 0.1), "a-b-c|")
        XCTAssertNil(recording.mismatch(expected: "a-b-c|", values: values, frame: 0.1))
    }

    /// Holds: a tenth of a second on the default clock, over many frames.
    func testFractionalFrame_overManyFramesOnTheDefaultClock() {
        let scheduler = TestScheduler()
        let diagram = String(repeating: "-", count: 997) + "a|"
        let source = scheduler.createColdSignal(diagram, values: values, frame: 0.1)
        let recording = scheduler.record(source)
        scheduler.run()
        XCTAssertNil(recording.mismatch(expected: diagram, values: values, frame: 0.1))
        XCTAssertEqual(recording.marbles(values: values, frame: 0.1), diagram)
    }

    /// Holds: letters of any script are values, and composed and decomposed accents are one key.
    func testUnicodeLettersAreValues() {
        let table: [Character: Int] = ["é": 1, "日": 2, "٣": 3]
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("e\u{301}-日(٣|)", values: table, frame: 1)
        let recording = scheduler.record(source)
        scheduler.run()
        XCTAssertEqual(recording.events, [.next(0, 1), .next(2, 2), .next(3, 3), .completed(3)])
        XCTAssertEqual(recording.marbles(values: table), "é-日(٣|)")
        XCTAssertThrowsError(try Marbles(parsing: "-👍|")) { error in
            XCTAssertEqual((error as? MarbleSyntaxError)?.offset, 1)
        }
    }

    /// Holds: a terminal inside a group may end it, but nothing else follows.
    func testGroupsWithATerminalInTheMiddle() {
        XCTAssertThrowsError(try Marbles(parsing: "(a|b)"))
        XCTAssertThrowsError(try Marbles(parsing: "(|a)"))
        XCTAssertThrowsError(try Marbles(parsing: "(a|)(b)"))
        XCTAssertThrowsError(try Marbles(parsing: "(a|)()"))
        XCTAssertNoThrow(try Marbles(parsing: "(a|)--"))
    }

    /// FAILED before the docs were fixed: the `Marbles` docs said "Nothing may follow `|` or `#`
    /// but `-`", yet `^` after the end is accepted, and is meant to be (a hot signal that ended
    /// before frame zero, which ``createHotSignal`` documents); the docs now say so.
    func testZeroMarkerAfterTheEnd_isAHotSignalThatHasEnded() throws {
        XCTAssertEqual(try Marbles(parsing: "a|-^").marks, [.init(frame: -3, symbol: "a"), .init(frame: -2, symbol: "|")])
        XCTAssertThrowsError(try Marbles(parsing: "a|^b"))
        let scheduler = TestScheduler()
        let hot = scheduler.createHotSignal("a|-^", values: values)
        let recording = scheduler.record(hot)
        XCTAssertEqual(recording.events, [.completed(0)])
    }

    /// Holds: a huge diagram parses, plays and renders in linear time.
    func testHugeDiagram() {
        let diagram = String(repeating: "a-", count: 20_000) + "|"
        let scheduler = TestScheduler()
        let recording = scheduler.record(scheduler.createColdSignal(diagram, values: values))
        scheduler.run()
        XCTAssertEqual(recording.values.count, 20_000)
        XCTAssertNil(recording.mismatch(expected: diagram, values: values))
    }

    /// Holds: a hot signal subscribed after its diagram ended gets the end at once, and its log
    /// shows the subscription.
    func testHotSignalSubscribedAfterItEnded() {
        let scheduler = TestScheduler()
        let hot = scheduler.createHotSignal("-a-|", values: values)
        scheduler.run()
        let recording = scheduler.record(hot)
        scheduler.run()
        XCTAssertEqual(recording.events, [.completed(0)])
        XCTAssertEqual(hot.subscriptions.count, 1)
        XCTAssertEqual(hot.subscriptions.first?.subscribed, 3)
    }

    /// Holds as documented for what it is, but silently wrong: a recording made with a different
    /// test scheduler than the signal's stamps every event with that scheduler's frozen clock.
    func testRecordFromAnotherTestScheduler_stampsWithTheRecordersClock() {
        let signalClock = TestScheduler()
        let otherClock = TestScheduler()
        let recording = otherClock.record(signalClock.createColdSignal("-a-b|", values: values))
        signalClock.run()
        XCTAssertEqual(recording.events, [.next(0, 1), .next(0, 2), .completed(0)])
    }

    /// Holds: a failed comparison with groups lines the columns up.
    func testMismatchLinesUpGroups() {
        let scheduler = TestScheduler()
        let recording = scheduler.record(scheduler.createColdSignal("a-b-c|", values: values))
        scheduler.run()
        let mismatch = recording.mismatch(expected: "(ab)-c|", values: values)
        XCTAssertEqual(mismatch?.expected, "(ab)-c|")
        XCTAssertEqual(mismatch?.actual, "a   -b-c|")
        let lines = mismatch?.description.split(separator: "\n").prefix(2).map(String.init) ?? []
        XCTAssertEqual(lines, ["expected: (ab)-c|", "  actual: a   -b-c|"])
    }

    /// FAILED as first written, with a plain `subscribeNext` in place of the
    /// `performAsCurrentScheduler` below (3 runs out of 3): off the main thread (a Swift Testing
    /// test, a plain thread) a created signal subscribes later, on the subscription scheduler, so
    /// `run()` just after found nothing scheduled and no value ever came. The docs of
    /// `createColdSignal` and `createHotSignal` now say to subscribe under the test scheduler;
    /// this is that way.
    func testColdSignal_subscribedOffTheMainThreadUnderTheTestScheduler() {
        let seen = Recorder<Int>()
        let values = values
        onAPlainThread {
            let scheduler = TestScheduler()
            let source = scheduler.createColdSignal("a-b|", values: values)
            var subscription: Disposable?
            scheduler.performAsCurrentScheduler {
                subscription = source.map { $0 * 10 }.subscribeNext { seen.record($0) }
            }
            scheduler.run()
            subscription?.dispose()
        }
        XCTAssertEqual(seen.values, [10, 20])
    }
}
