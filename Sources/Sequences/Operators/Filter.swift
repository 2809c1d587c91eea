extension LazyList {
    /// A list of the elements that pass `isIncluded`, in order. Pulling one element walks the
    /// source, in a loop, up to the next that passes, and lets go of the ones it passed.
    ///
    /// RAC 2.5: `-filter:`.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool) -> LazyList<Element> {
        filtering(isIncluded)
    }

    /// `filter` for the library's own closures, which need not be `Sendable`.
    @inlinable
    func filtering(_ isIncluded: @escaping (Element) -> Bool) -> LazyList<Element> {
        let stage = Stage<Element>("filter(_:)", dependency: LazyList<Element>.listDependency) { upstream, stage, nesting in
            // `consume`: the parameter would otherwise hold the first node, and through it every
            // node the loop passes, until the step returns.
            var source = unsafeDowncast(consume upstream, to: LazyList<Element>.self)
            while source.evaluate(nesting: nesting) & Known.ended == 0 {
                let (head, tail) = source.evaluatedParts
                if isIncluded(head) { return (head, LazyList(stage: stage, upstream: tail)) }
                source = tail
            }
            return nil
        }
        return LazyList(stage: stage, upstream: self).keepingEagerness(of: self)
    }
}

extension LazyList where Element: Equatable {
    /// A list without the elements equal to `value`.
    ///
    /// RAC 2.5: `-ignore:`.
    @inlinable
    public func ignore(_ value: Element) -> LazyList<Element> {
        filtering { $0 != value }
    }
}
