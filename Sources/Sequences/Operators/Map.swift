extension LazyList {
    /// A list of `transform(element)` for each element, computed when pulled.
    ///
    /// ```swift
    /// LazyList(1...).map { $0 * 2 }.take(3).array   // [2, 4, 6]
    /// ```
    ///
    /// RAC 2.5: `-map:`.
    @inlinable
    public func map<U>(_ transform: @escaping @Sendable (Element) -> U) -> LazyList<U> {
        mapping(transform)
    }

    /// A list of `value` in place of each element.
    ///
    /// RAC 2.5: `-mapReplace:`.
    @inlinable
    public func mapReplace<U>(_ value: U) -> LazyList<U> {
        mapping { _ in value }
    }

    /// A list of `reduce(members…)` for each tuple element.
    ///
    /// ```swift
    /// LazyList.zip(names, ages).reduceEach { name, age in "\(name) is \(age)" }
    /// ```
    ///
    /// RAC 2.5: `-reduceEach:`.
    @inlinable
    public func reduceEach<each T, R>(_ reduce: @escaping @Sendable (repeat each T) -> R) -> LazyList<R>
    where Element == (repeat each T) {
        mapping { tuple in reduce(repeat each tuple) }
    }

    /// `map` for the library's own closures, which need not be `Sendable`: one shared stage, one
    /// node per element.
    @inlinable
    func mapping<U>(_ transform: @escaping (Element) -> U) -> LazyList<U> {
        let stage = Stage<U>("map(_:)", dependency: LazyList<Element>.listDependency) { upstream, stage, nesting in
            let source = unsafeDowncast(upstream, to: LazyList<Element>.self)
            guard source.evaluate(nesting: nesting) & Known.ended == 0 else { return nil }
            let (head, tail) = source.evaluatedParts
            return (transform(head), LazyList<U>(stage: stage, upstream: tail))
        }
        return LazyList<U>(stage: stage, upstream: self).keepingEagerness(of: self)
    }
}
