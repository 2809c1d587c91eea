extension LazyList: Sequence {
    /// Walks a list from a node, holding only the node it stands on: what it has passed is released
    /// as it goes, unless something else holds it.
    ///
    /// RAC 2.5: `-objectEnumerator`, `NSFastEnumeration`.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var node: LazyList<Element>

        @inlinable
        init(_ node: LazyList<Element>) {
            self.node = node
        }

        /// The next element, evaluating its node (head and tail) if it has not been yet; `nil`
        /// at the end, and after it.
        @inlinable
        public mutating func next() -> Element? {
            guard node.evaluate(nesting: 0) & Known.ended == 0 else { return nil }
            let (head, tail) = node.evaluatedParts
            node = tail
            return head
        }
    }

    /// An iterator from this list's first node. It takes the list over: on a list nothing else
    /// holds, what the iterator has passed is released as it goes.
    @inlinable
    public consuming func makeIterator() -> Iterator {
        Iterator(consume self)
    }

    /// Every element, in order. Evaluates the whole list (it must be finite).
    ///
    /// Like the other methods that walk a list, it takes the list over: on a list nothing else
    /// holds (a temporary, or a variable passed with `consume`), each node is released once the
    /// walk has passed it, so the nodes do not pile up beside the array.
    ///
    /// RAC 2.5: `array`.
    @inlinable
    public var array: [Element] {
        consuming get {
            var elements: [Element] = []
            var iterator = Iterator(consume self)
            while let element = iterator.next() { elements.append(element) }
            return elements
        }
    }

    /// Combines the elements from the first to the last: `reduce(reduce(start, e0), e1)`, …
    /// Returns `start` for an empty list. Evaluates the whole list (it must be finite).
    ///
    /// On a list nothing else holds, each node is released once the fold has passed it, as a
    /// `for … in` loop does: `LazyList(0..<10_000_000).map { $0 + 1 }.foldLeft(0, +)` runs in
    /// constant memory. A list held elsewhere keeps its evaluated nodes.
    ///
    /// ```swift
    /// LazyList.return(1).concat(.return(2)).foldLeft(0) { $0 - $1 }   // (0 - 1) - 2 = -3
    /// ```
    ///
    /// RAC 2.5: `-foldLeftWithStart:reduce:`.
    @inlinable
    public consuming func foldLeft<Result>(_ start: Result, _ reduce: (Result, Element) throws -> Result) rethrows -> Result {
        var result = start
        var iterator = Iterator(consume self)
        while let element = iterator.next() { result = try reduce(result, element) }
        return result
    }

    /// Combines the elements from the last to the first, lazily: `reduce(e0, rest)` where `rest`
    /// is a one-element list whose head, computed only if `reduce` asks for it, is the right fold
    /// of the tail (`start` at the end). Returns `start` for an empty list.
    ///
    /// Because `reduce` decides whether to look at `rest`, a right fold can stop early, even on an
    /// infinite list. One that always looks nests one call per element, and so does any right
    /// fold of an ``eagerSequence`` list, whose rest is computed at once. The thread's stack is the limit:
    /// in an optimized build, some 500 elements on a 512 KiB stack (a secondary thread's on Apple
    /// platforms) and some 10,000 on an 8 MiB one; a debug build's frames are about four times as
    /// large. When less than 64 KiB of the stack is left, the fold stops the program with a message
    /// naming `foldRight(_:_:)`, rather than overflowing the stack.
    ///
    /// ```swift
    /// // the first element greater than 2, without evaluating the rest of an infinite list
    /// LazyList(1...).foldRight(nil as Int?) { value, rest in value > 2 ? value : rest.head! }
    /// ```
    ///
    /// RAC 2.5: `-foldRightWithStart:reduce:`.
    public func foldRight<Result>(
        _ start: Result,
        _ reduce: @escaping @Sendable (Element, LazyList<Result>) -> Result
    ) -> Result {
        guard evaluateHead() & Known.ended == 0, let head = storedHead else { return start }
        let rest = LazyList<Result>(
            blocks: .init("foldRight(_:_:)", head: { self.tail.foldRight(start, reduce) }, tail: { .empty }),
            known: Known.nonEmpty
        )
        return reduce(head, evaluatesEagerly ? rest.evaluatedRest() : rest)
    }

    /// Whether some element passes `predicate`; stops at the first that does (on an ``eagerSequence``
    /// list, tests them all, as ``first(passing:)`` does). On a list nothing else holds, releases
    /// each node once it has passed it.
    ///
    /// RAC 2.5: `-any:`.
    @inlinable
    public consuming func any(_ predicate: (Element) throws -> Bool) rethrows -> Bool {
        try (consume self).first(passing: predicate) != nil
    }

    /// Whether every element passes `predicate`. As in RAC 2.5, this folds the whole list (it must
    /// be finite), though `predicate` is not called again after an element fails. On a list
    /// nothing else holds, releases each node once it has passed it.
    ///
    /// RAC 2.5: `-all:`.
    @inlinable
    public consuming func all(_ predicate: (Element) throws -> Bool) rethrows -> Bool {
        try (consume self).foldLeft(true) { passed, element in try passed && predicate(element) }
    }

    /// The first element that passes `predicate`, or `nil`; evaluates no further than that element.
    /// On an ``eagerSequence`` list, `predicate` tests every element, as RAC 2.5's eager `filter` (which
    /// `-objectPassingTest:` uses) does. On a list nothing else holds, releases each node once it
    /// has passed it.
    ///
    /// RAC 2.5: `-objectPassingTest:`.
    @inlinable
    public consuming func first(passing predicate: (Element) throws -> Bool) rethrows -> Element? {
        let testsEvery = evaluatesEagerly
        var found: Element?
        var iterator = Iterator(consume self)
        while let element = iterator.next() {
            guard try predicate(element), found == nil else { continue }
            found = element
            if !testsEvery { break }
        }
        return found
    }
}

extension LazyList {
    /// This list, its head computed now (an eager list's right fold computes its rest at once).
    fileprivate func evaluatedRest() -> LazyList {
        _ = evaluate(nesting: 0)
        return self
    }
}

extension Array {
    /// The elements of `list`, in order, as ``LazyList/array`` gives them: on a list nothing else
    /// holds, each node is released once it has been read. (The standard library's `Array(_:)` of
    /// any sequence would hold the list's first node, and so every node, until the end.)
    ///
    /// Evaluates the whole list (it must be finite).
    @inlinable
    public init(_ list: consuming LazyList<Element>) {
        self = (consume list).array
    }
}
