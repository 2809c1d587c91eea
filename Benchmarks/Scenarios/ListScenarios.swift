import Schedulers
import Sequences
import Signals

/// The lists' baseline: a hand-written, single-threaded memoising list of `Int`s. A node holds its
/// thunk until it is evaluated, then its head and tail; a long evaluated chain is released in a
/// loop (BENCHMARKS.md).
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
