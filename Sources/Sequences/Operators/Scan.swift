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
        scanning(start) { running, element, _ in combine(running, element) }.keepingEagerness(of: self)
    }

    /// ``scan(_:_:)`` whose block also gets each element's index, from 0.
    ///
    /// RAC 2.5: `-scanWithStart:reduceWithIndex:`.
    public func scan<Running>(
        _ start: Running,
        withIndex combine: @escaping @Sendable (Running, Element, Int) -> Running
    ) -> LazyList<Running> {
        scanning(start, combine).keepingEagerness(of: self)
    }

    /// The running results of `update`, which changes a copy of the running value in place:
    /// `initial` changed by `update(&running, e0)`, then that changed by `update(&running, e1)`, …
    ///
    /// ```swift
    /// LazyList(["a", "b", "a"]).scan(into: [String: Int]()) { counts, word in counts[word, default: 0] += 1 }.array
    /// // [["a": 1], ["a": 1, "b": 1], ["a": 2, "b": 1]]
    /// ```
    ///
    /// Each element of the list is a running value of its own, kept as long as the list is (a
    /// list is memoised), so each step changes a copy of the one before it: unlike `Signal`'s
    /// `scan(into:_:)`, this saves nothing over ``scan(_:_:)``; it is here so that the same
    /// closure fits both.
    ///
    /// Other libraries: Swift's `reduce(into:_:)` for the last value only; ReactiveSwift's and
    /// RxSwift's `scan(into:…)` on a signal.
    ///
    /// New; RAC 2.5 has none.
    public func scan<Running>(
        into initial: Running,
        _ update: @escaping @Sendable (inout Running, Element) -> Void
    ) -> LazyList<Running> {
        scanning(initial) { running, element, _ in
            var next = running
            update(&next, element)
            return next
        }.keepingEagerness(of: self)
    }

    /// One stage for the whole scan; each node's input is where it reads, the running value
    /// before it and its index, handed over to the step as `filter`'s is.
    private func scanning<Running>(
        _ start: Running,
        _ combine: @escaping (Running, Element, Int) -> Running
    ) -> LazyList<Running> {
        let stage = Stage<Running>("scan(_:_:)", dependency: { unsafeDowncast($0, to: ScanInput<Element, Running>.self).list }) {
            upstream, stage, nesting in
            let input = unsafeDowncast(consume upstream, to: ScanInput<Element, Running>.self)
            guard input.list.evaluate(nesting: nesting) & Known.ended == 0 else { return nil }
            let (head, tail) = input.list.evaluatedParts
            let next = combine(input.running, head, input.index)
            return (next, LazyList<Running>(stage: stage, upstream: ScanInput(tail, running: next, index: input.index + 1)))
        }
        return LazyList<Running>(stage: stage, upstream: ScanInput(self, running: start, index: 0))
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
        let stage = Stage<R>("combinePrevious(_:_:)", dependency: { unsafeDowncast($0, to: ScanInput<Element, Element>.self).list }) {
            upstream, stage, nesting in
            let input = unsafeDowncast(consume upstream, to: ScanInput<Element, Element>.self)
            guard input.list.evaluate(nesting: nesting) & Known.ended == 0 else { return nil }
            let (head, tail) = input.list.evaluatedParts
            return (combine(input.running, head), LazyList<R>(stage: stage, upstream: ScanInput(tail, running: head, index: 0)))
        }
        return LazyList<R>(stage: stage, upstream: ScanInput(self, running: previous, index: 0))
    }
}

/// Where a `scan` node reads, the running value before it and the index of the element it reads
/// (for `combinePrevious`, the element before it; the index is not used).
final class ScanInput<Element, Running>: @unchecked Sendable {
    let list: LazyList<Element>
    let running: Running
    let index: Int

    init(_ list: LazyList<Element>, running: Running, index: Int) {
        self.list = list
        self.running = running
        self.index = index
    }
}
