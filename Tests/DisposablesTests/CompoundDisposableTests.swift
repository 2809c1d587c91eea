import Disposables
import TestSupport
import XCTest

final class CompoundDisposableTests: XCTestCase {
    func testDispose_runsItsBlockFirstThenEveryChildInOrder() {
        // RAC 2.5's `+disposableWithBlock:` makes the block the compound's first child.
        let log = Recorder<String>()
        let compound = CompoundDisposable { log.record("compound") }
        for name in ["a", "b", "c", "d"] {
            compound.add(Disposable { log.record(name) })
        }
        compound.dispose()
        compound.dispose()
        XCTAssertEqual(log.values, ["compound", "a", "b", "c", "d"])
        XCTAssertTrue(compound.isDisposed)
    }

    func testInitSequence_holdsTheGivenDisposables() {
        let children = [Disposable(), Disposable(), Disposable()]
        let compound = CompoundDisposable(children)
        compound.dispose()
        XCTAssertTrue(children.allSatisfy(\.isDisposed))
    }

    func testAdd_nilAndDisposedAreIgnored() {
        let compound = CompoundDisposable()
        compound.add(nil)
        let disposed = Disposable()
        disposed.dispose()
        compound.add(disposed)
        compound.dispose()
        XCTAssertTrue(compound.isDisposed)
    }

    func testAdd_toADisposedCompoundDisposesTheChildAtOnce() {
        let compound = CompoundDisposable()
        compound.dispose()
        let late = Disposable()
        compound.add(late)
        XCTAssertTrue(late.isDisposed)
    }

    func testRemove_doesNotDisposeAndKeepsItOutOfDisposal() {
        let compound = CompoundDisposable()
        let children = (0..<6).map { _ in Disposable() }
        children.forEach(compound.add)
        compound.remove(children[0])
        compound.remove(children[4])
        XCTAssertFalse(children[0].isDisposed)
        compound.dispose()
        XCTAssertEqual(children.map(\.isDisposed), [false, true, true, true, false, true])
    }

    func testRemove_absentChildDoesNothing() {
        let compound = CompoundDisposable()
        let child = Disposable()
        compound.add(child)
        compound.remove(Disposable())
        compound.remove(nil)
        compound.remove(child)
        compound.remove(child)
        compound.dispose()
        XCTAssertFalse(child.isDisposed)
    }

    func testRemove_neverAddedChildLeavesSlotChildrenAlone() {
        let compound = CompoundDisposable()
        let children = (0..<5).map { _ in Disposable() }
        children.forEach(compound.add)
        compound.remove(Disposable())
        compound.dispose()
        XCTAssertTrue(children.allSatisfy(\.isDisposed))
    }

    func testRemove_inAnyOrderThenReuseSlots() {
        let compound = CompoundDisposable()
        var children = (0..<100).map { _ in Disposable() }
        children.forEach(compound.add)
        var generator = SplitMix(seed: 7)
        children.shuffle(using: &generator)
        let removed = children.prefix(60)
        removed.forEach(compound.remove)
        let added = (0..<30).map { _ in Disposable() }
        added.forEach(compound.add)
        compound.dispose()
        XCTAssertTrue(removed.allSatisfy { !$0.isDisposed })
        XCTAssertTrue(children.suffix(40).allSatisfy(\.isDisposed))
        XCTAssertTrue(added.allSatisfy(\.isDisposed))
    }

    func testRemove_childInTwoCompoundsLeavesTheOtherIntact() {
        let first = CompoundDisposable()
        let second = CompoundDisposable()
        (0..<3).forEach { _ in first.add(Disposable()); second.add(Disposable()) }
        let shared = Disposable()
        first.add(shared)
        second.add(Disposable())
        second.add(shared)
        first.remove(shared)
        first.dispose()
        XCTAssertFalse(shared.isDisposed)
        second.dispose()
        XCTAssertTrue(shared.isDisposed)
    }

    func testDispose_childActionMayTouchTheCompound() {
        let compound = CompoundDisposable()
        let late = Disposable()
        compound.add(Disposable {
            compound.add(late)
            compound.remove(late)
            compound.dispose()
        })
        compound.add(Disposable())
        compound.add(Disposable())
        compound.dispose()
        XCTAssertTrue(late.isDisposed)
    }

    func testDispose_releasesEveryChild() {
        weak var weakChild: Disposable?
        weak var weakToken: LifetimeToken?
        let compound = CompoundDisposable()
        do {
            let token = LifetimeToken()
            weakToken = token
            let child = Disposable { _ = token }
            weakChild = child
            compound.add(Disposable())
            compound.add(Disposable())
            compound.add(child)
        }
        XCTAssertNotNil(weakChild)
        compound.dispose()
        XCTAssertNil(weakChild)
        XCTAssertNil(weakToken)
    }

    func testRemove_releasesTheChild() {
        weak var weakChild: Disposable?
        let compound = CompoundDisposable()
        do {
            let child = Disposable()
            weakChild = child
            compound.add(child)
            compound.remove(child)
        }
        XCTAssertNil(weakChild)
    }

    func testDispose_racingOnEightThreadsDisposesEachChildOnce() {
        for _ in 0..<20 {
            let runs = Counter()
            let compound = CompoundDisposable { runs.increment() }
            for _ in 0..<10 {
                compound.add(Disposable { runs.increment() })
            }
            race(threads: 8) { _ in compound.dispose() }
            XCTAssertEqual(runs.value, 11)
        }
    }

    func testAdd_racingWithDisposeDisposesEveryChildExactlyOnce() {
        for _ in 0..<20 {
            let runs = Counter()
            let compound = CompoundDisposable()
            race(threads: 8) { index in
                if index == 0 {
                    compound.dispose()
                } else {
                    for _ in 0..<200 {
                        compound.add(Disposable { runs.increment() })
                    }
                }
            }
            XCTAssertEqual(runs.value, 7 * 200)
        }
    }

    func testAddRemove_racingOnManyThreadsKeepsEveryChildAccountedFor() {
        let compound = CompoundDisposable()
        let kept = Counter()
        race(threads: 8) { _ in
            for step in 0..<500 {
                let child = Disposable { kept.increment() }
                compound.add(child)
                if step.isMultiple(of: 2) { compound.remove(child) }
            }
        }
        compound.dispose()
        XCTAssertEqual(kept.value, 8 * 250)
    }

    func testRemove_isConstantTimeWhenChildrenAlsoBelongToAnotherCompound() {
        // Each child is in two compounds: the first claims its slot, the second must still find
        // it in O(1).
        let growth = timeGrowth(quadrupling: 20_000) { count in
            let first = CompoundDisposable()
            let second = CompoundDisposable()
            let children = (0..<count).map { _ in Disposable() }
            for child in children {
                first.add(child)
                second.add(child)
            }
            let seconds = secondsTaken {
                for child in children { second.remove(child) }
                for child in children { first.remove(child) }
            }
            // Removed from both, the children are disposed by neither.
            second.dispose()
            first.dispose()
            XCTAssertFalse(children.contains(where: \.isDisposed))
            return seconds
        }
        XCTAssertLessThan(growth.ratio, 9, growth.description)
    }

    func testRemove_childInManyCompoundsLeavesEachWithTheRest() {
        let compounds = (0..<4).map { _ in CompoundDisposable() }
        let shared = (0..<5).map { _ in Disposable() }
        for compound in compounds {
            for child in shared { compound.add(child) }
        }
        compounds[1].remove(shared[3])
        compounds[0].remove(shared[3])
        compounds[2].remove(shared[4])
        compounds[0].dispose()
        XCTAssertEqual(shared.map(\.isDisposed), [true, true, true, false, true])
        compounds[1].remove(shared[4])
        compounds[3].remove(shared[3])
        for compound in compounds[1...] { compound.dispose() }
        XCTAssertTrue(shared.allSatisfy(\.isDisposed))
    }

    func testRemove_sameChildAddedTwiceIsRemovedOnceEachTime() {
        let compound = CompoundDisposable()
        let filler = (0..<3).map { _ in Disposable() }
        filler.forEach(compound.add)
        let child = Disposable()
        compound.add(child)
        compound.add(child)
        compound.remove(child)
        compound.remove(child)
        compound.dispose()
        XCTAssertFalse(child.isDisposed)
    }
}

/// A small seeded generator, so shuffles are the same every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
