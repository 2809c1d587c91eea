import Sequences
import TestSupport
import Tuples
import XCTest

/// `LazyList` itself: its constructors, head and tail, emptiness, equality, traversal and folds,
/// as RAC 2.5's `RACSequenceSpec` and `RACSequenceExamples` describe them.
final class LazyListTests: LeakCheckedTestCase {
    // MARK: - Construction, head and tail

    func testReturnAndEmpty() {
        XCTAssertEqual(LazyList.return(1).array, [1])
        XCTAssertEqual(LazyList.return(1).head, 1)
        XCTAssertTrue(LazyList.return(1).tail.isEmpty)
        XCTAssertEqual(LazyList<Int>.empty.array, [])
        XCTAssertNil(LazyList<Int>.empty.head)
        XCTAssertTrue(LazyList<Int>.empty.isEmpty)
        XCTAssertTrue(LazyList<Int>.empty.tail.isEmpty, "the tail of the end is the end")
    }

    func testHeadTail_usesTheValuesOfTheBlocks() {
        let list = LazyList(head: { 0 }, tail: { .return(1) })
        XCTAssertEqual(list.head, 0)
        XCTAssertEqual(list.tail.head, 1)
        XCTAssertTrue(list.tail.tail.isEmpty)
        XCTAssertEqual(list.array, [0, 1])
    }

    func testHeadTail_invokesEachBlockLazilyAndOnce() {
        let heads = Counter()
        let tails = Counter()
        let list = LazyList(head: { heads.increment(); return 0 }, tail: { tails.increment(); return .return(1) })
        XCTAssertEqual(heads.value, 0)
        XCTAssertEqual(tails.value, 0)
        XCTAssertFalse(list.isEmpty, "a head/tail list is not empty, and says so without running a block")
        XCTAssertEqual(heads.value, 0)

        XCTAssertEqual(list.head, 0)
        XCTAssertEqual(heads.value, 1)
        XCTAssertEqual(tails.value, 0, "the head alone runs only the head block")

        _ = list.tail
        XCTAssertEqual(tails.value, 1, "reading the tail runs the tail block")
        XCTAssertEqual(list.array, [0, 1])
        XCTAssertEqual(list.array, [0, 1])
        XCTAssertEqual(heads.value, 1)
        XCTAssertEqual(tails.value, 1, "each block runs once, however often the list is walked")
    }

    func testHeadTail_tailAloneDoesNotRunTheHeadBlock() {
        let heads = Counter()
        let list = LazyList(head: { heads.increment(); return 0 }, tail: { .return(1) })
        XCTAssertEqual(list.tail.head, 1)
        XCTAssertEqual(heads.value, 0)
    }

    func testTail_isTheListTheTailBlockReturned() {
        let rest = LazyList([1, 2])
        let list = LazyList(head: { 0 }, tail: { rest })
        XCTAssertTrue(list.tail === rest)
    }

    func testDependency_runsOnceBeforeHeadAndTail() {
        let dependencies = Counter()
        let list = LazyList(
            dependency: { dependencies.increment(); return 10 },
            head: { (value: Int) -> Int? in value + 1 },
            tail: { value in LazyList.return(value + 2) }
        )
        XCTAssertEqual(dependencies.value, 0)
        XCTAssertEqual(list.tail.head, 12)
        XCTAssertEqual(list.head, 11)
        XCTAssertEqual(dependencies.value, 1)
        XCTAssertEqual(list.array, [11, 12])
    }

    func testDependency_aNilHeadIsTheEndAndTheTailBlockDoesNotRun() {
        let tails = Counter()
        let list = LazyList(
            dependency: { 0 },
            head: { (_: Int) -> Int? in nil },
            tail: { _ in tails.increment(); return LazyList.return(1) }
        )
        XCTAssertTrue(list.isEmpty)
        XCTAssertTrue(list.tail.isEmpty)
        XCTAssertEqual(list.array, [])
        XCTAssertEqual(tails.value, 0)
    }

    func testOptionals_nilElementsAreElementsAndOnlyIsEmptyMarksTheEnd() {
        let list = LazyList<Int?>([nil, 1, nil])
        XCTAssertFalse(list.isEmpty)
        XCTAssertEqual(list.head, .some(nil))
        XCTAssertEqual(list.array, [nil, 1, nil])
        XCTAssertEqual(list.count(where: { $0 == nil }), 2)
        XCTAssertEqual(LazyList<Int?>.return(nil).array, [nil])
        let headTail = LazyList<Int?>(head: { nil }, tail: { .return(nil) })
        XCTAssertEqual(headTail.array, [nil, nil])
        XCTAssertEqual(list.map { $0 ?? -1 }.array, [-1, 1, -1])
        XCTAssertEqual(list.filter { $0 == nil }.array, [nil, nil])
        XCTAssertEqual(list.signal(on: .immediate).toArray(), [nil, 1, nil])
    }

    // MARK: - Equality, hashing, description

    func testEquality_elementByElement() {
        let values = [0, 1, 2]
        let list = LazyList(values)
        XCTAssertEqual(list, list)
        var built = LazyList<Int>.empty
        for value in values { built = built.concat(.return(value)) }
        XCTAssertEqual(list, built)
        XCTAssertEqual(list.hashValue, built.hashValue)
        XCTAssertNotEqual(list, LazyList.return(-1))
        XCTAssertNotEqual(list, LazyList([0, 1]))
        XCTAssertNotEqual(LazyList([0, 1]), list)
        XCTAssertEqual(LazyList<Int>.empty, LazyList([]))
        XCTAssertEqual(Set([list, built, LazyList([5])]).count, 2)
    }

    func testDescription_showsOnlyWhatIsEvaluated() {
        let list = LazyList([1, 2, 3])
        XCTAssertEqual(list.description, "LazyList(…)")
        _ = list.tail.head
        XCTAssertEqual(list.description, "LazyList(1, 2, …)")
        _ = list.array
        XCTAssertEqual(list.description, "LazyList(1, 2, 3)")
        XCTAssertEqual(LazyList<Int>.empty.description, "LazyList()")
    }

    // MARK: - Traversal

    func testForIn_andArray() {
        var collected: [Int] = []
        for value in LazyList([3, 1, 2]) { collected.append(value) }
        XCTAssertEqual(collected, [3, 1, 2])
        XCTAssertEqual(LazyList([3, 1, 2]).array, [3, 1, 2])
        XCTAssertEqual(Array(LazyList(1...4)), [1, 2, 3, 4])
    }

    func testIterator_evaluatesOnlyAsItGoes() {
        let first = Counter()
        let second = Counter()
        let third = Counter()
        let list = LazyList(head: { first.increment(); return 1 }, tail: {
            LazyList(head: { second.increment(); return 2 }, tail: {
                LazyList(head: { third.increment(); return 3 }, tail: { .empty })
            })
        })
        var iterator = list.makeIterator()
        XCTAssertEqual([first.value, second.value, third.value], [0, 0, 0])
        XCTAssertEqual(iterator.next(), 1)
        XCTAssertEqual([first.value, second.value, third.value], [1, 0, 0])
        XCTAssertEqual(iterator.next(), 2)
        XCTAssertEqual([first.value, second.value, third.value], [1, 1, 0])
        XCTAssertEqual(iterator.next(), 3)
        XCTAssertEqual([first.value, second.value, third.value], [1, 1, 1])
        XCTAssertNil(iterator.next())
        XCTAssertNil(iterator.next(), "still nil after the end")
    }

    func testIterator_holdsOnlyTheNodeItStandsOn() {
        var iterator: LazyList<Int>.Iterator
        let firstNode: WeakReference<LazyList<Int>>
        let secondNode: WeakReference<LazyList<Int>>
        do {
            let third = LazyList(head: { 3 }, tail: { .empty })
            let second = LazyList(head: { 2 }, tail: { third })
            let first = LazyList(head: { 1 }, tail: { second })
            firstNode = WeakReference(first)
            secondNode = WeakReference(second)
            iterator = first.makeIterator()
        }
        XCTAssertEqual(iterator.next(), 1)
        XCTAssertFalse(firstNode.isAlive, "the first node is let go once passed")
        XCTAssertTrue(secondNode.isAlive)
        XCTAssertEqual(iterator.next(), 2)
        XCTAssertFalse(secondNode.isAlive)
        XCTAssertEqual(iterator.next(), 3)
        XCTAssertNil(iterator.next())
    }

    // MARK: - Folds and searches

    func testFoldLeft_startsWithStartAndIsLeftAssociative() {
        let list = LazyList.return(1).concat(.return(2)).concat(.return(3))
        XCTAssertEqual(list.foldLeft(3) { first, _ in first }, 3)
        XCTAssertEqual(list.foldLeft(0) { $0 - $1 }, -6)
        XCTAssertEqual(LazyList<Int>.empty.foldLeft(7, +), 7)
        XCTAssertEqual(list.foldLeft(LazyList<Int>.empty) { $0.concat(.return($1)) }.array, [1, 2, 3])
    }

    func testFoldRight_isLazyEndsWithStartAndIsRightAssociative() {
        let heads = Counter()
        let tails = Counter()
        let lazy = LazyList(head: { heads.increment(); return 0 }, tail: { tails.increment(); return .return(1) })
        XCTAssertEqual(lazy.foldRight(2) { first, _ in first }, 0)
        XCTAssertEqual(heads.value, 1)
        XCTAssertEqual(tails.value, 0, "a right fold that does not look at the rest does not evaluate it")

        let list = LazyList.return(1).concat(.return(2)).concat(.return(3))
        XCTAssertEqual(list.foldRight(0) { first, rest in first - rest.head! }, 2)
        XCTAssertEqual(list.foldRight(3) { _, rest in rest.head! }, 3)
        XCTAssertEqual(LazyList<Int>.empty.foldRight(9) { _, _ in 0 }, 9)
        let rebuilt = list.foldRight(LazyList<Int>.empty) { first, rest in rest.head!.startWith(first) }
        XCTAssertEqual(rebuilt.array, [1, 2, 3])
    }

    func testFoldRight_stopsEarlyOnAnInfiniteList() {
        let firstAboveTwo = LazyList(1...).foldRight(nil as Int?) { value, rest in value > 2 ? value : rest.head! }
        XCTAssertEqual(firstAboveTwo, 3)
    }

    func testAny_stopsAtTheFirstMatch() {
        let list = LazyList([0, 1, 2])
        XCTAssertTrue(list.any { $0 > 0 })
        XCTAssertFalse(list.any { $0 == 3 })
        let tested = Counter()
        XCTAssertTrue(LazyList(0...).any { tested.increment(); return $0 == 5 })
        XCTAssertEqual(tested.value, 6)
    }

    func testAll_foldsTheWholeListButStopsTestingAtTheFirstFailure() {
        let list = LazyList([0, 1, 2])
        XCTAssertTrue(list.all { $0 >= 0 })
        XCTAssertFalse(list.all { $0 < 2 })
        XCTAssertTrue(LazyList<Int>.empty.all { _ in false })
        let tested = Counter()
        let evaluated = Counter()
        let counted = LazyList([5, 0, 1, 2]).map { value -> Int in evaluated.increment(); return value }
        XCTAssertFalse(counted.all { tested.increment(); return $0 > 3 })
        XCTAssertEqual(tested.value, 2, "the test is not called after it failed")
        XCTAssertEqual(evaluated.value, 4, "but the whole list is walked, as in RAC 2.5")
    }

    func testFirstPassing() {
        let list = LazyList([0, 1, 2])
        XCTAssertEqual(list.first(passing: { $0 > 0 }), 1)
        XCTAssertNil(list.first(passing: { $0 < 0 }))
        XCTAssertEqual(LazyList(0...).first(passing: { $0 * $0 > 50 }), 8)
        var tested = 0
        XCTAssertEqual(list.first(passing: { tested += 1; return $0 > 0 }), 1)
        XCTAssertEqual(tested, 2, "a lazy list stops at the match")
        tested = 0
        XCTAssertEqual(list.eagerSequence.first(passing: { tested += 1; return $0 > 0 }), 1)
        XCTAssertEqual(tested, 3, "an eager list tests every element, as RAC's eager filter does")
        tested = 0
        XCTAssertTrue(list.eagerSequence.any { tested += 1; return $0 == 0 })
        XCTAssertEqual(tested, 3)
    }

    // MARK: - Eager and lazy

    func testEager_evaluatesEverythingAtOnce() {
        let heads = Counter()
        let tails = Counter()
        let lazy = LazyList(head: { heads.increment(); return 0 }, tail: { tails.increment(); return .return(1) })
        let eager = lazy.eagerSequence
        XCTAssertEqual(heads.value, 1)
        XCTAssertEqual(tails.value, 1)
        XCTAssertTrue(eager.isEager)
        XCTAssertFalse(lazy.isEager)
        XCTAssertEqual(eager.array, [0, 1])
        XCTAssertTrue(eager.eagerSequence === eager)
    }

    func testEagerAndLazy_asTheSeedsExampleShows() {
        let values = [1, 2, 3, 4, 5]
        let lazyCalls = Counter()
        let eagerCalls = Counter()
        let lazy = LazyList(values).map { _ in lazyCalls.increment(); return 101 }
        let eager = LazyList(values).eagerSequence.map { _ in eagerCalls.increment(); return 100 }
        XCTAssertEqual(eagerCalls.value, 5, "an eager list's map runs at once")
        XCTAssertEqual(lazyCalls.value, 0, "a lazy list's map waits")
        XCTAssertTrue(eager.isEager)
        XCTAssertEqual(lazy.array, Array(repeating: 101, count: 5))
        XCTAssertEqual(lazyCalls.value, 5)
        XCTAssertEqual(eager.array, Array(repeating: 100, count: 5))
        XCTAssertEqual(eagerCalls.value, 5)
    }

    func testEager_operatorsDerivedFromBindStayEager_zipStaysLazy() {
        let eager = LazyList([1, 2, 3]).eagerSequence
        let calls = Counter()
        let counted: @Sendable (Int) -> Bool = { _ in calls.increment(); return true }
        XCTAssertTrue(eager.filter(counted).isEager)
        XCTAssertEqual(calls.value, 3)
        XCTAssertTrue(eager.concat(LazyList([4])).isEager)
        XCTAssertTrue(eager.flattenMap { LazyList.return($0) }.isEager)
        XCTAssertTrue(eager.take(2).isEager)
        XCTAssertTrue(eager.skip(1).isEager)
        XCTAssertTrue(eager.scan(0, +).isEager)
        XCTAssertTrue(eager.startWith(0).isEager)
        XCTAssertFalse(eager.zip(with: eager).isEager)
        XCTAssertEqual(eager.map { $0 * 2 }.array, [2, 4, 6])
    }

    func testLazy_ofAnEagerListWaitsAgain() {
        let eager = LazyList([1, 2, 3]).eagerSequence
        let lazy = eager.lazySequence
        XCTAssertFalse(lazy.isEager)
        let calls = Counter()
        let mapped = lazy.map { value -> Int in calls.increment(); return value }
        XCTAssertEqual(calls.value, 0)
        XCTAssertEqual(mapped.array, [1, 2, 3])
        let plain = LazyList([1])
        XCTAssertTrue(plain.lazySequence === plain)
    }

    func testEagerFoldRight_computesItsRestAtOnce() {
        let calls = Counter()
        _ = LazyList([1, 2, 3]).eagerSequence.foldRight(0) { value, _ in calls.increment(); return value }
        XCTAssertEqual(calls.value, 3)
        calls.decrement(); calls.decrement(); calls.decrement()
        _ = LazyList([1, 2, 3]).foldRight(0) { value, _ in calls.increment(); return value }
        XCTAssertEqual(calls.value, 1)
    }

    // MARK: - Collections

    func testCollectionBridges() {
        XCTAssertEqual([1, 2, 3].lazyList.array, [1, 2, 3])
        XCTAssertEqual("héllo".lazyList.array, ["h", "é", "l", "l", "o"])
        XCTAssertEqual((1..<4).lazyList.array, [1, 2, 3])
        XCTAssertEqual((1...3).lazyList.array, [1, 2, 3])
        XCTAssertEqual((1...).lazyList.take(3).array, [1, 2, 3])
        let set: Set = [3, 1, 2]
        XCTAssertEqual(set.lazyList.array, Array(set))
        let dictionary = ["a": 1, "b": 2, "c": 3]
        XCTAssertEqual(dictionary.lazyList.map { "\($0.key)\($0.value)" }.array, dictionary.map { "\($0.key)\($0.value)" })
        XCTAssertEqual(dictionary.keys.lazyList.array, Array(dictionary.keys))
        XCTAssertEqual(dictionary.values.lazyList.array, Array(dictionary.values))
        let tuple = Tuple(1, nil, "three")
        let members = tuple.lazyList.array
        XCTAssertEqual(members.count, 3)
        XCTAssertEqual(members[0] as? Int, 1)
        XCTAssertNil(members[1])
        XCTAssertEqual(members[2] as? String, "three")
    }

    func testCollectionBridge_takesASnapshot() {
        var values = [1, 2, 3]
        let list = LazyList(values)
        values.append(4)
        XCTAssertEqual(list.array, [1, 2, 3])
        var dictionary = ["a": 1]
        let pairs = dictionary.lazyList
        dictionary["b"] = 2
        XCTAssertEqual(pairs.array.count, 1)
    }

    func testIteratorBridge_pullsEachElementOnceAndMemoises() {
        let pulls = Counter()
        var source = [1, 2, 3].makeIterator()
        let iterator = AnyIterator { () -> Int? in
            pulls.increment()
            return source.next()
        }
        let list = LazyList(iterator: iterator)
        XCTAssertEqual(pulls.value, 0)
        XCTAssertEqual(list.head, 1)
        XCTAssertEqual(pulls.value, 1)
        XCTAssertEqual(list.array, [1, 2, 3])
        XCTAssertEqual(list.array, [1, 2, 3])
        XCTAssertEqual(pulls.value, 4, "three elements and the end, each pulled once")
    }

    func testIteratorBridge_lazyListOnAnyIterator() {
        struct Countdown: IteratorProtocol {
            var remaining: Int
            mutating func next() -> Int? {
                guard remaining > 0 else { return nil }
                defer { remaining -= 1 }
                return remaining
            }
        }
        XCTAssertEqual(Countdown(remaining: 3).lazyList.array, [3, 2, 1])
        XCTAssertEqual([1, 2].makeIterator().lazyList.array, [1, 2], "an iterator that is also a sequence")
        var source = [4, 5].makeIterator()
        XCTAssertEqual(AnyIterator { source.next() }.lazyList.array, [4, 5])
    }

    func testInfiniteList_generatedByItsTailBlock() {
        // RAC's spec makes an infinite list whose tail is itself; a memoised tail that is the node
        // itself would be a reference cycle, so here each tail is a new node.
        @Sendable func ones() -> LazyList<Int> { LazyList(head: { 1 }, tail: { ones() }) }
        XCTAssertEqual(ones().take(5).array, [1, 1, 1, 1, 1])
        XCTAssertEqual(ones().map { $0 * 2 }.skip(100).take(2).array, [2, 2])
    }
}
