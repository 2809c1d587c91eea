import Disposables
import TestSupport
import XCTest

/// Disposables nested a million deep (each compound added to the one before, a chain of serial
/// disposables) are disposed and released in constant stack, on a thread with the 512 KiB stack of
/// Apple's secondary threads and Dispatch's workers, which nested calls overflow after a few
/// thousand levels; disposal keeps the order of nested calls.
///
/// Optimized builds use a million levels. Debug builds, which the sanitizer runs are, use a tenth:
/// their frames are larger, so a hundred thousand nested calls overflow the stack as surely.
final class DeepDisposalTests: LeakCheckedTestCase {
    #if DEBUG
    let depth = 100_000
    #else
    let depth = 1_000_000
    #endif

    func testCompound_nestedAMillionDeep_disposesEveryLevelInOrderThenReleasesIt() {
        let depth = depth
        let order = StepOrder()
        let levels = Recorder<WeakReference<CompoundDisposable>>()
        XCTAssertTrue(onAThread {
            // Level i: its block, a leaf, level i + 1, a leaf. Nested calls would run every
            // block and first leaf on the way down, then the last leaves on the way back up.
            let root = CompoundDisposable { order.arrive(0) }
            var parent = root
            for level in 0..<depth {
                parent.add(Disposable { order.arrive(2 * level + 1) })
                if level + 1 < depth {
                    let child = CompoundDisposable { order.arrive(2 * level + 2) }
                    if level.isMultiple(of: depth / 1_000) { levels.record(WeakReference(child)) }
                    parent.add(child)
                    parent.add(Disposable { order.arrive(3 * depth - 2 - level) })
                    parent = child
                }
            }
            root.dispose()
            XCTAssertTrue(parent.isDisposed)
        })
        XCTAssertEqual(order.inOrder, 3 * depth - 1)
        XCTAssertNil(order.miss)
        XCTAssertEqual(levels.values.count, 1_000)
        XCTAssertFalse(levels.values.contains { $0.isAlive })
    }

    func testCompound_nestedAMillionDeep_releasedUndisposed() {
        let depth = depth
        let ran = Counter()
        let token = Recorder<WeakReference<LifetimeToken>>()
        XCTAssertTrue(onAThread {
            var root: CompoundDisposable? = CompoundDisposable()
            var parent = root.unsafelyUnwrapped
            for _ in 1..<depth {
                let child = CompoundDisposable()
                parent.add(Disposable { ran.increment() })
                parent.add(child)
                parent = child
            }
            let deepest = LifetimeToken()
            token.record(WeakReference(deepest))
            parent.add(Disposable { _ = deepest })
            root = nil
        })
        XCTAssertEqual(token.values.map(\.isAlive), [false])
        XCTAssertEqual(ran.value, 0, "releasing is not disposing")
    }

    /// Builds a chain `depth` deep on a small-stack thread, each level made by `wrap` around the
    /// one before, the innermost a disposable that holds a token; disposes the outermost, and checks
    /// that the innermost ran once and that every level let go of what it held.
    private func assertDisposingAChainLetsGoOfEveryLevel<Level: Disposable>(
        _ wrap: @escaping @Sendable (Disposable) -> Level,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let depth = depth
        let ran = Counter()
        let token = Recorder<WeakReference<LifetimeToken>>()
        let middle = Recorder<WeakReference<Level>>()
        XCTAssertTrue(onAThread {
            let innermost = LifetimeToken()
            token.record(WeakReference(innermost))
            var chain = wrap(Disposable { ran.increment(); _ = innermost })
            for level in 1..<depth {
                chain = wrap(chain)
                if level == depth / 2 { middle.record(WeakReference(chain)) }
            }
            XCTAssertEqual(middle.values.map(\.isAlive), [true], file: file, line: line)
            chain.dispose()
            // Disposing lets go of what each level held.
            XCTAssertEqual(middle.values.map(\.isAlive), [false], file: file, line: line)
            XCTAssertEqual(ran.value, 1, file: file, line: line)
        }, file: file, line: line)
        XCTAssertEqual(ran.value, 1, file: file, line: line)
        XCTAssertEqual(token.values.map(\.isAlive), [false], file: file, line: line)
        XCTAssertEqual(middle.values.map(\.isAlive), [false], file: file, line: line)
    }

    func testSerial_chainAMillionDeep_disposesTheInnermostAndLetsGoOfEveryLevel() {
        assertDisposingAChainLetsGoOfEveryLevel { SerialDisposable($0) }
    }

    /// Builds a chain `depth` deep on a small-stack thread, as above, and lets go of it; checks
    /// that the innermost disposable's token was freed, and returns how many times it ran.
    private func runsOfTheInnermostAfterReleasingAChain<Level: Disposable>(
        _ wrap: @escaping @Sendable (Disposable) -> Level,
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> Int {
        let depth = depth
        let ran = Counter()
        let token = Recorder<WeakReference<LifetimeToken>>()
        XCTAssertTrue(onAThread {
            let innermost = LifetimeToken()
            token.record(WeakReference(innermost))
            var chain: Level? = wrap(Disposable { ran.increment(); _ = innermost })
            for _ in 1..<depth { chain = wrap(chain.unsafelyUnwrapped) }
            chain = nil
        }, file: file, line: line)
        XCTAssertEqual(token.values.map(\.isAlive), [false], file: file, line: line)
        return ran.value
    }

    func testSerial_chainAMillionDeep_releasedUndisposed() {
        XCTAssertEqual(runsOfTheInnermostAfterReleasingAChain { SerialDisposable($0) }, 0)
    }

    func testCompound_chainedThroughDisposalActions_disposesEveryLevelInOrder() {
        // Level i's compound holds an action that disposes level i + 1's compound, then one more
        // leaf: the nesting runs through plain disposables, not from compound to compound.
        let depth = depth / 10
        let order = StepOrder()
        XCTAssertTrue(onAThread {
            var compounds = (0..<depth).map { level in CompoundDisposable { order.arrive(level) } }
            for level in 0..<depth - 1 {
                let next = compounds[level + 1]
                compounds[level].add(Disposable { next.dispose() })
                compounds[level].add(Disposable { order.arrive(2 * depth - 2 - level) })
            }
            let root = compounds[0]
            compounds = []
            root.dispose()
        })
        XCTAssertEqual(order.inOrder, 2 * depth - 1)
        XCTAssertNil(order.miss)
    }

    func testMixedChain_compoundsAndSerialsAlternating_disposedAndReleased() {
        let depth = depth
        let ran = Counter()
        let token = Recorder<WeakReference<LifetimeToken>>()
        XCTAssertTrue(onAThread {
            let innermost = LifetimeToken()
            token.record(WeakReference(innermost))
            var chain: Disposable = Disposable { ran.increment(); _ = innermost }
            for level in 0..<depth {
                chain = level.isMultiple(of: 2) ? SerialDisposable(chain) : CompoundDisposable([chain])
            }
            chain.dispose()
        })
        XCTAssertEqual(ran.value, 1)
        XCTAssertEqual(token.values.map(\.isAlive), [false])
    }

    func testScoped_chainAMillionDeep_disposedDisposesTheInnermostAndLetsGoOfEveryLevel() {
        // Each scoped disposable wraps the one before: disposing the outermost disposes them all.
        assertDisposingAChainLetsGoOfEveryLevel { ScopedDisposable($0) }
    }

    func testScoped_chainAMillionDeep_releasedDisposesTheInnermost() {
        // Releasing a scoped disposable disposes what it wraps, which releases the next one.
        XCTAssertEqual(runsOfTheInnermostAfterReleasingAChain { ScopedDisposable($0) }, 1)
    }
}
