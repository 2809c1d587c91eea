import Dispatch
import Sequences
import TestSupport
import XCTest

/// Memoisation shared between threads: each block runs once however many threads pull, and
/// every thread sees the same elements. Run under ThreadSanitizer and AddressSanitizer in CI.
final class MemoisationTests: LeakCheckedTestCase {
    func testEightThreadsPullingOneHeadTailList_runEachBlockOnce() {
        for _ in 0..<50 {
            let heads = Counter()
            let tails = Counter()
            let list = countedChain(length: 200, heads: heads, tails: tails)
            let seen = Recorder<[Int]>()
            race(threads: 8) { _ in seen.record(list.array) }
            XCTAssertEqual(seen.values, Array(repeating: Array(0..<200), count: 8))
            XCTAssertEqual(heads.value, 200, "each head block ran once")
            XCTAssertEqual(tails.value, 200, "each tail block ran once")
        }
    }

    func testEightThreadsPullingAnOperatorChain_runEachBlockOnce() {
        for _ in 0..<50 {
            let transformed = Counter()
            let tested = Counter()
            let list = LazyList(0..<300)
                .map { value -> Int in transformed.increment(); return value * 3 }
                .filter { tested.increment(); return $0.isMultiple(of: 2) }
                .flattenMap { LazyList([$0, $0 + 1]) }
                .concat(LazyList(iterator: (0..<10).makeIterator()))
                .scan(0, +)
            let expected = Array(LazyList(0..<300).map { $0 * 3 }.filter { $0.isMultiple(of: 2) }
                .flattenMap { LazyList([$0, $0 + 1]) }.concat(LazyList(0..<10)).scan(0, +))
            let seen = Recorder<[Int]>()
            race(threads: 8) { index in
                // Threads pull in different ways: walking, head by head, folding.
                switch index % 3 {
                case 0: seen.record(list.array)
                case 1:
                    var values: [Int] = []
                    var node = list
                    while let head = node.head, !node.isEmpty {
                        values.append(head)
                        node = node.tail
                    }
                    seen.record(values)
                default: seen.record(list.foldLeft([]) { $0 + [$1] })
                }
            }
            XCTAssertEqual(seen.values, Array(repeating: expected, count: 8))
            XCTAssertEqual(transformed.value, 300)
            XCTAssertEqual(tested.value, 300)
        }
    }

    func testTwoThreadsPullingTheSameHead_oneWaitsForTheOther() {
        for _ in 0..<100 {
            let runs = Counter()
            let list = LazyList(head: { () -> Int in
                runs.increment()
                Thread.sleep(forTimeInterval: 0.0005)   // widen the window: a second puller must wait, not run the block
                return 42
            }, tail: { .empty })
            let seen = Recorder<Int?>()
            race(threads: 2) { _ in seen.record(list.head) }
            XCTAssertEqual(seen.values, [42, 42])
            XCTAssertEqual(runs.value, 1)
        }
    }

    func testDependencyForm_sharedDependencyRunsOnceUnderRacingHeadAndTail() {
        for _ in 0..<200 {
            let dependencies = Counter()
            let list = LazyList(
                dependency: { dependencies.increment(); return 5 },
                head: { (value: Int) -> Int? in value },
                tail: { value in LazyList.return(value + 1) }
            )
            race(threads: 4) { index in
                if index.isMultiple(of: 2) { _ = list.head } else { _ = list.tail.head }
            }
            XCTAssertEqual(dependencies.value, 1)
            XCTAssertEqual(list.array, [5, 6])
        }
    }

    func testIteratorBackedList_pulledFromEightThreads_pullsTheIteratorOncePerElement() {
        for _ in 0..<50 {
            let pulls = Counter()
            var source = (0..<500).makeIterator()
            let list = LazyList(iterator: AnyIterator { () -> Int? in
                pulls.increment()
                return source.next()
            })
            let seen = Recorder<[Int]>()
            race(threads: 8) { _ in seen.record(list.array) }
            XCTAssertEqual(seen.values, Array(repeating: Array(0..<500), count: 8))
            XCTAssertEqual(pulls.value, 501)
        }
    }

    func testReleasingWhileOtherThreadsWalk_isSafe() {
        // Each thread walks its own reference to one list a different distance and drops it; the
        // last one out releases the evaluated chain (through Teardown), whatever thread that is.
        for _ in 0..<50 {
            let boxes = (0..<8).map { _ in ListBox(.empty) }
            do {
                let list = LazyList(0..<2_000).map { $0 + 1 }.filter { $0 > 10 }
                for box in boxes { box.replace(with: list) }
            }
            let sums = Recorder<[Int]>()
            race(threads: 8) { index in
                guard var node = boxes[index].list else { return }
                boxes[index].drop()
                var sum = 0
                var steps = 0
                while !node.isEmpty, steps < 200 * (index + 1) {
                    sum += node.head!
                    node = node.tail
                    steps += 1
                }
                sums.record([index, sum])
            }
            let expected = (0..<8).map { index in [index, (11...2_000).prefix(200 * (index + 1)).reduce(0, +)] }
            XCTAssertEqual(sums.values.sorted { $0[0] < $1[0] }, expected)
        }
    }
}

/// A list that one thread can let go of while others hold their own references.
final class ListBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: LazyList<Int>?

    init(_ list: LazyList<Int>) { stored = list }

    var list: LazyList<Int>? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func drop() {
        lock.lock()
        stored = nil
        lock.unlock()
    }

    func replace(with list: LazyList<Int>) {
        lock.lock()
        stored = list
        lock.unlock()
    }
}

/// A list of 0..<length made of head/tail nodes, counting each block run.
func countedChain(length: Int, heads: Counter, tails: Counter, from start: Int = 0) -> LazyList<Int> {
    LazyList(
        head: { heads.increment(); return start },
        tail: {
            tails.increment()
            return start + 1 < length ? countedChain(length: length, heads: heads, tails: tails, from: start + 1) : .empty
        }
    )
}
