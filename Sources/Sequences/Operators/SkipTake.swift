import Disposables

extension LazyList {
    /// This list without its first `count` elements (all of them when it has fewer).
    ///
    /// RAC 2.5: `-skip:`.
    public func skip(_ count: Int) -> LazyList<Element> {
        checkInput(count >= 0, "LazyList.skip(_:) needs a count of zero or more, got \(count)")
        if count == 0 { return self }
        // A stage, not a block capturing `self`: its input is handed over, so the nodes skipped
        // are let go of as the loop passes them, not all kept until it ends.
        let stage = Stage<Element>("skip(_:)", dependency: LazyList<Element>.listDependency) { upstream, _, nesting in
            var list = unsafeDowncast(consume upstream, to: LazyList<Element>.self)
            for _ in 0..<count {
                guard list.evaluate(nesting: nesting) & Known.ended == 0 else { return nil }
                list = list.evaluatedParts.tail
            }
            return list.evaluate(nesting: nesting) & Known.ended == 0 ? list.evaluatedParts : nil
        }
        return LazyList(stage: stage, upstream: self).keepingEagerness(of: self)
    }

    /// The first `count` elements of this list (all of them when it has fewer). Pulling the last of
    /// them does not evaluate the element after it.
    ///
    /// RAC 2.5: `-take:`.
    public func take(_ count: Int) -> LazyList<Element> {
        checkInput(count >= 0, "LazyList.take(_:) needs a count of zero or more, got \(count)")
        if count == 0 { return LazyList.empty.keepingEagerness(of: self) }
        // Each node's input is where it reads and how many elements are left to take, handed over
        // to the step as `filter`'s is.
        let stage = Stage<Element>("take(_:)", dependency: { unsafeDowncast($0, to: TakeInput<Element>.self).list }) {
            upstream, stage, nesting in
            let input = unsafeDowncast(consume upstream, to: TakeInput<Element>.self)
            guard input.list.evaluate(nesting: nesting) & Known.ended == 0 else { return nil }
            let (head, tail) = input.list.evaluatedParts
            let rest = input.remaining == 1 ? .empty : LazyList(stage: stage, upstream: TakeInput(tail, remaining: input.remaining - 1))
            return (head, rest)
        }
        return LazyList(stage: stage, upstream: TakeInput(self, remaining: count)).keepingEagerness(of: self)
    }

    /// The elements up to, not including, the first that fails `predicate`.
    ///
    /// RAC 2.5: `-takeWhileBlock:`.
    public func take(while predicate: @escaping @Sendable (Element) -> Bool) -> LazyList<Element> {
        takingWhile(predicate).keepingEagerness(of: self)
    }

    /// The elements up to, not including, the first that passes `predicate`.
    ///
    /// RAC 2.5: `-takeUntilBlock:`.
    public func take(untilTrue predicate: @escaping @Sendable (Element) -> Bool) -> LazyList<Element> {
        takingWhile { !predicate($0) }.keepingEagerness(of: self)
    }

    private func takingWhile(_ predicate: @escaping (Element) -> Bool) -> LazyList<Element> {
        let stage = Stage<Element>("take(while:)", dependency: LazyList<Element>.listDependency) { upstream, stage, nesting in
            let list = unsafeDowncast(consume upstream, to: LazyList<Element>.self)
            guard list.evaluate(nesting: nesting) & Known.ended == 0 else { return nil }
            let (head, tail) = list.evaluatedParts
            return predicate(head) ? (head, LazyList(stage: stage, upstream: tail)) : nil
        }
        return LazyList(stage: stage, upstream: self)
    }

    /// The elements from the first that fails `predicate` on.
    ///
    /// RAC 2.5: `-skipWhileBlock:`.
    public func skip(while predicate: @escaping @Sendable (Element) -> Bool) -> LazyList<Element> {
        skippingWhile(predicate).keepingEagerness(of: self)
    }

    /// The elements from the first that passes `predicate` on.
    ///
    /// RAC 2.5: `-skipUntilBlock:`.
    public func skip(untilTrue predicate: @escaping @Sendable (Element) -> Bool) -> LazyList<Element> {
        skippingWhile { !predicate($0) }.keepingEagerness(of: self)
    }

    private func skippingWhile(_ predicate: @escaping (Element) -> Bool) -> LazyList<Element> {
        // A stage, as for `skip(_:)`: the skipped nodes go as the loop passes them.
        let stage = Stage<Element>("skip(while:)", dependency: LazyList<Element>.listDependency) { upstream, _, nesting in
            var list = unsafeDowncast(consume upstream, to: LazyList<Element>.self)
            while list.evaluate(nesting: nesting) & Known.ended == 0 {
                let (head, tail) = list.evaluatedParts
                if !predicate(head) { return (head, tail) }
                list = tail
            }
            return nil
        }
        return LazyList(stage: stage, upstream: self)
    }
}

/// Where a `take(_:)` node reads, and how many elements it has left to take (one or more).
final class TakeInput<Element>: @unchecked Sendable {
    let list: LazyList<Element>
    let remaining: Int

    init(_ list: LazyList<Element>, remaining: Int) {
        self.list = list
        self.remaining = remaining
    }
}
