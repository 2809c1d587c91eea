import Disposables
import Foundation
import Signals
import Subjects
import TestSupport
import XCTest

/// The cell makes its channel the first time it is asked for: the channel starts with the value
/// current then, and follows every later write, whichever threads make the channel and write.
final class ObservableValueLazyChannelTests: LeakCheckedTestCase {
    func testAChannelMadeAfterWrites_startsWithTheCurrentValue_thenFollows() {
        let cell = ObservableValue(0)
        for value in 1...5 { cell.value = value }
        let recorder = cell.channel.record()
        cell.value = 6
        XCTAssertEqual(recorder.values, [5, 6])
        cell.channel.sendNext(7)
        XCTAssertEqual(cell.value, 7)
        XCTAssertEqual(recorder.values, [5, 6], "a value that came in through the channel is not sent back out")
    }

    func testTheChannelAskedForTwice_isTheSameChannel() {
        let cell = ObservableValue("a")
        let first = cell.channel
        let second = cell.channel
        XCTAssertTrue(first === second)
    }

    func testThreadsMakingTheChannelWhileAnotherWrites_allGetOneChannel_thatEndsOnTheFinalValue() {
        let rounds = BuildKind.raceRounds(optimized: 200, debug: 50, sanitized: 10)
        for _ in 0..<rounds {
            let cell = ObservableValue(0)
            let terminals = Recorder<ObjectIdentifier>()
            let boxes = (0..<3).map { _ in LastValue() }
            let makers = boxes.enumerated().map { index, box in
                startThread("maker \(index)") {
                    let terminal = cell.channel
                    terminals.record(ObjectIdentifier(terminal))
                    terminal.subscribe(next: { box.set($0) })
                }
            }
            let writer = startThread("writer") {
                for value in 1...100 { cell.value = value }
            }
            XCTAssertTrue(eventually { makers.allSatisfy { $0.isSet } && writer.isSet })
            XCTAssertEqual(Set(terminals.values).count, 1, "one channel")
            XCTAssertTrue(eventually { boxes.allSatisfy { $0.value == 100 } }, "every subscriber ends on the final value")
            cell.channel.sendNext(-1)
            XCTAssertEqual(cell.value, -1)
        }
    }

    func testTheCellGoing_completesAChannelMadeLate_andNeverMadeIsFine() {
        var cell: ObservableValue<Int>? = ObservableValue(1)
        let recorder = cell!.channel.record()
        cell = nil
        XCTAssertEqual(recorder.events.last.map { "\($0)" }, "completed")
        var unused: ObservableValue<Int>? = ObservableValue(1)
        unused!.value = 2
        unused = nil
        XCTAssertNil(unused)
    }
}

/// The last value a subscriber got, from any thread.
private final class LastValue: Sendable {
    private let last = Lock<Int?>(nil)

    var value: Int? { last.withLock { $0 } }

    func set(_ value: Int) { last.withLock { $0 = value } }
}
