extension LazyList {
    /// A list of `transform(element)` for each element for which it returns a value, computed when
    /// pulled: `map` and `ignoreNil()` in one stage. Pulling one element walks the source, in a
    /// loop, up to the next that gives a value, and lets go of the ones it passed; on an endless
    /// list it stays lazy (the standard library's `compactMap` on a `Sequence` would not).
    ///
    /// ```swift
    /// LazyList(1...).compactMap { $0.isMultiple(of: 3) ? $0 * 10 : nil }.take(2).array   // [30, 60]
    /// ```
    ///
    /// Other libraries: the standard library's `compactMap`, lazily.
    ///
    /// New; RAC 2.5 has none (its nearest is `-map:` then `-ignore:` with `nil`).
    @inlinable
    public func compactMap<U>(_ transform: @escaping @Sendable (Element) -> U?) -> LazyList<U> {
        compactMapping("compactMap(_:)", transform)
    }

    /// A list of the elements that are not `nil`, unwrapped, in order. Pulling one element walks
    /// the source, in a loop, up to the next that is not `nil`, and lets go of the ones it passed.
    ///
    /// ```swift
    /// LazyList(["a", nil, "b"]).ignoreNil().array   // ["a", "b"]
    /// ```
    ///
    /// RAC 2.5: `-ignore:` with `nil` (RAC 4: `ignoreNil()`).
    @inlinable
    public func ignoreNil<Wrapped>() -> LazyList<Wrapped> where Element == Wrapped? {
        compactMapping("ignoreNil()") { $0 }
    }

    /// The elements for which `transform` returns a value, those values: `filter` and `map` in one
    /// stage, one node per element kept. For the library's own closures, which need not be
    /// `Sendable`; `name` is the operator's, for the message of a nesting too deep for the stack.
    @inlinable
    func compactMapping<U>(_ name: StaticString, _ transform: @escaping (Element) -> U?) -> LazyList<U> {
        let stage = Stage<U>(name, dependency: LazyList<Element>.listDependency) { upstream, stage, nesting in
            // `consume`: the parameter would otherwise hold the first node, and through it every
            // node the loop passes, until the step returns.
            var source = unsafeDowncast(consume upstream, to: LazyList<Element>.self)
            while source.evaluate(nesting: nesting) & Known.ended == 0 {
                let (head, tail) = source.evaluatedParts
                if let value = transform(head) { return (value, LazyList<U>(stage: stage, upstream: tail)) }
                source = tail
            }
            return nil
        }
        return LazyList<U>(stage: stage, upstream: self).keepingEagerness(of: self)
    }
}
