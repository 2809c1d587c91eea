import Foundation
import Sequences
import TestSupport
import XCTest

/// Stress tests: ``Stress/rounds`` rounds of 8 threads each (1,000 in release, 400 in debug, 200
/// under a sanitizer), each under a watchdog, bounded in time and deterministic in outcome. A fresh
/// list each round, forced from eight threads at once: every memoised block runs exactly once, and
/// every thread sees the same elements (and the same tail node), as in ``MemoisationTests``, for a
/// head, a tail, both racing on one node, and the walk of a mapped and filtered chain.
final class SequencesStressTests: LeakCheckedTestCase {
    func testHead_forcedFromEightThreads_runsItsBlockOnceAndEveryThreadSeesIt() {
        Stress.forEachRound("a head forced from eight threads") { round in
            let heads = Counter()
            let tails = Counter()
            let list = LazyList(head: { heads.increment(); return round }, tail: { tails.increment(); return .empty })
            let seen = Recorder<Int?>()
            race(threads: 8) { _ in seen.record(list.head) }
            XCTAssertEqual(seen.values, Array(repeating: round, count: 8), "round \(round)")
            XCTAssertEqual(heads.value, 1, "round \(round): the head block ran \(heads.value) times")
            XCTAssertEqual(tails.value, 0, "round \(round): the tail block ran, unasked")
        }
    }

    func testTail_forcedFromEightThreads_runsItsBlockOnceAndEveryThreadGetsTheSameNode() {
        Stress.forEachRound("a tail forced from eight threads") { round in
            let heads = Counter()
            let tails = Counter()
            let list = countedChain(length: 3, heads: heads, tails: tails)
            let tailNodes = Recorder<ObjectIdentifier>()
            race(threads: 8) { _ in tailNodes.record(ObjectIdentifier(list.tail)) }
            XCTAssertEqual(Set(tailNodes.values).count, 1, "round \(round): the threads got different tails")
            XCTAssertEqual(tails.value, 1, "round \(round): the tail block ran \(tails.value) times")
            XCTAssertEqual(heads.value, 0, "round \(round): a head block ran, unasked")
            XCTAssertEqual(list.array, [0, 1, 2], "round \(round)")
        }
    }

    func testHeadAndTailRacingOnOneNode_runTheDependencyAndEachBlockOnce() {
        Stress.forEachRound("head and tail racing on one node") { round in
            let dependencies = Counter()
            let heads = Counter()
            let tails = Counter()
            let list = LazyList(
                dependency: { dependencies.increment(); return round },
                head: { (value: Int) -> Int? in heads.increment(); return value },
                tail: { value in tails.increment(); return LazyList.return(value + 1) }
            )
            let seen = Recorder<[Int]>()
            race(threads: 8) { index in
                // Half the threads ask for the head, half for the tail's head, each first.
                if index.isMultiple(of: 2) {
                    seen.record([list.head!, list.tail.head!])
                } else {
                    let tail = list.tail.head!
                    seen.record([list.head!, tail])
                }
            }
            XCTAssertEqual(seen.values, Array(repeating: [round, round + 1], count: 8), "round \(round)")
            XCTAssertEqual([dependencies.value, heads.value, tails.value], [1, 1, 1], "round \(round): runs of dependency, head, tail")
        }
    }

    func testMappedAndFilteredChain_walkedFromEightThreads_runsEachBlockOncePerElement() {
        let length = 32
        let expected = (0..<length).map { $0 * 3 }.filter { $0.isMultiple(of: 2) }
        Stress.forEachRound("a mapped and filtered chain walked from eight threads") { round in
            let heads = Counter()
            let tails = Counter()
            let mapped = Counter()
            let tested = Counter()
            let list = countedChain(length: length, heads: heads, tails: tails)
                .map { value -> Int in mapped.increment(); return value * 3 }
                .filter { tested.increment(); return $0.isMultiple(of: 2) }
            let seen = Recorder<[Int]>()
            race(threads: 8) { index in
                // The threads walk in different ways, and half of them only part of the way.
                let limit = index < 4 ? expected.count : index * 2
                switch index % 4 {
                case 0: seen.record(Array(list.array.prefix(limit)))
                case 1:
                    var values: [Int] = []
                    var node = list
                    while values.count < limit, !node.isEmpty {
                        values.append(node.head!)
                        node = node.tail
                    }
                    seen.record(values)
                case 2: seen.record(Array(list.prefix(limit)))
                default: seen.record(list.take(limit).foldLeft([]) { $0 + [$1] })
                }
            }
            XCTAssertEqual(
                seen.values.sorted { $0.count < $1.count },
                (0..<8).map { index in Array(expected.prefix(index < 4 ? expected.count : index * 2)) }.sorted { $0.count < $1.count },
                "round \(round)"
            )
            let runs = [heads.value, tails.value, mapped.value, tested.value]
            XCTAssertEqual(runs, Array(repeating: length, count: 4), "round \(round): runs of the source's heads and tails, map and filter")
        }
    }
}
