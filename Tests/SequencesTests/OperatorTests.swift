import Sequences
import TestSupport
import Tuples
import XCTest

/// Every stream operator of `LazyList` against the same operation on a Swift `Array` (same
/// elements, same order), for several inputs; then laziness (building evaluates nothing, pulling
/// n elements evaluates what they need) and infinite lists.
final class OperatorTests: LeakCheckedTestCase {
    /// Inputs every operator is checked on: empty, one element, repeats, a longer run.
    let inputs: [[Int]] = [[], [7], [1, 1, 2, 3, 3, 3, 1], Array(0..<50), [5, 4, 3, 2, 1, 0]]

    func check<U: Equatable>(
        _ name: String,
        _ list: (LazyList<Int>) -> LazyList<U>,
        _ array: ([Int]) -> [U],
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        for input in inputs {
            XCTAssertEqual(list(LazyList(input)).array, array(input), "\(name) of \(input)", file: file, line: line)
            // The same through an iterator-backed list and an eager list.
            XCTAssertEqual(list(LazyList(iterator: input.makeIterator())).array, array(input), "\(name) of \(input), from an iterator", file: file, line: line)
            XCTAssertEqual(list(LazyList(input).eagerSequence).array, array(input), "\(name) of eager \(input)", file: file, line: line)
        }
    }

    func testMapAndFamily() {
        check("map", { $0.map { $0 * 3 } }, { $0.map { $0 * 3 } })
        check("mapReplace", { $0.mapReplace("x") }, { $0.map { _ in "x" } })
        check("reduceEach", { $0.map { ($0, $0 + 1) }.reduceEach { $0 * $1 } }, { $0.map { $0 * ($0 + 1) } })
    }

    func testFilterAndIgnore() {
        check("filter", { $0.filter { $0.isMultiple(of: 2) } }, { $0.filter { $0.isMultiple(of: 2) } })
        check("filter none", { $0.filter { _ in false } }, { _ in [] })
        check("ignore", { $0.ignore(1) }, { $0.filter { $0 != 1 } })
    }

    func testIgnoreNil() {
        check("ignoreNil", { $0.map { $0.isMultiple(of: 2) ? $0 : nil }.ignoreNil() }, { $0.filter { $0.isMultiple(of: 2) } })
        check("ignoreNil of all nil", { $0.map { _ -> Int? in nil }.ignoreNil() }, { _ in [] })
        // Eager in, eager out; lazy in, nothing evaluated until pulled.
        XCTAssertTrue(LazyList([1, nil]).eagerSequence.ignoreNil().isEager)
        let pulls = Counter()
        let list = LazyList(1...).map { value -> Int? in pulls.increment(); return value > 2 ? value : nil }.ignoreNil()
        XCTAssertEqual(pulls.value, 0)
        XCTAssertEqual(list.head, 3)
        XCTAssertEqual(pulls.value, 3)
    }

    func testCompactMap() {
        check("compactMap", { $0.compactMap { $0.isMultiple(of: 3) ? $0 * 10 : nil } }, { $0.compactMap { $0.isMultiple(of: 3) ? $0 * 10 : nil } })
        XCTAssertTrue(LazyList([1, 2]).eagerSequence.compactMap { $0 }.isEager)
        // Lazy on an endless list, where the standard library's compactMap would never return.
        let pulls = Counter()
        let list = LazyList(1...).compactMap { value -> Int? in pulls.increment(); return value.isMultiple(of: 3) ? value : nil }
        XCTAssertEqual(pulls.value, 0)
        XCTAssertEqual(list.take(2).array, [3, 6])
        XCTAssertEqual(pulls.value, 6)
    }

    func testLogic() {
        XCTAssertEqual(LazyList([true, false]).not().array, [false, true])
        XCTAssertEqual(LazyList([[true], [true, false], [false, false]]).and().array, [true, false, false])
        XCTAssertEqual(LazyList([[true], [true, false], [false, false]]).or().array, [true, true, false])
        XCTAssertEqual(LazyList([Tuple(true), Tuple(true, false)]).and().array, [true, false])
        XCTAssertEqual(LazyList([Tuple(false), Tuple(true, false)]).or().array, [false, true])
        // Lazy: an empty array (which stops the program) is not looked at until pulled.
        XCTAssertEqual(LazyList([[true], []]).and().take(1).array, [true])
    }

    func testBindFamily() {
        check("flattenMap", { $0.flattenMap { LazyList(repeatElement($0, count: $0 % 3)) } }, { $0.flatMap { repeatElement($0, count: $0 % 3) } })
        check("flattenMap to nil", { $0.flattenMap { $0 > 2 ? nil : LazyList.return($0) } }, { $0.filter { $0 <= 2 } })
        check("flatten", { $0.map { LazyList([$0, -$0]) }.flatten() }, { $0.flatMap { [$0, -$0] } })
        check("bind", { $0.bind { { value, _ in LazyList([value, value]) } } }, { $0.flatMap { [$0, $0] } })
        check("bind returning nil at 3", { $0.bind { { value, _ in value == 3 ? nil : .return(value) } } },
              { Array($0.prefix { $0 != 3 }) })
        check("bind stopping at 3", { $0.bind { { value, stop in
            if value == 3 { stop = true }
            return LazyList([value, value * 10])
        } } }, { input in
            var output: [Int] = []
            for value in input {
                output += [value, value * 10]
                if value == 3 { break }
            }
            return output
        })
    }

    func testBind_makeBindingRunsOncePerBind_andItsStateCarriesAcross() {
        let made = Counter()
        let list = LazyList([1, 2, 3, 4]).bind { () -> (Int, inout Bool) -> LazyList<Int>? in
            made.increment()
            var total = 0
            return { value, _ in
                total += value
                return .return(total)
            }
        }
        XCTAssertEqual(made.value, 1)
        XCTAssertEqual(list.array, [1, 3, 6, 10])
        XCTAssertEqual(list.array, [1, 3, 6, 10], "memoised: the stateful block is not run again")
    }

    func testConcatAndStartWith() {
        check("concat", { $0.concat(LazyList([100, 101])) }, { $0 + [100, 101] })
        check("concat onto", { LazyList([100]).concat($0) }, { [100] + $0 })
        check("concat empty", { $0.concat(.empty) }, { $0 })
        check("startWith", { $0.startWith(-1) }, { [-1] + $0 })
        check("Concat of a sequence", { LazyList.concat([$0, .empty, $0.map { $0 + 1 }]) }, { $0 + $0.map { $0 + 1 } })
        XCTAssertEqual(LazyList<Int>.concat([]).array, [])
        XCTAssertEqual(LazyList.concat((0..<5).map { LazyList.return($0) }).array, [0, 1, 2, 3, 4])
    }

    func testConcat_leftNestedAfterPartialEvaluation() {
        var list = LazyList<Int>.empty
        for value in 0..<100 {
            list = list.concat(.return(value))
            if value.isMultiple(of: 10) { _ = list.head }
        }
        XCTAssertEqual(list.array, Array(0..<100))
    }

    func testZip() {
        check("zip(with:)", { $0.zip(with: LazyList(["a", "b", "c"])).map { "\($0)\($1)" } }, { zip($0, ["a", "b", "c"]).map { "\($0)\($1)" } })
        check("static zip", { LazyList.zip($0, $0.skip(1), LazyList(0...)).map { $0 + $1 * 100 + $2 * 10_000 } },
              { input in zip(zip(input, input.dropFirst()), 0...).map { $0.0 + $0.1 * 100 + $1 * 10_000 } })
        check("zip of a sequence", { LazyList.zip([$0, $0.map { $0 * 2 }]).map { $0.reduce(0, +) } }, { $0.map { $0 * 3 } })
        XCTAssertEqual(LazyList<[Int]>.zip([LazyList<Int>]()).array, [])
        XCTAssertEqual(LazyList.zip([LazyList([1, 2])]).array, [[1], [2]])
    }

    func testSkipAndTake() {
        for count in [0, 1, 3, 100] {
            check("skip(\(count))", { $0.skip(count) }, { Array($0.dropFirst(count)) })
            check("take(\(count))", { $0.take(count) }, { Array($0.prefix(count)) })
        }
        check("take(while:)", { $0.take(while: { $0 < 3 }) }, { Array($0.prefix { $0 < 3 }) })
        check("take(untilTrue:)", { $0.take(untilTrue: { $0 >= 3 }) }, { Array($0.prefix { $0 < 3 }) })
        check("skip(while:)", { $0.skip(while: { $0 < 3 }) }, { Array($0.drop { $0 < 3 }) })
        check("skip(untilTrue:)", { $0.skip(untilTrue: { $0 >= 3 }) }, { Array($0.drop { $0 < 3 }) })
    }

    func testScanAndCombinePrevious() {
        check("scan", { $0.scan(10, +) }, { input in
            var running = 10
            return input.map { running += $0; return running }
        })
        check("scan withIndex", { $0.scan(0, withIndex: { $0 + $1 * $2 }) }, { input in
            var running = 0
            return input.enumerated().map { running += $1 * $0; return running }
        })
        check("scan(into:)", { $0.scan(into: 10) { $0 += $1 } }, { input in
            var running = 10
            return input.map { running += $0; return running }
        })
        check("combinePrevious", { $0.combinePrevious(100) { $1 - $0 } }, { input in
            zip([100] + input, input).map { $1 - $0 }
        })
    }

    func testScanInto_eachElementIsARunningValueOfItsOwn() {
        // Each element keeps its own running value, and so does each walk of the list.
        let list = LazyList([1, 2, 3]).scan(into: [Int]()) { running, element in running.append(element) }
        XCTAssertEqual(list.array, [[1], [1, 2], [1, 2, 3]])
        XCTAssertEqual(list.array, [[1], [1, 2], [1, 2, 3]])
        XCTAssertEqual(LazyList<Int>([]).scan(into: 0) { $0 += $1 }.array, [])
        // Lazy: nothing past what is read runs.
        let calls = Counter()
        let infinite = LazyList(1...).scan(into: 0) { running, element in calls.increment(); running += element }
        XCTAssertEqual(infinite.take(3).array, [1, 3, 6])
        XCTAssertEqual(calls.value, 3)
    }

    func testDistinctUntilChanged() {
        check("distinctUntilChanged", { $0.distinctUntilChanged() }, { input in
            input.enumerated().filter { $0.offset == 0 || input[$0.offset - 1] != $0.element }.map(\.element)
        })
        check("distinctUntilChanged(by:)", { $0.distinctUntilChanged(by: { $0 / 2 == $1 / 2 }) }, { input in
            var output: [Int] = []
            for value in input where output.last.map({ $0 / 2 != value / 2 }) ?? true { output.append(value) }
            return output
        })
        XCTAssertEqual(LazyList<Int?>([nil, nil, 1, nil]).distinctUntilChanged().array, [nil, 1, nil])
    }

    // MARK: - Laziness

    /// A list of 0, 1, 2, … whose every evaluated element counts.
    func counted(_ counter: Counter, from start: Int = 0) -> LazyList<Int> {
        countedList(counter, from: start)
    }

    func testBuildingAChainEvaluatesNothing() {
        let evaluated = Counter()
        let source = counted(evaluated)
        let called = Counter()
        let chain = source
            .map { value -> Int in called.increment(); return value + 1 }
            .filter { called.increment(); return $0.isMultiple(of: 2) }
            .flattenMap { value -> LazyList<Int> in called.increment(); return LazyList([value, value]) }
            .concat(source)
            .zip(with: source)
            .map { $0.0 }
            .skip(1)
            .take(10)
            .scan(0) { running, value in called.increment(); return running + value }
            .combinePrevious(0) { called.increment(); return $1 - $0 }
            .take(while: { _ in called.increment(); return true })
            .skip(while: { _ in called.increment(); return false })
            .distinctUntilChanged(by: { _, _ in called.increment(); return false })
            .startWith(0)
        XCTAssertEqual(evaluated.value, 0)
        XCTAssertEqual(called.value, 0)
        _ = chain.isEmpty
        XCTAssertEqual(called.value, 0, "the head startWith gave is known without evaluating the chain")
        XCTAssertEqual(chain.tail.head, 2)
        XCTAssertGreaterThan(called.value, 0)
    }

    func testPullingNElementsEvaluatesOnlyWhatTheyNeed() {
        let evaluated = Counter()
        let mapped = Counter()
        let list = counted(evaluated).map { value -> Int in mapped.increment(); return value * 2 }
        XCTAssertEqual(list.take(3).array, [0, 2, 4])
        XCTAssertEqual(evaluated.value, 3)
        XCTAssertEqual(mapped.value, 3)
        XCTAssertEqual(list.take(3).array, [0, 2, 4])
        XCTAssertEqual(mapped.value, 3, "memoised")

        let filterEvaluated = Counter()
        XCTAssertEqual(counted(filterEvaluated).filter { $0.isMultiple(of: 5) }.take(2).array, [0, 5])
        XCTAssertEqual(filterEvaluated.value, 6, "a filter pulls up to the element that passes, no further")
    }

    func testTake_doesNotNeedTheHeadAfterTheLastElement() {
        let heads = Counter()
        @Sendable func units() -> LazyList<Int> { LazyList(head: { heads.increment(); return 1 }, tail: { units() }) }
        XCTAssertEqual(units().take(1).array, [1])
        XCTAssertEqual(heads.value, 1)
        XCTAssertEqual(LazyList([1, 2]).take(0).array, [])
    }

    func testBind_evaluatesOnlyWhenTheResultIsPulled() {
        let heads = Counter()
        let original = LazyList(head: { heads.increment(); return 1 }, tail: { .empty })
        let bound = original.bind { { value, _ in LazyList.return(value) } }
        XCTAssertEqual(heads.value, 0)
        XCTAssertEqual(bound.head, 1)
        XCTAssertEqual(heads.value, 1)
    }

    func testZip_pullsBothListsOnlyAsFarAsNeeded() {
        let left = Counter()
        let right = Counter()
        XCTAssertEqual(counted(left).zip(with: counted(right, from: 10)).map { $0 + $1 }.take(2).array, [10, 12])
        XCTAssertEqual(left.value, 2)
        XCTAssertEqual(right.value, 2)
    }

    func testInfiniteLists() {
        let naturals = LazyList(0...)
        XCTAssertEqual(naturals.map { $0 * $0 }.filter { $0.isMultiple(of: 2) }.take(4).array, [0, 4, 16, 36])
        XCTAssertEqual(naturals.flattenMap { LazyList([$0, $0]) }.take(5).array, [0, 0, 1, 1, 2])
        XCTAssertEqual(naturals.zip(with: naturals.skip(1)).map { $0 * $1 }.take(3).array, [0, 2, 6])
        XCTAssertEqual(naturals.scan(0, +).take(5).array, [0, 1, 3, 6, 10])
        XCTAssertEqual(naturals.take(while: { $0 < 4 }).array, [0, 1, 2, 3])
        XCTAssertEqual(naturals.skip(untilTrue: { $0 > 1_000 }).take(2).array, [1_001, 1_002])
        XCTAssertEqual(naturals.concat(.return(-1)).take(3).array, [0, 1, 2])
        XCTAssertEqual(naturals.map { $0 / 3 }.distinctUntilChanged().take(3).array, [0, 1, 2])
        XCTAssertEqual(LazyList.zip(naturals, naturals.map { "\($0)" }).take(2).map { "\($0)\($1)" }.array, ["00", "11"])
        XCTAssertEqual(naturals.combinePrevious(0) { $0 + $1 }.take(3).array, [0, 1, 3])
        XCTAssertTrue(naturals.any { $0 == 1_000 })
    }

    func testZeroCounts() {
        let list = LazyList([1, 2])
        XCTAssertTrue(list.skip(0) === list, "skip(0) is the list itself")
        XCTAssertEqual(list.take(0).array, [])
        XCTAssertEqual(LazyList(0...).take(0).array, [])
    }
}

/// A list of `start`, `start + 1`, … whose every evaluated head counts.
func countedList(_ counter: Counter, from start: Int = 0) -> LazyList<Int> {
    LazyList(head: { counter.increment(); return start }, tail: { countedList(counter, from: start + 1) })
}
