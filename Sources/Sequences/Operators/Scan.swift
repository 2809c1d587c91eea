extension LazyList {
    /// The running results of `combine`: `combine(start, e0)`, then `combine(that, e1)`, …
    ///
    /// ```swift
    /// LazyList([1, 2, 3]).scan(0, +).array   // [1, 3, 6]
    /// ```
    ///
    /// RAC 2.5: `-scanWithStart:reduce:`.
    public func scan<Running>(
        _ start: Running,
        _ combine: @escaping @Sendable (Running, Element) -> Running
    ) -> LazyList<Running> {
        scanning(start, index: 0) { running, element, _ in combine(running, element) }.keepingEagerness(of: self)
    }

    /// ``scan(_:_:)`` whose block also gets each element's index, from 0.
    ///
    /// RAC 2.5: `-scanWithStart:reduceWithIndex:`.
    public func scan<Running>(
        _ start: Running,
        withIndex combine: @escaping @Sendable (Running, Element, Int) -> Running
    ) -> LazyList<Running> {
        scanning(start, index: 0, combine).keepingEagerness(of: self)
    }

    private func scanning<Running>(
        _ running: Running,
        index: Int,
        _ combine: @escaping (Running, Element, Int) -> Running
    ) -> LazyList<Running> {
        LazyList<Running>(step: {
            guard self.evaluate() & Known.ended == 0 else { return nil }
            let (head, tail) = self.evaluatedParts
            let next = combine(running, head, index)
            return (next, tail.scanning(next, index: index + 1, combine))
        })
    }

    /// `combine(previous, element)` for each element, where `previous` is the element before it
    /// (`start` for the first).
    ///
    /// ```swift
    /// LazyList([1, 2, 4]).combinePrevious(0) { $1 - $0 }.array   // [1, 1, 2]
    /// ```
    ///
    /// RAC 2.5: `-combinePreviousWithStart:reduce:`.
    public func combinePrevious<R>(
        _ start: Element,
        _ combine: @escaping @Sendable (Element, Element) -> R
    ) -> LazyList<R> {
        combiningPrevious(start, combine).keepingEagerness(of: self)
    }

    private func combiningPrevious<R>(_ previous: Element, _ combine: @escaping (Element, Element) -> R) -> LazyList<R> {
        LazyList<R>(step: {
            guard self.evaluate() & Known.ended == 0 else { return nil }
            let (head, tail) = self.evaluatedParts
            return (combine(previous, head), tail.combiningPrevious(head, combine))
        })
    }
}
