extension LazyList {
    /// The elements of the lists `makeBinding()`'s block gives for each element, one list after
    /// the other.
    ///
    /// `makeBinding` runs once, when `bind` is called; the block it returns runs once per element,
    /// when the result is pulled that far (an ``eagerSequence`` list runs it at once for every element).
    /// The block ends the result by returning `nil`, or by setting its `stop` argument: then the
    /// list it returned is the last.
    ///
    /// ```swift
    /// LazyList([1, 2, 3]).bind {
    ///     { value, stop in
    ///         if value == 2 { stop = true }
    ///         return LazyList([value, value])
    ///     }
    /// }.array   // [1, 1, 2, 2]
    /// ```
    ///
    /// RAC 2.5: `-bind:`. RAC 2.5's lazy bind keeps only the head of the list returned with
    /// `stop` set; here that list is kept whole, as `Signal.bind` and RAC's eager bind do.
    public func bind<U>(
        _ makeBinding: @escaping @Sendable () -> (Element, inout Bool) -> LazyList<U>?
    ) -> LazyList<U> {
        LazyList<U>.binding(source: self, current: nil, makeBinding()).keepingEagerness(of: self)
    }

    /// The elements of `transform(element)` for each element, one list after the other.
    ///
    /// ```swift
    /// LazyList([1, 2]).flattenMap { LazyList(repeatElement($0, count: $0)) }.array   // [1, 2, 2]
    /// ```
    ///
    /// RAC 2.5: `-flattenMap:`.
    public func flattenMap<U>(_ transform: @escaping @Sendable (Element) -> LazyList<U>) -> LazyList<U> {
        LazyList<U>.binding(source: self, current: nil) { value, _ in transform(value) }.keepingEagerness(of: self)
    }

    /// `flattenMap` for a block that may return `nil`, which stands for an empty list, as in RAC 2.5.
    ///
    /// RAC 2.5: `-flattenMap:`.
    public func flattenMap<U>(_ transform: @escaping @Sendable (Element) -> LazyList<U>?) -> LazyList<U> {
        LazyList<U>.binding(source: self, current: nil) { value, _ in transform(value) ?? .empty }
            .keepingEagerness(of: self)
    }

    /// The elements of each inner list, one list after the other.
    ///
    /// RAC 2.5: `-flatten`.
    public func flatten<Inner>() -> LazyList<Inner> where Element == LazyList<Inner> {
        LazyList<Inner>.binding(source: self, current: nil) { inner, _ in inner }.keepingEagerness(of: self)
    }

    /// The rest of a bind: what is left of the current inner list, then the lists `block` gives
    /// for what is left of `source` (`nil` once the block has stopped). Walks empty inner lists in a
    /// loop; the block runs only when the current inner list is used up.
    ///
    /// Each node's input (a ``BindInput``) is handed over to the stage's step, so the source nodes
    /// and empty inner lists a long run of them passes are let go of as the loop passes them.
    static func binding<Source>(
        source: LazyList<Source>?,
        current: LazyList<Element>?,
        _ block: @escaping (Source, inout Bool) -> LazyList<Element>?
    ) -> LazyList<Element> {
        let stage = Stage<Element>("bind(_:)", dependency: { upstream in
            let input = unsafeDowncast(upstream, to: BindInput<Source, Element>.self)
            // The step evaluates the current inner list first, or, when there is none or it is
            // used up, the source.
            if let current = input.current, !current.isKnownEmpty { return current }
            return input.source
        }) { upstream, stage, nesting in
            let input = unsafeDowncast(consume upstream, to: BindInput<Source, Element>.self)
            var source = input.source
            var current = input.current
            _ = consume input
            while true {
                if let inner = current, inner.evaluate(nesting: nesting) & Known.ended == 0 {
                    let (head, tail) = inner.evaluatedParts
                    return (head, LazyList(stage: stage, upstream: BindInput(source, tail)))
                }
                guard let values = source, values.evaluate(nesting: nesting) & Known.ended == 0 else { return nil }
                let (value, rest) = values.evaluatedParts
                var stop = false
                guard let next = block(value, &stop) else { return nil }
                current = next
                source = stop ? nil : rest
            }
        }
        return LazyList(stage: stage, upstream: BindInput(source, current))
    }
}

/// Where a bind node stands: what is left of the source (`nil` once the block has stopped) and of
/// the current inner list.
final class BindInput<Source, Element>: @unchecked Sendable {
    let source: LazyList<Source>?
    let current: LazyList<Element>?

    init(_ source: LazyList<Source>?, _ current: LazyList<Element>?) {
        self.source = source
        self.current = current
    }
}
