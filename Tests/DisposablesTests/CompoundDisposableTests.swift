import Disposables
import TestSupport
import XCTest

final class CompoundDisposableTests: LeakCheckedTestCase {
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

    func testDispose_blockRunsFirstAlsoWhenChildrenWereRemoved() {
        let log = Recorder<String>()
        let compound = CompoundDisposable { log.record("compound") }
        let first = Disposable { log.record("a") }
        compound.add(first)
        compound.add(Disposable { log.record("b") })
        compound.remove(first)
        compound.add(Disposable { log.record("c") })
        compound.dispose()
        XCTAssertEqual(log.values, ["compound", "b", "c"])
    }

    func testDispose_followsInsertionOrderWhenAnInlineChildWasRemoved() {
        // The first two children are kept inline: a child added after one of them was removed
        // still comes after every older child.
        for removed in ["a", "b"] {
            let log = Recorder<String>()
            let compound = CompoundDisposable()
            let children = Dictionary(uniqueKeysWithValues: ["a", "b", "c", "d"].map { name in
                (name, Disposable { log.record(name) })
            })
            compound.add(children["a"])
            compound.add(children["b"])
            compound.remove(children[removed])
            compound.add(children["c"])
            compound.add(children["d"])
            compound.dispose()
            XCTAssertEqual(log.values, ["a", "b", "c", "d"].filter { $0 != removed }, "removed \(removed)")
        }
    }

    func testDispose_followsInsertionOrderWhenInlineChildrenWereRemovedBesideTheArray() {
        let log = Recorder<String>()
        let compound = CompoundDisposable()
        let children = (0..<8).map { index in Disposable { log.record("\(index)") } }
        children[0..<4].forEach(compound.add)
        compound.remove(children[0])
        compound.remove(children[2])
        compound.add(children[4])
        compound.remove(children[1])
        compound.add(children[5])
        compound.remove(children[3])
        compound.remove(children[4])
        compound.remove(children[5])
        // Empty now: the next children may use the inline slots again.
        compound.add(children[6])
        compound.add(children[7])
        compound.dispose()
        XCTAssertEqual(log.values, ["6", "7"])
    }

    func testDispose_followsInsertionOrderWhenArraySlotsWereFreed() {
        let log = Recorder<Int>()
        let compound = CompoundDisposable()
        let children = (0..<10).map { index in Disposable { log.record(index) } }
        children[0..<6].forEach(compound.add)
        compound.remove(children[3])
        compound.remove(children[2])
        children[6..<10].forEach(compound.add)
        compound.dispose()
        XCTAssertEqual(log.values, [0, 1, 4, 5, 6, 7, 8, 9])
    }

    func testDispose_followsInsertionOrderAfterRandomAddsAndRemovals() {
        // Checked against a plain array: children come and go at random, some of them shared
        // with another compound (so this one finds their slot in its own table), and the
        // compound disposes those left in the order they were added.
        var generator = SplitMix(seed: 42)
        for round in 0..<40 {
            let log = Recorder<Int>()
            let compound = CompoundDisposable()
            let other = CompoundDisposable()
            var model: [Int] = []
            var children: [Int: Disposable] = [:]
            var next = 0
            for _ in 0..<Int.random(in: 1...400, using: &generator) {
                if model.isEmpty || Int.random(in: 0..<5, using: &generator) < 3 {
                    let index = next
                    next += 1
                    let child = Disposable { log.record(index) }
                    children[index] = child
                    if Int.random(in: 0..<4, using: &generator) == 0 { other.add(child) }
                    compound.add(child)
                    model.append(index)
                } else {
                    let position = Int.random(in: 0..<model.count, using: &generator)
                    let child = children[model.remove(at: position)]
                    // Another compound letting go of the child (and of its claim) first changes
                    // nothing here.
                    if Int.random(in: 0..<2, using: &generator) == 0 { other.remove(child) }
                    compound.remove(child)
                    compound.remove(Disposable())
                }
                XCTAssertEqual(compound.count, model.count)
            }
            compound.dispose()
            XCTAssertEqual(log.values, model, "round \(round)")
            // One failing round tells enough.
            if log.values != model { break }
        }
    }

    func testRemove_keepsStorageBoundedByTheChildrenHeld() {
        // A compound that keeps one child while many come and go, as a merge keeps its outer
        // subscription while inner ones end: the freed slots are reclaimed.
        let compound = CompoundDisposable()
        let kept = (0..<3).map { _ in Disposable() }
        kept.forEach(compound.add)
        for _ in 0..<10_000 {
            let child = Disposable()
            compound.add(child)
            compound.remove(child)
        }
        for _ in 0..<100 {
            let batch = (0..<50).map { _ in Disposable() }
            batch.forEach(compound.add)
            batch.reversed().forEach(compound.remove)
        }
        XCTAssertEqual(compound.count, 3)
        XCTAssertLessThanOrEqual(compound.storedSlots, 128)
        compound.dispose()
        XCTAssertTrue(kept.allSatisfy(\.isDisposed))
    }

    func testRemove_isConstantTimeInAnyOrder() {
        // Sixteen times the children: about 16 times as long when removal is O(1), 256 when it
        // is linear. The bound leaves room for caches (removing in a shuffled order, each removal
        // misses them once the children outgrow them, up to 4 times slower) and a busy machine.
        for order in ["insertion", "reversed", "shuffled"] {
            func removalSeconds(_ count: Int) -> Double {
                (0..<2).map { _ in
                    let compound = CompoundDisposable()
                    var children = (0..<count).map { _ in Disposable() }
                    children.forEach(compound.add)
                    switch order {
                    case "reversed": children.reverse()
                    case "shuffled":
                        var generator = SplitMix(seed: 3)
                        children.shuffle(using: &generator)
                    default: break
                    }
                    let seconds = secondsTaken {
                        for child in children { compound.remove(child) }
                    }
                    XCTAssertEqual(compound.count, 0)
                    return seconds
                }.min()!
            }
            _ = removalSeconds(1_000)
            let small = removalSeconds(4_000)
            let large = removalSeconds(64_000)
            XCTAssertLessThan(large / small, 128, "\(order): \(small) s, then \(large) s")
        }
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
