extension LazyList {
    /// This list without its first `count` elements (all of them when it has fewer).
    ///
    /// RAC 2.5: `-skip:`.
    public func skip(_ count: Int) -> LazyList<Element> {
        precondition(count >= 0, "LazyList.skip(_:) needs a count of zero or more, got \(count)")
        if count == 0 { return self }
        // A stage, not a block capturing `self`: its input is handed over, so the nodes skipped
        // are let go of as the loop passes them, not all kept until it ends.
        let stage = Stage<Element> { upstream, _ in
            var list = unsafeDowncast(consume upstream, to: LazyList<Element>.self)
            for _ in 0..<count {
                guard list.evaluate() & Known.ended == 0 else { return nil }
                list = list.evaluatedParts.tail
            }
            return list.evaluate() & Known.ended == 0 ? list.evaluatedParts : nil
        }
        return LazyList(stage: stage, upstream: self).keepingEagerness(of: self)
    }

    /// The first `count` elements of this list (all of them when it has fewer). Pulling the last of
    /// them does not evaluate the element after it.
    ///
    /// RAC 2.5: `-take:`.
    public func take(_ count: Int) -> LazyList<Element> {
        precondition(count >= 0, "LazyList.take(_:) needs a count of zero or more, got \(count)")
        return taking(count).keepingEagerness(of: self)
    }

    private func taking(_ count: Int) -> LazyList<Element> {
        if count == 0 { return .empty }
        return LazyList(step: {
            guard self.evaluate() & Known.ended == 0 else { return nil }
            let (head, tail) = self.evaluatedParts
            return (head, tail.taking(count - 1))
        })
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
        LazyList(step: {
            guard self.evaluate() & Known.ended == 0 else { return nil }
            let (head, tail) = self.evaluatedParts
            return predicate(head) ? (head, tail.takingWhile(predicate)) : nil
        })
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
        let stage = Stage<Element> { upstream, _ in
            var list = unsafeDowncast(consume upstream, to: LazyList<Element>.self)
            while list.evaluate() & Known.ended == 0 {
                let (head, tail) = list.evaluatedParts
                if !predicate(head) { return (head, tail) }
                list = tail
            }
            return nil
        }
        return LazyList(stage: stage, upstream: self)
    }
}
