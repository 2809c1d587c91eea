import Disposables
import Sequences
import TestSupport
import XCTest

/// `LazyList.compactMap(_:)` and `ignoreNil()`, attacked as the hostile review of the app-layer
/// operators attacked `Signal.compactMap`: a long run of skipped elements on a small stack, and
/// laziness on an endless list.
final class CompactMapReviewTests: LeakCheckedTestCase {
    func testLazyListCompactMap_overAMillionSkippedElements_doesNotRecurse() {
        // One element kept after a long run of skipped ones: the walk is a loop, so a small stack
        // does for it.
        let skipped = BuildKind.isSanitized || BuildKind.isDebug ? 200_000 : 1_000_000
        let result = Lock<[Int]>([])
        onAPlainThread(stackSize: BuildKind.smallStack(256 * 1024)) {
            let list = LazyList(0...).compactMap { $0 >= skipped ? $0 : nil }
            result.withLock { $0 = list.take(2).array }
        }
        XCTAssertEqual(result.withLock { $0 }, [skipped, skipped + 1])
    }

    func testLazyListCompactMap_staysLazy_theTransformRunsOnlyForWhatIsPulled() {
        let calls = Counter()
        let list = LazyList(1...).compactMap { value -> Int? in
            calls.increment()
            return value.isMultiple(of: 2) ? value : nil
        }
        XCTAssertEqual(calls.value, 0, "making the list transforms nothing")
        XCTAssertEqual(list.take(2).array, [2, 4])
        XCTAssertLessThanOrEqual(calls.value, 5, "only up to the element after the last kept one")
        let ignored = LazyList<Int?>([nil, 1, nil, 2]).ignoreNil()
        XCTAssertEqual(ignored.array, [1, 2])
    }
}
