import Dispatch
import Foundation
import Sequences
import TestSupport
import XCTest

/// Long lists never recurse per element: building, walking and releasing a million elements (a
/// range, a million `concat`s, a million prepended head/tail nodes), on a small stack and on a
/// background thread; and walking ten million generated elements keeps memory flat.
///
/// Optimized builds (the release run of CI) use those sizes. Debug builds, which the sanitizer
/// runs are, use a tenth: on a 256 KiB stack, a hundred thousand nested calls overflow as surely
/// as a million, and the memory bound scales with the size.
final class DeepListTests: LeakCheckedTestCase {
    /// A stack this small overflows after a few thousand nested calls, so recursion per element
    /// shows at once.
    let smallStack = 256 * 1024
    #if DEBUG
    let million = 100_000
    #else
    let million = 1_000_000
    #endif

    func testMillionElementList_buildWalkRelease() {
        let million = million
        onAPlainThread(stackSize: smallStack) {
            let list = LazyList(0..<million).map { $0 * 2 }.filter { $0.isMultiple(of: 4) }
            XCTAssertEqual(list.foldLeft(0, +), (0..<million).map { $0 * 2 }.filter { $0.isMultiple(of: 4) }.reduce(0, +))
            // `list` holds every evaluated node; releasing it here releases them in a loop.
        }
    }

    func testMillionLeftNestedConcats() {
        let million = million
        onAPlainThread(stackSize: smallStack) {
            var list = LazyList<Int>.empty
            for value in 0..<million { list = list.concat(.return(value)) }
            var count = 0
            var sum = 0
            for value in list {
                count += 1
                sum += value
            }
            XCTAssertEqual(count, million)
            XCTAssertEqual(sum, (0..<million).reduce(0, +))
        }
    }

    func testMillionRightNestedConcats_walkedAndReleasedUnevaluated() {
        let million = million
        onAPlainThread(stackSize: smallStack) {
            var list = LazyList<Int>.empty
            for value in (0..<million).reversed() { list = LazyList.return(value).concat(list) }
            XCTAssertEqual(list.take(3).array, [0, 1, 2])
            XCTAssertEqual(list.skip(million - 2).array, [million - 2, million - 1])
        }
        onAPlainThread(stackSize: smallStack) {
            var list = LazyList<Int>.empty
            for value in (0..<million).reversed() { list = LazyList.return(value).concat(list) }
            _ = list   // released without being evaluated
        }
    }

    func testMillionPrependedHeadTailNodes_buildWalkRelease() {
        let million = million
        onAPlainThread(stackSize: smallStack) {
            var list = LazyList<Int>.empty
            for value in (0..<million).reversed() {
                let rest = list
                list = LazyList(head: { value }, tail: { rest })
            }
            XCTAssertEqual(list.foldLeft(0, +), (0..<million).reduce(0, +))
        }
    }

    func testMillionPrependedHeadTailNodes_releasedUnevaluated() {
        let million = million
        onAPlainThread(stackSize: smallStack) {
            var list = LazyList<Int>.empty
            for value in 0..<million {
                let rest = list
                list = LazyList(head: { value }, tail: { rest })
            }
            _ = list.head   // released with nearly every tail block still unevaluated
        }
    }

    func testMillionStartWiths() {
        let million = million
        onAPlainThread(stackSize: smallStack) {
            var list = LazyList<Int>.empty
            for value in 0..<million { list = list.startWith(value) }
            XCTAssertEqual(list.head, million - 1)
        }
    }

    func testMillionElementList_releasedOnABackgroundThread() {
        let million = million
        let list = LazyList(0..<million).map { $0 + 1 }
        XCTAssertEqual(list.foldLeft(0, +), (1...million).reduce(0, +))
        let box = ListBox(list)
        let released = expectation(description: "released")
        let watcher = WeakReference(list)
        _ = consume list
        Thread.detachNewThread { [box] in
            // A background thread's stack is smaller than the main thread's.
            box.drop()
            released.fulfill()
        }
        wait(for: [released], timeout: 30)
        XCTAssertFalse(watcher.isAlive)
    }

    func testLongRunsSkippedByFilterAndBind_loopInsteadOfRecursing() {
        let million = million
        onAPlainThread(stackSize: smallStack) {
            XCTAssertEqual(LazyList(0...).filter { $0 >= million }.head, million)
            XCTAssertEqual(LazyList(0..<million).flattenMap { $0 == million - 1 ? LazyList.return($0) : .empty }.array, [million - 1])
            XCTAssertEqual(LazyList(0...).skip(million).head, million)
            XCTAssertEqual(LazyList(0...).skip(while: { $0 < million }).head, million)
            XCTAssertEqual(LazyList(repeatElement(1, count: million)).concat(.return(2)).distinctUntilChanged().array, [1, 2])
        }
    }

    func testListNothingReferences_isReleasedAtOnce() {
        let live = Counter()
        do {
            let list = LazyList(0..<1_000).map { _ in Tracked(live) }
            _ = list.array
            XCTAssertEqual(live.value, 1_000)
        }
        XCTAssertEqual(live.value, 0)
        do {
            _ = LazyList(0...).map { _ in Tracked(live) }.take(10).array
        }
        XCTAssertEqual(live.value, 0, "the evaluated part of an infinite list goes too")
    }

    func testIteratingAMillionTrackedElements_holdsOnlyWhereItStands() {
        let live = Counter()
        var highest = 0
        var count = 0
        for element in LazyList(0..<million).map({ _ in Tracked(live) }) {
            count += 1
            _ = element
            if count.isMultiple(of: 1_000) { highest = max(highest, live.value) }
        }
        XCTAssertEqual(count, million)
        XCTAssertLessThanOrEqual(highest, 4, "only the elements around the iterator are alive")
        XCTAssertEqual(live.value, 0)
    }

    func testIteratingTenMillionGeneratedElements_keepsMemoryFlat() {
        // Under a sanitizer, a fifth of it: the elements alive are counted all the same.
        let count = BuildKind.rounds(10 * million, sanitized: 2 * million)
        #if DEBUG
        // The sanitizer runs are debug builds, and a sanitizer keeps freed memory aside, so the
        // resident size says nothing there: count the elements alive instead.
        let live = Counter()
        var highest = 0
        var seen = 0
        for element in generated(from: 0, below: count).map({ _ in Tracked(live) }) {
            _ = element
            seen += 1
            if seen.isMultiple(of: 10_000) { highest = max(highest, live.value) }
        }
        XCTAssertEqual(seen, count)
        XCTAssertLessThanOrEqual(highest, 4)
        #else
        let before = residentKilobytes()
        var sum = 0
        for value in generated(from: 0, below: count) { sum &+= value }
        XCTAssertEqual(sum, (0..<count).reduce(0, &+))
        let growth = residentKilobytes() - before
        // Kept, the nodes would take more than 50 bytes each: 500 MB for ten million.
        XCTAssertLessThan(growth, count / 100, "resident memory grew by \(growth) KiB")
        #endif
    }

    /// A head/tail list of `value..<end`, each tail made when asked for.
    func generated(from value: Int, below end: Int) -> LazyList<Int> {
        generatedList(from: value, below: end)
    }
}

@Sendable func generatedList(from value: Int, below end: Int) -> LazyList<Int> {
    value < end ? LazyList(head: { value }, tail: { generatedList(from: value + 1, below: end) }) : .empty
}

/// Counts the instances alive.
final class Tracked: Sendable {
    let live: Counter

    init(_ live: Counter) {
        self.live = live
        live.increment()
    }

    deinit { live.decrement() }
}

/// The resident set size of this process now, in KiB (Linux: /proc/self/statm).
func residentKilobytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}
