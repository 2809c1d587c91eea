extension LazyList {
    /// Pairs of the n-th elements of this list and `other`; as long as the shorter of the two.
    ///
    /// ```swift
    /// LazyList(["a", "b", "c"]).zip(with: LazyList(1...)).array   // [("a", 1), ("b", 2), ("c", 3)]
    /// ```
    ///
    /// Lazy even on an ``eagerSequence`` list, as in RAC 2.5.
    ///
    /// RAC 2.5: `-zipWith:`.
    public func zip<U>(with other: LazyList<U>) -> LazyList<(Element, U)> {
        let stage = Stage<(Element, U)>("zip(with:)", dependency: { unsafeDowncast($0, to: ZipPair<Element, U>.self).first }) {
            upstream, stage, nesting in
            let input = unsafeDowncast(consume upstream, to: ZipPair<Element, U>.self)
            guard input.first.evaluate(nesting: nesting) & Known.ended == 0,
                  input.second.evaluate(nesting: nesting) & Known.ended == 0 else { return nil }
            let (head, tail) = input.first.evaluatedParts
            let (otherHead, otherTail) = input.second.evaluatedParts
            return ((head, otherHead), LazyList<(Element, U)>(stage: stage, upstream: ZipPair(tail, otherTail)))
        }
        return LazyList<(Element, U)>(stage: stage, upstream: ZipPair(self, other))
    }

    /// Tuples of the n-th elements of every list; as long as the shortest, and empty when there is
    /// no list.
    ///
    /// ```swift
    /// LazyList.zip(names, ages, cities)   // (name, age, city), …
    /// ```
    ///
    /// RAC 2.5: `+zip:`.
    public static func zip<each V>(_ lists: repeat LazyList<each V>) -> LazyList<(repeat each V)>
    where Element == (repeat each V) {
        // With no list, nothing ends the result: it would be an endless list of `()`.
        var count = 0
        for _ in repeat each lists { count += 1 }
        guard count > 0 else { return .empty }
        let stage = Stage<Element>("zip(_:)", dependency: { upstream in
            // The first list, which the step evaluates first.
            for list in repeat each unsafeDowncast(upstream, to: ZipLists<repeat each V>.self).lists { return list }
            return nil
        }) { upstream, stage, nesting in
            let input = unsafeDowncast(consume upstream, to: ZipLists<repeat each V>.self)
            for list in repeat each input.lists {
                if list.evaluate(nesting: nesting) & Known.ended != 0 { return nil }
            }
            let rest = ZipLists(repeat (each input.lists).evaluatedParts.tail)
            return ((repeat (each input.lists).evaluatedParts.head), LazyList(stage: stage, upstream: rest))
        }
        return LazyList(stage: stage, upstream: ZipLists(repeat each lists))
    }

    /// Arrays of the n-th elements of the lists, in the order of `lists`; as long as the shortest
    /// list, and empty when there is no list.
    ///
    /// RAC 2.5: `+zip:`.
    public static func zip<V>(_ lists: some Sequence<LazyList<V>>) -> LazyList<[V]> where Element == [V] {
        let lists = Array(lists)
        guard !lists.isEmpty else { return .empty }
        let stage = Stage<[V]>("zip(_:)", dependency: { unsafeDowncast($0, to: ZipRow<V>.self).lists[0] }) {
            upstream, stage, nesting in
            let input = unsafeDowncast(consume upstream, to: ZipRow<V>.self)
            var row: [V] = []
            var tails: [LazyList<V>] = []
            row.reserveCapacity(input.lists.count)
            tails.reserveCapacity(input.lists.count)
            for list in input.lists {
                guard list.evaluate(nesting: nesting) & Known.ended == 0 else { return nil }
                let (head, tail) = list.evaluatedParts
                row.append(head)
                tails.append(tail)
            }
            return (row, LazyList<[V]>(stage: stage, upstream: ZipRow(tails)))
        }
        return LazyList(stage: stage, upstream: ZipRow(lists))
    }
}

/// Where a `zip(with:)` node reads.
final class ZipPair<First, Second>: @unchecked Sendable {
    let first: LazyList<First>
    let second: LazyList<Second>

    init(_ first: LazyList<First>, _ second: LazyList<Second>) {
        self.first = first
        self.second = second
    }
}

/// Where a node of the variadic `zip` reads.
final class ZipLists<each V>: @unchecked Sendable {
    let lists: (repeat LazyList<each V>)

    init(_ lists: repeat LazyList<each V>) {
        self.lists = (repeat each lists)
    }
}

/// Where a node of the `zip` of a sequence of lists reads (one list or more).
final class ZipRow<V>: @unchecked Sendable {
    let lists: [LazyList<V>]

    init(_ lists: [LazyList<V>]) {
        self.lists = lists
    }
}
