import Dispatch
import Foundation
import Schedulers
import Sequences
import Signals
import Synchronization
import TestSupport
import XCTest

/// Defects found by a hostile review of `Sequences`, one test each, named after what broke.
final class HostileReviewTests: XCTestCase {
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
}
