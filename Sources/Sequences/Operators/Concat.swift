extension LazyList {
    /// This list's elements, then `other`'s. Nothing is evaluated until pulled.
    ///
    /// A chain of `concat`s, however long and however nested to the left
    /// (`a.concat(b).concat(c)…`), is walked in a loop: a `concat` of a list that is itself an
    /// unevaluated `concat` joins its parts instead of wrapping it.
    ///
    /// RAC 2.5: `-concat:`.
    public func concat(_ other: LazyList<Element>) -> LazyList<Element> {
        let earlier = unevaluatedSegments ?? Lists(self, then: nil)
        return LazyList(stage: ConcatStage(), upstream: Lists(other, then: earlier)).keepingEagerness(of: self)
    }

    /// The elements of each list in `lists`, one list after the other. `lists` is iterated now;
    /// the lists themselves are evaluated when pulled.
    ///
    /// ```swift
    /// LazyList.concat([LazyList([1, 2]), LazyList([3])]).array   // [1, 2, 3]
    /// ```
    ///
    /// RAC 2.5: `+concat:`.
    public static func concat(_ lists: some Sequence<LazyList<Element>>) -> LazyList<Element> {
        var segments: Lists<Element>?
        for list in lists { segments = Lists(list, then: segments) }
        guard let segments else { return .empty }
        return LazyList(stage: ConcatStage(), upstream: segments)
    }

    /// A list of `value`, then this list's elements.
    ///
    /// RAC 2.5: `-startWith:`.
    public func startWith(_ value: Element) -> LazyList<Element> {
        LazyList(head: value, tail: self, eager: evaluatesEagerly)
    }

    /// This node's lists when it is a `concat` that nothing has evaluated yet.
    private var unevaluatedSegments: Lists<Element>? {
        gate.withLock { _ in
            guard stage is ConcatStage<Element>, let segments = upstream as? Lists<Element> else { return nil }
            return segments
        }
    }

    /// When this node is an unevaluated `concat` (or the rest of one), its first list and the lists
    /// after it, followed by `rest`: walking those gives the same elements as evaluating this node
    /// and then `rest`, without nesting one `concat` inside the other.
    fileprivate func spliced(before rest: Lists<Element>?) -> (LazyList<Element>, Lists<Element>?)? {
        let content: AnyObject? = gate.withLock { _ in stage is ConcatStage<Element> ? upstream : nil }
        guard let content else { return nil }
        if let segments = content as? Lists<Element> {
            // An unevaluated concat's lists run from the last to the first.
            let forward = segments.reversed(onto: rest).unsafelyUnwrapped
            return (forward.list, forward.next)
        }
        let cursor = unsafeDowncast(content, to: ConcatCursor<Element>.self)
        return (cursor.current, cursor.rest?.reversed(onto: nil)?.reversed(onto: rest) ?? rest)
    }

    /// The first element of `current`, or of the first non-empty list after it, and a node for
    /// the rest. Unevaluated `concat`s met on the way are opened up (see `spliced(before:)`), so
    /// however the `concat`s nest, a node is computed in a loop.
    fileprivate static func concatenating(
        _ current: LazyList<Element>,
        then rest: Lists<Element>?,
        _ stage: Stage<Element>
    ) -> (Element, LazyList<Element>)? {
        var current = current
        var rest = rest
        while true {
            if let (first, after) = current.spliced(before: rest) {
                current = first
                rest = after
                continue
            }
            if current.evaluate() & Known.ended == 0 { break }
            guard let next = rest else { return nil }
            current = next.list
            rest = next.next
        }
        let (head, tail) = current.evaluatedParts
        return (head, LazyList(stage: stage, upstream: ConcatCursor(tail, then: rest)))
    }
}

/// The step of `concat`: its input is the ``Lists`` of an unevaluated `concat`, or the
/// ``ConcatCursor`` of the rest of one. A `concat` of such a node, or a `concat` that meets one
/// among its lists, recognizes it by this class and opens it up.
final class ConcatStage<Element>: Stage<Element>, @unchecked Sendable {
    init() {
        super.init { input, stage in
            if let segments = input as? Lists<Element> {
                // An unevaluated concat's lists run from the last to the first.
                let first = segments.reversed(onto: nil).unsafelyUnwrapped
                return LazyList.concatenating(first.list, then: first.next, stage)
            }
            let cursor = unsafeDowncast(input, to: ConcatCursor<Element>.self)
            return LazyList.concatenating(cursor.current, then: cursor.rest, stage)
        }
    }
}

/// Where the rest of a `concat` stands: in `current`, then the lists of `rest`.
final class ConcatCursor<Element>: @unchecked Sendable {
    let current: LazyList<Element>
    let rest: Lists<Element>?

    init(_ current: LazyList<Element>, then rest: Lists<Element>?) {
        self.current = current
        self.rest = rest
    }
}

/// A chain of lists. An unevaluated `concat` keeps its lists from the last to the first, so that
/// a `concat` onto it shares them; the rest of one being walked keeps the lists still to come,
/// from the next to the last, and each node of the result holds only what is after it.
final class Lists<Element>: @unchecked Sendable {
    let list: LazyList<Element>
    /// The rest of the chain. Set at init; `deinit` takes it out to release a long chain in a loop.
    private(set) var next: Lists<Element>?

    init(_ list: LazyList<Element>, then next: Lists<Element>?) {
        self.list = list
        self.next = next
    }

    /// This chain's lists in the opposite order, followed by `rest`.
    func reversed(onto rest: Lists<Element>?) -> Lists<Element>? {
        var result = rest
        var link: Lists<Element>? = self
        while let each = link {
            result = Lists(each.list, then: result)
            link = each.next
        }
        return result
    }

    deinit {
        guard var chain = next else { return }
        next = nil
        while isKnownUniquelyReferenced(&chain), let after = chain.next {
            chain.next = nil
            chain = after
        }
    }
}
