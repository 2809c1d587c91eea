import Sequences
import TestSupport
import XCTest

/// A list used as a queue: take the head, `concat` one element onto the rest. Each `concat` onto
/// the rest of a partly walked `concat` copied the lists still to come (twice), so n takes and
/// pushes cost n² (1,000 took 0.1 s, 4,000 took 1.6 s, 20,000 over a minute). Each now costs a
/// constant time, amortized: a hundred thousand of them finish at once, in order.
final class ConcatQueueTests: LeakCheckedTestCase {
    #if DEBUG
    // Debug builds (which the sanitizer runs are) are some ten times slower; quadratic work at a
    // tenth of the size still takes minutes.
    let size = 20_000
    #else
    let size = 100_000
    #endif

    /// The elements taken from a queue of `0..<size` to which `size..<2 size` are pushed, one per
    /// element taken, by `push(rest, value)`.
    private func takeAndPush(
        _ size: Int,
        _ push: (_ rest: LazyList<Int>, _ value: Int) -> LazyList<Int>
    ) -> (taken: [Int], left: [Int]) {
        var queue = LazyList.concat((0..<size).map { LazyList.return($0) })
        var taken: [Int] = []
        taken.reserveCapacity(size)
        for value in size..<(2 * size) {
            taken.append(queue.head!)
            queue = push(queue, value)
        }
        return (taken, queue.array)
    }

    func testTailConcat_takesAndPushesInOrder_inLinearTime() {
        let size = size
        let result = withWatchdog(seconds: 30, "\(size) takes and pushes of a lazy-list queue") {
            takeAndPush(size) { queue, value in queue.tail.concat(.return(value)) }
        }
        XCTAssertEqual(result.taken, Array(0..<size))
        XCTAssertEqual(result.left, Array(size..<(2 * size)))
    }

    /// `concat` onto a node already evaluated (its head read), then `tail`.
    func testConcatThenTail_takesAndPushesInOrder_inLinearTime() {
        let size = size
        let result = withWatchdog(seconds: 30, "\(size) takes and pushes, concat before tail") {
            takeAndPush(size) { queue, value in queue.concat(.return(value)).tail }
        }
        XCTAssertEqual(result.taken, Array(0..<size))
        XCTAssertEqual(result.left, Array(size..<(2 * size)))
    }

    /// The static `concat` of the rest and the new element.
    func testStaticConcat_takesAndPushesInOrder_inLinearTime() {
        let size = size
        let result = withWatchdog(seconds: 30, "\(size) takes and pushes through LazyList.concat([rest, new])") {
            takeAndPush(size) { queue, value in LazyList.concat([queue.tail, .return(value)]) }
        }
        XCTAssertEqual(result.taken, Array(0..<size))
        XCTAssertEqual(result.left, Array(size..<(2 * size)))
    }

    /// Four times the takes and pushes take about four times as long, not sixteen.
    func testTakesAndPushes_growLinearly() {
        let growth = timeGrowth(quadrupling: size / 4) { count in
            secondsTaken { _ = takeAndPush(count) { queue, value in queue.tail.concat(.return(value)) } }
        }
        XCTAssertLessThan(growth.ratio, 9, growth.description)
    }

    /// An old version of the queue still gives its own elements: versions share what they can,
    /// and change nothing another holds.
    func testOldVersions_keepTheirElements() {
        var queue = LazyList.concat((0..<5).map { LazyList.return($0) })
        var versions: [LazyList<Int>] = [queue]
        for value in 5..<10 {
            _ = queue.head
            queue = queue.tail.concat(.return(value))
            versions.append(queue)
        }
        for (index, version) in versions.enumerated() {
            XCTAssertEqual(version.array, Array(index..<(index + 5)))
            XCTAssertEqual(version.array, Array(index..<(index + 5)), "walked again")
        }
        XCTAssertEqual(versions[2].concat(.return(-1)).array, [2, 3, 4, 5, 6, -1])
        XCTAssertEqual(versions[2].array, [2, 3, 4, 5, 6])
    }

    /// Concats nested every way, with empty lists among them, give their elements in order.
    func testConcatsNestedEveryWay_giveTheirElementsInOrder() {
        let left = LazyList([1, 2]).concat(.empty).concat(LazyList([3]))
        let right = LazyList.return(4).concat(LazyList.empty.concat(LazyList([5, 6])))
        let both = LazyList.concat([LazyList.empty, left, .empty, right.concat(left), .empty])
        XCTAssertEqual(both.array, [1, 2, 3, 4, 5, 6, 1, 2, 3])
        let walked = both.tail.tail
        XCTAssertEqual(walked.concat(both).array, [3, 4, 5, 6, 1, 2, 3, 1, 2, 3, 4, 5, 6, 1, 2, 3])
        XCTAssertEqual(LazyList.concat([walked, walked]).array, [3, 4, 5, 6, 1, 2, 3, 3, 4, 5, 6, 1, 2, 3])
        XCTAssertEqual(LazyList<Int>.concat([]).array, [])
        XCTAssertEqual(LazyList<Int>.concat([.empty, .empty]).array, [])
    }
}
