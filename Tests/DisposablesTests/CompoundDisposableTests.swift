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
        var generator = SplitMix64(seed: 42)
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
                XCTAssertEqual(compound.childCount, model.count)
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
        XCTAssertEqual(compound.childCount, 3)
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
                        var generator = SplitMix64(seed: 3)
                        children.shuffle(using: &generator)
                    default: break
                    }
                    let seconds = secondsTaken {
                        for child in children { compound.remove(child) }
                    }
                    XCTAssertEqual(compound.childCount, 0)
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
        var generator = SplitMix64(seed: 7)
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

    func testRemove_childAddedThreeTimes_fourRemovesLeaveItUndisposedAndLetGoOf() {
        // The first two go inline, the third into the slot array.
        weak var weakChild: Disposable?
        let compound = CompoundDisposable()
        let ran = Counter()
        do {
            let child = Disposable { ran.increment() }
            weakChild = child
            for _ in 0..<3 { compound.add(child) }
            XCTAssertEqual(compound.childCount, 3)
            for _ in 0..<4 { compound.remove(child) }
            XCTAssertEqual(compound.childCount, 0)
        }
        XCTAssertNil(weakChild, "the compound holds no occurrence of it")
        compound.dispose()
        XCTAssertEqual(ran.value, 0)
    }

    func testRemove_childAddedThreeTimesIntoTheSlotArray_oneRemoveTakesEveryOccurrence() {
        // Once with the child's slot recorded in itself (claimed by this compound), once with all
        // three slots in this compound's table (another compound holds the claim).
        for claimedElsewhere in [false, true] {
            weak var weakChild: Disposable?
            let compound = CompoundDisposable()
            let other = CompoundDisposable()
            let log = Recorder<String>()
            let filler = ["a", "b", "c"].map { name in Disposable { log.record(name) } }
            do {
                let child = Disposable { log.record("child") }
                weakChild = child
                if claimedElsewhere {
                    filler.forEach(other.add)
                    other.add(child)
                }
                compound.add(filler[0])
                compound.add(filler[1])
                compound.add(child)
                compound.add(filler[2])
                compound.add(child)
                compound.add(child)
                compound.remove(child)
                XCTAssertEqual(compound.childCount, 3)
                if claimedElsewhere { other.remove(child) }
            }
            XCTAssertNil(weakChild, "claimed elsewhere: \(claimedElsewhere)")
            compound.dispose()
            XCTAssertEqual(log.values, ["a", "b", "c"], "claimed elsewhere: \(claimedElsewhere)")
        }
    }

    func testRemove_childAddedTwiceRemovedOnce_isNeitherDisposedNorKept() {
        // Inline, and in the slot array behind two other children.
        for fillers in [0, 2] {
            weak var weakChild: Disposable?
            let compound = CompoundDisposable()
            let ran = Counter()
            for _ in 0..<fillers { compound.add(Disposable()) }
            do {
                let child = Disposable { ran.increment() }
                weakChild = child
                compound.add(child)
                compound.add(child)
                compound.remove(child)
            }
            XCTAssertNil(weakChild, "\(fillers) other children")
            XCTAssertEqual(compound.childCount, fillers)
            compound.dispose()
            XCTAssertEqual(ran.value, 0, "\(fillers) other children")
        }
    }

    func testRemove_afterAddingAgain_theChildIsHeldOnceMoreAndDisposedOnce() {
        let compound = CompoundDisposable()
        let log = Recorder<String>()
        let child = Disposable { log.record("child") }
        let others = ["a", "b", "c"].map { name in Disposable { log.record(name) } }
        compound.add(others[0])
        compound.add(child)
        compound.add(child)
        compound.remove(child)
        compound.add(others[1])
        compound.add(child)
        compound.add(others[2])
        compound.add(child)
        compound.dispose()
        // Disposed where it was first added among those left: after "b".
        XCTAssertEqual(log.values, ["a", "b", "child", "c"])
    }

    func testDispose_followsInsertionOrderAfterRandomDuplicateAddsAndRemovals() {
        // Checked against a plain array of occurrences: a child is added again and again, some
        // children are shared with another compound, and removing one takes out every occurrence.
        // Disposal disposes each child left once, where it first occurs.
        var generator = SplitMix64(seed: 7)
        for round in 0..<40 {
            let log = Recorder<Int>()
            let compound = CompoundDisposable()
            let other = CompoundDisposable()
            let children = (0..<24).map { index in Disposable { log.record(index) } }
            for child in children[..<12] { other.add(child) }
            var model: [Int] = []
            for _ in 0..<Int.random(in: 1...600, using: &generator) {
                let index = Int.random(in: 0..<children.count, using: &generator)
                if Int.random(in: 0..<10, using: &generator) == 0 {
                    // The other compound lets go of the child, or takes it again: its claim goes
                    // free, and the next add here may take it, ahead of slots added before.
                    if index.isMultiple(of: 2) { other.remove(children[index]) } else { other.add(children[index]) }
                } else if Int.random(in: 0..<3, using: &generator) < 2 {
                    compound.add(children[index])
                    model.append(index)
                } else {
                    compound.remove(children[index])
                    model.removeAll { $0 == index }
                }
                guard compound.childCount == model.count else {
                    return XCTFail("round \(round): \(compound.childCount) children held, \(model.count) expected")
                }
            }
            compound.dispose()
            var firstOccurrences: [Int] = []
            for index in model where !firstOccurrences.contains(index) { firstOccurrences.append(index) }
            XCTAssertEqual(log.values, firstOccurrences, "round \(round)")
            if log.values != firstOccurrences { break }
        }
    }

    func testAddRemove_eightThreadsAddingAndRemovingDuplicates_leaveWhatWasAddedLastDisposedOnce() {
        // Each thread adds and removes its own children, some of them several times over, and
        // adds a child that all share; one of them is claimed by another compound, so that its
        // slots go in this compound's table. What a thread added last stays, once per add since
        // its last removal; the shared child stays, once per add; each is disposed once.
        let threads = 8
        let perThread = 4
        for round in 0..<BuildKind.rounds(1_000, sanitized: 100) {
            let compound = CompoundDisposable()
            let other = CompoundDisposable()
            let runs = (0..<threads * perThread).map { _ in Counter() }
            let children = runs.map { runs in Disposable { runs.increment() } }
            for (index, child) in children.enumerated() where index % perThread == 0 { other.add(child) }
            let sharedRuns = Counter()
            let sharedChild = Disposable { sharedRuns.increment() }
            let expected = Recorder<(child: Int, occurrences: Int)>()
            race(threads: threads) { thread in
                var generator = SplitMix64(seed: UInt64(round * threads + thread))
                var occurrences = Array(repeating: 0, count: perThread)
                for _ in 0..<24 {
                    let own = Int.random(in: 0..<perThread, using: &generator)
                    if Int.random(in: 0..<3, using: &generator) < 2 {
                        compound.add(children[thread * perThread + own])
                        occurrences[own] += 1
                    } else {
                        compound.remove(children[thread * perThread + own])
                        occurrences[own] = 0
                    }
                    compound.add(sharedChild)
                }
                for own in 0..<perThread { expected.record((thread * perThread + own, occurrences[own])) }
            }
            let model = expected.values
            XCTAssertEqual(compound.childCount, model.map(\.occurrences).reduce(0, +) + threads * 24, "round \(round)")
            compound.dispose()
            let disposed = runs.map(\.value)
            let expectedRuns = model.sorted { $0.child < $1.child }.map { $0.occurrences > 0 ? 1 : 0 }
            XCTAssertEqual(disposed, expectedRuns, "round \(round)")
            XCTAssertEqual(sharedRuns.value, 1, "round \(round)")
            if disposed != expectedRuns { break }
        }
    }
}
