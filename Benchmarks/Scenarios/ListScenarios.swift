import Foundation
import Schedulers
import Sequences
import Signals

/// The lists' baseline: a hand-written, single-threaded memoising list of `Int`s. A node holds its
/// thunk until it is evaluated, then its head and tail; a long evaluated chain is released in a
/// loop.
private final class MemoList {
    private var thunk: (() -> (Int, MemoList)?)?
    private var cell: (head: Int, tail: MemoList)?

    init(_ thunk: @escaping () -> (Int, MemoList)?) {
        self.thunk = thunk
    }

    func force() -> (head: Int, tail: MemoList)? {
        if let thunk {
            self.thunk = nil
            cell = thunk()
        }
        return cell
    }

    deinit {
        guard var next = cell?.tail else { return }
        cell = nil
        while isKnownUniquelyReferenced(&next), let after = next.cell?.tail {
            next.cell = nil
            next = after
        }
    }

    static func range(_ value: Int, _ end: Int) -> MemoList {
        MemoList { value < end ? (value, range(value + 1, end)) : nil }
    }

    func map(_ transform: @escaping (Int) -> Int) -> MemoList {
        MemoList {
            guard let (head, tail) = self.force() else { return nil }
            return (transform(head), tail.map(transform))
        }
    }

    func filter(_ isIncluded: @escaping (Int) -> Bool) -> MemoList {
        MemoList {
            var list = self
            while let (head, tail) = list.force() {
                if isIncluded(head) { return (head, tail.filter(isIncluded)) }
                list = tail
            }
            return nil
        }
    }

    func foldLeft(_ start: Int, _ combine: (Int, Int) -> Int) -> Int {
        var result = start
        var list = self
        while let (head, tail) = list.force() {
            result = combine(result, head)
            list = tail
        }
        return result
    }
}

/// The queue's baseline: an array of `Int`s read from a moving front index, compacted when the
/// read part reaches half the array, so each take and push costs a constant time amortized.
private struct ArrayDeque {
    private var items: [Int]
    private var front = 0

    init(_ items: [Int]) {
        self.items = items
    }

    mutating func popFirst() -> Int {
        defer {
            front += 1
            if front * 2 >= items.count {
                items.removeFirst(front)
                front = 0
            }
        }
        return items[front]
    }

    mutating func append(_ value: Int) {
        items.append(value)
    }
}

/// How many elements `list.queue` starts with and then takes and pushes: 100,000, or
/// `BENCHMARKS_QUEUE_LENGTH` (run it at 10,000 and 100,000: a queue whose takes and pushes cost a
/// constant time has the same ns/op at both).
private let queueLength = environmentCount("BENCHMARKS_QUEUE_LENGTH") ?? 100_000

func listScenarios() -> [Scenario] { [
    Scenario(
        name: "list.chain",
        operations: 1_000_000,
        prepareOurs: { count in
            let sink = Sink()
            return {
                sink.value = LazyList(0..<count).map { $0 + 1 }.filter { $0.isMultiple(of: 2) }.map { $0 * 2 }
                    .foldLeft(0, &+)
            }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let increment: (Int) -> Int = opaque { $0 + 1 }
            let isEven: (Int) -> Bool = opaque { $0.isMultiple(of: 2) }
            let double: (Int) -> Int = opaque { $0 * 2 }
            let add: (Int, Int) -> Int = opaque(&+)
            return {
                sink.value = MemoList.range(0, count).map(increment).filter(isEven).map(double).foldLeft(0, add)
            }
        }
    ),
    Scenario(
        name: "list.build-release",
        operations: 1_000_000,
        prepareOurs: { count in
            let sink = Sink()
            return {
                let list = LazyList(0..<count)
                sink.value = list.foldLeft(0, &+)
            }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let add: (Int, Int) -> Int = opaque(&+)
            return {
                let list = MemoList.range(0, count)
                sink.value = list.foldLeft(0, add)
            }
        }
    ),
    Scenario(
        name: "list.queue",
        operations: queueLength,
        prepareOurs: { count in
            let sink = Sink()
            return {
                // A queue kept as a lazy list: take the head, `concat` a new element onto the rest.
                var queue = LazyList.concat((0..<count).map { LazyList.return($0) })
                var sum = 0
                for value in count..<(2 * count) {
                    sum &+= queue.head.unsafelyUnwrapped
                    queue = queue.tail.concat(.return(value))
                }
                sink.value = sum
            }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let add: (Int, Int) -> Int = opaque(&+)
            return {
                var queue = ArrayDeque(Array(0..<count))
                var sum = 0
                for value in count..<(2 * count) {
                    sum = add(sum, queue.popFirst())
                    queue.append(value)
                }
                sink.value = sum
            }
        }
    ),
    Scenario(
        name: "list.signal",
        operations: 1_000_000,
        prepareOurs: { count in
            let sink = Sink()
            return { LazyList(0..<count).signal(on: .immediate).subscribe(next: { sink.value &+= $0 }) }
        },
        prepareBaseline: { count in
            let sink = Sink()
            let add: (Int) -> Void = opaque { sink.value &+= $0 }
            return {
                for value in 0..<count { add(value) }
            }
        }
    ),
] }
