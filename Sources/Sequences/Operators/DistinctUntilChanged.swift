extension LazyList {
    /// The elements that differ from the one before them, as `isEquivalent` tells; the first
    /// element always.
    ///
    /// RAC 2.5: `-distinctUntilChanged` (with a custom equality).
    public func distinctUntilChanged(by isEquivalent: @escaping @Sendable (Element, Element) -> Bool) -> LazyList<Element> {
        distinct(after: nil, isEquivalent).keepingEagerness(of: self)
    }

    private func distinct(after previous: Element?, _ isEquivalent: @escaping (Element, Element) -> Bool) -> LazyList<Element> {
        LazyList(step: {
            var list = self
            while list.evaluate() & Known.ended == 0 {
                let (head, tail) = list.evaluatedParts
                if let previous, isEquivalent(previous, head) {
                    list = tail
                    continue
                }
                return (head, tail.distinct(after: head, isEquivalent))
            }
            return nil
        })
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
        distinct(after: nil, ==).keepingEagerness(of: self)
    }
}
