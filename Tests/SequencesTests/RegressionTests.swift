import Disposables
import Dispatch
import Foundation
import Schedulers
import Sequences
import Signals
import Synchronization
import TestSupport
import XCTest

/// Defects found by a hostile review of `Sequences`, one test each, named after what broke.
final class RegressionTests: LeakCheckedTestCase {
    // MARK: - Teardown

    /// Release builds: `Teardown`'s queue was drained with `_ = frame.queued.removeLast()`, and the
    /// optimizer released the removed value inside the access to `queued`; a chain deeper than
    /// `maximumDepth` then queues from a deinit during that access: "Simultaneous accesses …,
    /// but modification requires exclusive access", a trap. (DeepListTests'
    /// `testMillionPrependedHeadTailNodes_releasedUnevaluated` traps the same way in release.)
    func testReleasingADeepUnevaluatedChain_doesNotTrapOnAnExclusivityConflictInTheTeardownQueue() {
        onAPlainThread(stackSize: 256 * 1024) {
            var list = LazyList<Int>.empty
            for value in 0..<20_000 {
                let rest = list
                list = LazyList(head: { value }, tail: { rest })
            }
            _ = list   // released unevaluated: 20,000 nested releases, most of them queued
        }
        onAPlainThread(stackSize: 256 * 1024) {
            var list = LazyList(0...)
            for _ in 0..<20_000 { list = list.map { $0 + 1 } }
            _ = list
        }
    }

    // MARK: - zip

    /// `LazyList.zip()` with no list was an endless list of `()` (its step never met an ended
    /// list), where RAC 2.5's `+zip:` of no streams, and `LazyList.zip([])`, are empty.
    func testZipOfNoLists_isEmptyNotAnEndlessListOfVoid() {
        let zipped: LazyList<()> = LazyList.zip()
        XCTAssertTrue(zipped.isEmpty)
        XCTAssertEqual(zipped.take(3).array.count, 0)
        XCTAssertTrue(LazyList<[Int]>.zip([LazyList<Int>]()).isEmpty)
    }

    // MARK: - Memory while a step walks a long run

    /// The most elements of a 20,000-element list of `Tracked` alive at once while `make`'s list
    /// is asked for its first element, which walks past all of them; nothing else holds the list.
    /// `probe` is to be called with each element the step passes.
    private func mostAliveWhileWalkingPast(
        _ make: (LazyList<Tracked>, @escaping @Sendable () -> Void) -> LazyList<Tracked>
    ) -> Int {
        let live = Counter()
        let most = Lock(0)
        let probe: @Sendable () -> Void = { most.withLock { $0 = max($0, live.value) } }
        do {
            _ = make(LazyList(0..<20_000).map { _ in Tracked(live) }, probe).isEmpty
        }
        XCTAssertEqual(live.value, 0)
        return most.withLock { $0 }
    }

    /// The step kept its input (the node it started from, and through it every node it passed)
    /// until it returned: the stage's input was copied into a local that stayed alive, and the
    /// step's parameter was not consumed. Filter's own documentation promises the opposite.
    func testFilterSkippingALongRun_letsGoOfTheNodesItPassed() {
        let most = mostAliveWhileWalkingPast { list, probe in list.filter { _ in probe(); return false } }
        XCTAssertLessThan(most, 100)
    }

    /// `skip(_:)` was a block capturing `self`: the block, held while it ran, kept every node it
    /// skipped.
    func testSkipCount_letsGoOfTheNodesItSkips() {
        let most = mostAliveWhileWalkingPast { list, probe in list.map { probe(); return $0 }.skip(19_999) }
        XCTAssertLessThan(most, 100)
    }

    /// `skip(while:)`: the same as `skip(_:)`.
    func testSkipWhile_letsGoOfTheNodesItSkips() {
        let most = mostAliveWhileWalkingPast { list, probe in list.skip(while: { _ in probe(); return true }) }
        XCTAssertLessThan(most, 100)
    }

    /// `distinctUntilChanged`: a block capturing its source kept a whole run of equivalent
    /// elements alive while it skipped it.
    func testDistinctUntilChanged_letsGoOfARunOfEquivalentElementsAsItSkipsIt() {
        let most = mostAliveWhileWalkingPast { list, probe in
            list.distinctUntilChanged(by: { _, _ in probe(); return true }).skip(1)
        }
        XCTAssertLessThan(most, 100)
    }

    /// `bind`/`flattenMap`/`flatten`: a block capturing the source kept every source node behind a
    /// long run of empty inner lists alive while it walked it.
    func testFlattenMapOverALongRunOfEmptyInnerLists_letsGoOfTheSourceNodesItPasses() {
        let most = mostAliveWhileWalkingPast { list, probe in
            list.flattenMap { _ -> LazyList<Tracked> in probe(); return .empty }
        }
        XCTAssertLessThan(most, 100)
    }

    // MARK: - Weak references

    /// `LazyList.deinit` released an evaluated chain by taking the tail out of each next node
    /// while that node was still alive, once `isKnownUniquelyReferenced` said only it held the node.
    /// That counts strong references only: a weak reference loaded on another thread meanwhile
    /// got the node back with `Known.tail` set and no tail, and reading `tail` crashed
    /// ("unsafelyUnwrapped of nil optional" in debug builds, a bad pointer dereference in release).
    func testWeakReferenceLoadedWhileTheListIsReleasedOnAnotherThread_findsTheNodeIntact() {
        final class Weak: @unchecked Sendable {
            weak var node: LazyList<Int>?
            init(_ node: LazyList<Int>) { self.node = node }
        }
        final class Holder: @unchecked Sendable {
            var list: LazyList<Int>?
        }
        for _ in 0..<100 {
            let holder = Holder()
            var weak: [Weak] = []
            do {
                let list = LazyList(0..<2_000)
                var node = list
                while !node.isEmpty {
                    weak.append(Weak(node))
                    node = node.tail
                }
                holder.list = list
            }
            let references = weak
            let tails = Counter()
            race(threads: 2) { index in
                if index == 0 {
                    holder.list = nil   // the only strong reference to the chain
                } else {
                    for reference in references.reversed() {
                        if let node = reference.node, node.tail.isEmpty || node.tail.head != nil { tails.increment() }
                    }
                }
            }
            XCTAssertTrue(references.allSatisfy { $0.node == nil })
        }
    }

    // MARK: - A block that reads its own node

    /// RAC 2.5 runs a dynamic sequence's head and tail blocks under `@synchronized(self)`, a
    /// recursive lock, so a tail block may read the head of its own sequence (the head block runs
    /// then, once). Both blocks ran under the node's `Mutex`, and the same read trapped:
    /// "Recursive call to lock Mutex", in debug and release builds. (A regression would end the
    /// test process, loudly.)
    func testTailBlockReadingItsOwnHead_givesTheHeadAsInRAC_insteadOfTrapping() {
        final class Box: @unchecked Sendable { var list: LazyList<Int>? }
        let box = Box()
        let heads = Counter()
        let list = LazyList(head: { heads.increment(); return 1 }, tail: { LazyList.return(box.list!.head! + 1) })
        box.list = list
        XCTAssertEqual(list.tail.head, 2)
        XCTAssertEqual(list.array, [1, 2])
        XCTAssertEqual(heads.value, 1, "the head block ran once, from inside the tail block")
        box.list = nil   // the tail block captured the list through the box: end the cycle

        let tails = Counter()
        let other = Box()
        let headReadingTail = LazyList(head: { other.list!.tail.isEmpty ? 0 : 1 }, tail: { tails.increment(); return LazyList.return(5) })
        other.list = headReadingTail
        XCTAssertEqual(headReadingTail.array, [1, 5])
        XCTAssertEqual(tails.value, 1)
        other.list = nil
    }
}
