extension LazyList: Equatable where Element: Equatable {
    /// Whether both lists have equal elements in the same order. Walks both lists as far as they
    /// agree (both must be finite to be found equal); a list is equal to itself at once. A list
    /// nothing else holds is released as the walk passes its nodes.
    ///
    /// RAC 2.5: `-isEqual:`.
    public static func == (lhs: consuming LazyList<Element>, rhs: consuming LazyList<Element>) -> Bool {
        if lhs === rhs { return true }
        var left = Iterator(consume lhs)
        var right = Iterator(consume rhs)
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case let (l?, r?) where l == r: continue
            default: return false
            }
        }
    }
}

extension LazyList: Hashable where Element: Hashable {
    /// Hashes every element in order, so equal lists hash alike (the list must be finite).
    ///
    /// RAC 2.5: `-hash` (which hashed the head only).
    public func hash(into hasher: inout Hasher) {
        var count = 0
        for element in self {
            hasher.combine(element)
            count += 1
        }
        hasher.combine(count)
    }
}

extension LazyList: CustomStringConvertible {
    /// The elements evaluated so far from the head, then `…` if the list goes on (nothing is
    /// evaluated to describe a list).
    public var description: String {
        var shown: [String] = []
        var node = self
        while true {
            let bits = node.known.load(ordering: .acquiring)
            if bits & Known.ended != 0 { return "LazyList(\(shown.joined(separator: ", ")))" }
            guard bits & Known.all == Known.all else { break }
            let (head, tail) = node.evaluatedParts
            shown.append(String(describing: head))
            node = tail
        }
        return "LazyList(\((shown + ["…"]).joined(separator: ", ")))"
    }
}
