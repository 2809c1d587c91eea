extension LazyList {
    /// Pairs of the n-th elements of this list and `other`; as long as the shorter of the two.
    ///
    /// ```swift
    /// LazyList(["a", "b", "c"]).zip(with: LazyList(1...)).array   // [("a", 1), ("b", 2), ("c", 3)]
    /// ```
    ///
    /// Lazy even on an ``eager`` list, as in RAC 2.5.
    ///
    /// RAC 2.5: `-zipWith:`.
    public func zip<U>(with other: LazyList<U>) -> LazyList<(Element, U)> {
        LazyList<(Element, U)>(step: {
            guard self.evaluate() & Known.ended == 0, other.evaluate() & Known.ended == 0 else { return nil }
            let (head, tail) = self.evaluatedParts
            let (otherHead, otherTail) = other.evaluatedParts
            return ((head, otherHead), tail.zip(with: otherTail))
        })
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
        return LazyList(step: {
            for list in repeat each lists {
                if list.evaluate() & Known.ended != 0 { return nil }
            }
            return ((repeat (each lists).evaluatedParts.head), zip(repeat (each lists).evaluatedParts.tail))
        })
    }

    /// Arrays of the n-th elements of the lists, in the order of `lists`; as long as the shortest
    /// list, and empty when there is no list.
    ///
    /// RAC 2.5: `+zip:`.
    public static func zip<V>(_ lists: some Sequence<LazyList<V>>) -> LazyList<[V]> where Element == [V] {
        let lists = Array(lists)
        guard !lists.isEmpty else { return .empty }
        return zipping(lists)
    }

    private static func zipping<V>(_ lists: [LazyList<V>]) -> LazyList<[V]> where Element == [V] {
        LazyList(step: {
            var row: [V] = []
            var tails: [LazyList<V>] = []
            row.reserveCapacity(lists.count)
            tails.reserveCapacity(lists.count)
            for list in lists {
                guard list.evaluate() & Known.ended == 0 else { return nil }
                let (head, tail) = list.evaluatedParts
                row.append(head)
                tails.append(tail)
            }
            return (row, zipping(tails))
        })
    }
}
