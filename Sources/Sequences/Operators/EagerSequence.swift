extension LazyList {
    /// This list evaluated now, as a list whose operators evaluate at once.
    ///
    /// Every element is computed when `eagerSequence` is read (the list must be finite). `map`,
    /// `filter`, `bind`, `concat` and the other operators derived from `bind` then evaluate their
    /// blocks at once and give eager lists too; ``foldRight(_:_:)`` computes its rest at once.
    /// `zip` stays lazy, as in RAC 2.5. Use ``lazySequence`` to get back a list whose operators
    /// wait.
    ///
    /// ```swift
    /// let doubled = LazyList([1, 2, 3]).eagerSequence.map { $0 * 2 }   // the block has run 3 times
    /// ```
    ///
    /// The name is RAC 2.5's. A list's `lazy` is the standard library's (`LazyList` is a
    /// `Sequence`): `LazyList(1...).lazy.compactMap { … }` is a `LazySequence`, whose operators wait
    /// too.
    ///
    /// On a list nothing else holds, each node is released once it has been read, as by ``array``.
    ///
    /// RAC 2.5: `eagerSequence` (`RACEagerSequence`).
    public var eagerSequence: LazyList<Element> {
        consuming get {
            if evaluatesEagerly { return self }
            return LazyList(iterator: (consume self).array.makeIterator(), eager: true)
        }
    }

    /// A list with the same elements whose operators evaluate lazily: this list itself, unless it
    /// is ``eagerSequence``.
    ///
    /// RAC 2.5: `lazySequence`.
    public var lazySequence: LazyList<Element> {
        guard evaluatesEagerly else { return self }
        return LazyList(iterator: makeIterator(), eager: false)
    }

    /// Whether operators on this list evaluate at once: `true` for a list made by
    /// ``eagerSequence`` and for what operators derived from `bind` make of one.
    public var isEager: Bool {
        evaluatesEagerly
    }

    /// `result`, evaluated at once if `source` is eager (operators derived from `bind`).
    @inlinable
    consuming func keepingEagerness<Source>(of source: LazyList<Source>) -> LazyList<Element> {
        if source.evaluatesEagerly { return (consume self).eagerSequence }
        return self
    }
}
