extension LazyList {
    /// The elements that differ from the one before them, as `isEquivalent` tells; the first
    /// element always.
    ///
    /// RAC 2.5: `-distinctUntilChanged` (with a custom equality).
    public func distinctUntilChanged(by isEquivalent: @escaping @Sendable (Element, Element) -> Bool) -> LazyList<Element> {
        distinct(isEquivalent).keepingEagerness(of: self)
    }

    /// A stage whose input (a ``DistinctInput``) is handed over, so that a long run of equivalent
    /// elements is let go of as the loop passes it, not kept until it ends.
    private func distinct(_ isEquivalent: @escaping (Element, Element) -> Bool) -> LazyList<Element> {
        let stage = Stage<Element>("distinctUntilChanged(by:)", dependency: { unsafeDowncast($0, to: DistinctInput<Element>.self).list }) {
            upstream, stage, nesting in
            let input = unsafeDowncast(consume upstream, to: DistinctInput<Element>.self)
            var list = input.list
            let previous = input.previous
            _ = consume input
            while list.evaluate(nesting: nesting) & Known.ended == 0 {
                let (head, tail) = list.evaluatedParts
                if let previous, isEquivalent(previous, head) {
                    list = tail
                    continue
                }
                return (head, LazyList(stage: stage, upstream: DistinctInput(tail, after: head)))
            }
            return nil
        }
        return LazyList(stage: stage, upstream: DistinctInput(self, after: nil))
    }
}

/// Where a `distinctUntilChanged` node reads from, and the element before it (`nil` for the first).
final class DistinctInput<Element>: @unchecked Sendable {
    let list: LazyList<Element>
    let previous: Element?

    init(_ list: LazyList<Element>, after previous: Element?) {
        self.list = list
        self.previous = previous
    }
}

extension LazyList where Element: Equatable {
    /// The elements that differ from the one before them; the first element always.
    ///
    /// ```swift
    /// LazyList([1, 1, 2, 2, 1]).distinctUntilChanged().array   // [1, 2, 1]
    /// ```
    ///
    /// RAC 2.5: `-distinctUntilChanged`.
    public func distinctUntilChanged() -> LazyList<Element> {
        distinct(==).keepingEagerness(of: self)
    }
}
