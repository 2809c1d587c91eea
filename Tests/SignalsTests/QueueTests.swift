@testable import Signals
import TestSupport
import XCTest

final class QueueTests: LeakCheckedTestCase {
    func testQueue_firstInFirstOutAcrossWrapsAndGrowth() {
        var queue = Queue<Int>()
        var expected: [Int] = []
        var next = 0
        // Interleave appends and pops so the head wraps around the ring before and after it grows.
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 3) {
                queue.append(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<(round % 5 + 1) {
                XCTAssertEqual(queue.popFirst(), expected.removeFirst())
            }
            XCTAssertEqual(queue.count, expected.count)
        }
        while let value = queue.popFirst() {
            XCTAssertEqual(value, expected.removeFirst())
        }
        XCTAssertTrue(expected.isEmpty)
        XCTAssertTrue(queue.isEmpty)
        XCTAssertNil(queue.popFirst())
    }

    func testQueue_removeAllEmptiesIt() {
        var queue = Queue<String>()
        for word in ["a", "b", "c"] { queue.append(word) }
        queue.removeAll()
        XCTAssertTrue(queue.isEmpty)
        XCTAssertEqual(queue.count, 0)
        XCTAssertNil(queue.popFirst())
        queue.append("d")
        XCTAssertEqual(queue.popFirst(), "d")
    }
}
