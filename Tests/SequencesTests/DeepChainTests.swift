import Disposables
import Foundation
import Sequences
import TestSupport
import XCTest

/// Operators nested a hundred thousand deep are evaluated on a 512 KiB stack: past a few levels a
/// node is evaluated after the chain below it, in a loop. Evaluation recursed once per operator,
/// and the head of 100,000 nested `map`s crashed with SIGSEGV on an 8 MiB stack.
final class DeepChainTests: LeakCheckedTestCase {
    let stackSize = BuildKind.smallStack(512 * 1024)
    #if DEBUG
    // Debug builds (which the sanitizer runs are) evaluate some ten times slower, and each element
    // costs one evaluation per level. Their frames are larger too: ten thousand nested
    // evaluations overflow a 512 KiB stack as surely as a hundred thousand.
    let depth = 10_000
    #else
    let depth = 100_000
    #endif

    /// `nest` applied `depth` times to `base`, then `check` of the result, on a thread with a
    /// 512 KiB stack.
    private func deep<T, U: Sendable>(
        _ base: @autoclosure @escaping @Sendable () -> LazyList<T>,
        _ nest: @escaping @Sendable (LazyList<T>, Int) -> LazyList<T>,
        _ check: @escaping @Sendable (LazyList<T>) -> U
    ) -> U {
        let depth = depth
        let result = Lock<U?>(nil)
        withWatchdog(seconds: 60, "\(depth) nested operators") {
            onAPlainThread(stackSize: stackSize) {
                var list = base()
                for level in 0..<depth { list = nest(list, level) }
                let value = check(list)
                result.withLock { $0 = value }
            }
        }
        return result.withLock { $0 }!
    }

    func testNestedMaps() {
        XCTAssertEqual(deep(LazyList(0...), { list, _ in list.map { $0 + 1 } }, { $0.take(3).array }), [depth, depth + 1, depth + 2])
    }

    func testNestedFilters() {
        XCTAssertEqual(deep(LazyList(0...), { list, _ in list.filter { $0.isMultiple(of: 2) } }, { $0.take(3).array }), [0, 2, 4])
    }

    func testNestedSkips() {
        XCTAssertEqual(deep(LazyList(0...), { list, _ in list.skip(1) }, { $0.take(2).array }), [depth, depth + 1])
        XCTAssertEqual(deep(LazyList(0...), { list, _ in list.skip(while: { $0 < 10 }) }, { $0.head }), 10)
    }

    func testNestedTakes() {
        XCTAssertEqual(deep(LazyList(0...), { list, _ in list.take(5) }, { $0.array }), [0, 1, 2, 3, 4])
        XCTAssertEqual(deep(LazyList(0...), { list, _ in list.take(while: { $0 < 3 }) }, { $0.array }), [0, 1, 2])
    }

    func testNestedConcats() {
        XCTAssertEqual(deep(LazyList(0..<3), { list, _ in LazyList.empty.concat(list) }, { $0.array }), [0, 1, 2])
        XCTAssertEqual(
            deep(LazyList(0..<3), { list, level in list.concat(.return(level)).map { $0 } }, { $0.take(4).array }),
            [0, 1, 2, 0]
        )
    }

    func testNestedScans() {
        XCTAssertEqual(deep(LazyList(0...), { list, _ in list.scan(0) { _, element in element } }, { $0.take(3).array }), [0, 1, 2])
        XCTAssertEqual(deep(LazyList(0...), { list, _ in list.combinePrevious(0) { _, element in element } }, { $0.take(3).array }), [0, 1, 2])
    }

    func testNestedZips() {
        let ones = LazyList(repeatElement(1, count: 3))
        XCTAssertEqual(deep(LazyList(0...), { list, _ in list.zip(with: ones).map { $0 + $1 } }, { $0.array }), [depth, depth + 1, depth + 2])
        XCTAssertEqual(deep(LazyList(0...), { list, _ in LazyList.zip([list]).map { $0[0] } }, { $0.take(2).array }), [0, 1])
    }

    func testNestedBinds() {
        XCTAssertEqual(deep(LazyList(0...), { list, _ in list.flattenMap { LazyList.return($0) } }, { $0.take(3).array }), [0, 1, 2])
        XCTAssertEqual(
            deep(LazyList(0...), { list, _ in list.bind { { value, _ in LazyList.return(value) } } }, { $0.take(3).array }),
            [0, 1, 2]
        )
    }

    func testNestedDistinctUntilChanged() {
        XCTAssertEqual(deep(LazyList([1, 1, 2, 2, 3]), { list, _ in list.distinctUntilChanged() }, { $0.array }), [1, 2, 3])
    }

    /// Many different operators nested, walked to the end with a fold (each element passes every
    /// level: ten elements cost a million evaluations).
    func testMixedChain_walkedToTheEnd() {
        XCTAssertEqual(
            deep(LazyList(0..<10), { list, level in
                switch level % 4 {
                case 0: list.map { $0 + 1 }
                case 1: list.filter { _ in true }
                case 2: list.scan(0) { _, element in element }
                default: list.concat(.empty)
                }
            }, { $0.foldLeft(0, +) }),
            (0..<10).reduce(0) { $0 + $1 + depth / 4 }
        )
    }
}
