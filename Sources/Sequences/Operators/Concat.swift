import Disposables

extension LazyList {
    /// This list's elements, then `other`'s. Nothing is evaluated until pulled.
    ///
    /// A chain of `concat`s, however long and however nested (`a.concat(b).concat(c)…`,
    /// `a.concat(b.concat(c))`, …), is walked in a loop: a `concat` of a list that is itself an
    /// unevaluated `concat` joins its parts instead of wrapping it, and one met among the lists is
    /// opened up when the walk reaches it.
    ///
    /// A list used as a queue, `queue = queue.tail.concat(.return(value))` after reading
    /// `queue.head`, costs a constant time per element taken and per element added, amortized over
    /// the queue's life, however long it grows (reading an old version of the queue again may
    /// cost more).
    ///
    /// RAC 2.5: `-concat:`.
    @inlinable
    public func concat(_ other: LazyList<Element>) -> LazyList<Element> {
        // A `concat` onto an unevaluated `concat` shares its stage and its lists.
        if let (stage, input) = unevaluatedConcat {
            let joined = ConcatInput(input.current, then: Segments.joining(input.rest, Segments(other)))
            return LazyList(stage: stage, upstream: joined).keepingEagerness(of: self)
        }
        return LazyList(stage: Self.concatStage(), upstream: ConcatInput(self, then: Segments(other))).keepingEagerness(of: self)
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
        var iterator = lists.makeIterator()
        guard let first = iterator.next() else { return .empty }
        var rest: [AnyObject] = []
        while let list = iterator.next() { rest.append(list) }
        return LazyList(stage: concatStage(), upstream: ConcatInput(first, then: Segments.chain(rest)))
    }

    /// A list of `value`, then this list's elements.
    ///
    /// RAC 2.5: `-startWith:`.
    public func startWith(_ value: Element) -> LazyList<Element> {
        LazyList(head: value, tail: self, eager: evaluatesEagerly)
    }

    /// This node's stage and input, when it is a `concat` (or the rest of one) that nothing has
    /// evaluated yet: walking the input's lists gives this node's elements, without nesting one
    /// `concat` inside another.
    @inlinable
    var unevaluatedConcat: (stage: Stage<Element>, input: ConcatInput)? {
        var stage: Stage<Element>?
        // Only `concat` nodes read a `ConcatInput`; a node being evaluated has given its input up.
        let input = gate.withLock { _ -> ConcatInput? in
            guard let input = upstream as? ConcatInput else { return nil }
            stage = self.stage
            return input
        }
        guard let input, let stage else { return nil }
        return (stage, input)
    }

    /// The stage of a `concat`: its nodes read a ``ConcatInput``, which is how a `concat` of such
    /// a node, or a `concat` that meets one among its lists, recognizes it and opens it up.
    ///
    /// The step gives the first element of the current list, or of the first non-empty list after
    /// it, and a node for the rest. Unevaluated `concat`s met on the way are opened up (see
    /// `unevaluatedConcat`), so however the `concat`s nest, a node is computed in a loop.
    @inlinable
    static func concatStage() -> Stage<Element> {
        Stage("concat(_:)", dependency: { upstream in
            // The list the step evaluates first: the current one, or when it is used up, the next.
            let input = unsafeDowncast(upstream, to: ConcatInput.self)
            let current = unsafeDowncast(input.current, to: LazyList<Element>.self)
            guard current.isKnownEmpty else { return current }
            return input.rest.map { unsafeDowncast($0.popFirst().list, to: LazyList<Element>.self) }
        }) { upstream, stage, nesting in
            let input = unsafeDowncast(consume upstream, to: ConcatInput.self)
            var current = unsafeDowncast(input.current, to: LazyList<Element>.self)
            var rest = input.rest
            _ = consume input
            while true {
                if !current.isEvaluated, let (_, inner) = current.unevaluatedConcat {
                    current = unsafeDowncast(inner.current, to: LazyList<Element>.self)
                    rest = Segments.joining(inner.rest, rest)
                    continue
                }
                if current.evaluate(nesting: nesting) & Known.ended == 0 { break }
                guard let segments = rest else { return nil }
                let (next, after) = segments.popFirst()
                current = unsafeDowncast(next, to: LazyList<Element>.self)
                rest = after
            }
            let (head, tail) = current.evaluatedParts
            return (head, LazyList(stage: stage, upstream: ConcatInput(tail, then: rest)))
        }
    }
}

/// Where a `concat` node stands: in `current`, then the lists of `rest`. The lists are kept as
/// `AnyObject`s (each a `LazyList` of the `concat`'s element type) so that this class and
/// ``Segments`` are not generic: a generic class's metadata is looked up at run time wherever
/// the code is not specialized (a deinit, or `Teardown`).
@usableFromInline
final class ConcatInput: @unchecked Sendable {
    @usableFromInline let current: AnyObject
    @usableFromInline let rest: Segments?

    @inlinable
    init(_ current: AnyObject, then rest: Segments?) {
        self.current = current
        self.rest = rest
    }
}

/// The lists still to come in a `concat`, in order: an immutable binary tree whose leaves are the
/// lists, read from left to right, shared between the nodes and versions of a list.
///
/// Joining two sequences of lists, and adding one list at the end, make one node, so a `concat`
/// onto a `concat`, however long, costs a constant time; so does taking the first list, amortized
/// (see ``popFirst()``).
@usableFromInline
final class Segments: @unchecked Sendable {
    /// The list of a leaf (a `LazyList`, see ``ConcatInput``); `nil` for a join.
    let list: AnyObject?
    /// The two sides of a join; `nil` for a leaf. Set at init; `deinit` takes them out to release
    /// a deep tree in a loop.
    private var left: Segments?
    private var right: Segments?

    /// A leaf: `list` alone.
    @usableFromInline
    init(_ list: AnyObject) {
        self.list = list
    }

    /// A join: the lists of `left`, then those of `right`.
    private init(_ left: Segments, _ right: Segments) {
        list = nil
        self.left = left
        self.right = right
    }

    /// The lists of `first`, then those of `second`.
    @usableFromInline
    static func joining(_ first: Segments?, _ second: Segments?) -> Segments? {
        guard let first else { return second }
        guard let second else { return first }
        return Segments(first, second)
    }

    /// `lists` as a tree whose first list is always at the top: `(a (b (c d)))`, so that taking
    /// each list turns nothing; `nil` when there is none.
    static func chain(_ lists: [AnyObject]) -> Segments? {
        guard var tree = lists.last.map(Segments.init) else { return nil }
        for list in lists.dropLast().reversed() { tree = Segments(Segments(list), tree) }
        return tree
    }

    /// The first list, and the lists after it.
    ///
    /// The left spine from the root down to the first list is turned into a right one on the
    /// way: `(((a b) c) d)` gives `a` and `(b (c d))`. Later takes then find their lists near the
    /// top, so each join is passed on a left spine once: a constant time per list taken, amortized
    /// over the takes and the `concat`s of a version's use (a version taken from again turns its
    /// spine again).
    @usableFromInline
    func popFirst() -> (list: AnyObject, rest: Segments?) {
        guard var spine = left, let right else { return (list.unsafelyUnwrapped, nil) }
        var rest = right
        while let inner = spine.left, let after = spine.right {
            rest = Segments(after, rest)
            spine = inner
        }
        return (spine.list.unsafelyUnwrapped, rest)
    }

    deinit {
        // A tree can be as deep as the lists are many (a million `concat`s onto one): releasing a
        // side that only this node holds would release its sides from inside its deinit, and so on.
        // Here the sides that only this node holds are taken apart in a loop instead: one at a
        // time, and the other of two on a stack. (The sides change only here, on nodes nothing
        // else holds: to every other reader they never change.)
        var stack: [Segments] = []
        var next = Self.takeSides(of: self, stacking: &stack)
        while let tree = next ?? stack.popLast() {
            next = Self.takeSides(of: tree, stacking: &stack)
        }
    }

    /// Takes the sides of `tree` out, lets go of those something else holds, and returns one that
    /// nothing else holds, after pushing the other onto `stack` if it is one too.
    private static func takeSides(of tree: Segments, stacking stack: inout [Segments]) -> Segments? {
        var kept: Segments?
        if var side = tree.left.take(), isKnownUniquelyReferenced(&side) { kept = side }
        if var side = tree.right.take(), isKnownUniquelyReferenced(&side) {
            if let other = kept { stack.append(other) }
            kept = side
        }
        return kept
    }
}
