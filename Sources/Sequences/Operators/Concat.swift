extension LazyList {
    /// This list's elements, then `other`'s. Nothing is evaluated until pulled.
    ///
    /// A chain of `concat`s, however long and however nested to the left
    /// (`a.concat(b).concat(c)…`), is walked in a loop: a `concat` of a list that is itself an
    /// unevaluated `concat` joins its parts instead of wrapping it.
    ///
    /// RAC 2.5: `-concat:`.
    public func concat(_ other: LazyList<Element>) -> LazyList<Element> {
        let earlier = unevaluatedSegments ?? Segments(self, after: nil)
        return LazyList(stage: ConcatStage(), upstream: Segments(other, after: earlier)).keepingEagerness(of: self)
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
        var segments: Segments<Element>?
        for list in lists { segments = Segments(list, after: segments) }
        guard let segments else { return .empty }
        return LazyList(stage: ConcatStage(), upstream: segments)
    }

    /// A list of `value`, then this list's elements.
    ///
    /// RAC 2.5: `-startWith:`.
    public func startWith(_ value: Element) -> LazyList<Element> {
        LazyList(head: value, tail: self, eager: evaluatesEagerly)
    }

    /// This node's parts when it is a `concat` that nothing has evaluated yet.
    private var unevaluatedSegments: Segments<Element>? {
        gate.withLock { _ in
            guard stage is ConcatStage<Element>, let segments = upstream else { return nil }
            return unsafeDowncast(segments, to: Segments<Element>.self)
        }
    }

    /// The first element of `segments`' lists, in order, and a node for the rest.
    static func concatenating(_ segments: Segments<Element>) -> (Element, LazyList<Element>)? {
        // Segments run from the last list to the first; turn them around once.
        var parts: Parts<Element>?
        var segment: Segments<Element>? = segments
        while let each = segment {
            parts = Parts(each.list, then: parts)
            segment = each.earlier
        }
        guard let first = parts else { return nil }
        return concatenating(first.list, then: first.next)
    }

    /// The first element of `current`, or of the first non-empty list after it, and a node for
    /// the rest.
    static func concatenating(_ current: LazyList<Element>, then rest: Parts<Element>?) -> (Element, LazyList<Element>)? {
        var current = current
        var rest = rest
        while current.evaluate() & Known.ended != 0 {
            guard let next = rest else { return nil }
            current = next.list
            rest = next.next
        }
        let (head, tail) = current.evaluatedParts
        return (head, LazyList(step: { [rest] in concatenating(tail, then: rest) }))
    }
}

/// The step of an unevaluated `concat`, whose input is its ``Segments``. A `concat` of such a node
/// recognizes it by this class and joins its segments.
final class ConcatStage<Element>: Stage<Element>, @unchecked Sendable {
    init() {
        super.init { segments, _ in
            LazyList.concatenating(unsafeDowncast(segments, to: Segments<Element>.self))
        }
    }
}

/// The lists of an unevaluated `concat`, from the last to the first, so that adding one more to
/// the end shares the others.
final class Segments<Element>: @unchecked Sendable {
    let list: LazyList<Element>
    /// The lists before this one. Set at init; `deinit` takes it out to release a long chain in a
    /// loop.
    private(set) var earlier: Segments<Element>?

    init(_ list: LazyList<Element>, after earlier: Segments<Element>?) {
        self.list = list
        self.earlier = earlier
    }

    deinit {
        guard var next = earlier else { return }
        earlier = nil
        while isKnownUniquelyReferenced(&next), let after = next.earlier {
            next.earlier = nil
            next = after
        }
    }
}

/// The lists still to come in an evaluated `concat`, from the next to the last; each node of the
/// result holds only what is after it.
final class Parts<Element>: @unchecked Sendable {
    let list: LazyList<Element>
    private(set) var next: Parts<Element>?

    init(_ list: LazyList<Element>, then next: Parts<Element>?) {
        self.list = list
        self.next = next
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
