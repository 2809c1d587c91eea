/// An ordered collection of elements that each come with a token for removing them.
///
/// `insert` is O(1) amortized, `remove(token)` O(log n) (tokens increase, so a binary search
/// finds them), and iteration follows insertion order, as a subject's subscribers expect. Removal
/// leaves a hole; holes are compacted away once they are half the storage.
package struct Bag<Element> {
    /// A ticket for removing an element.
    package struct Token: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private var entries: [(token: UInt64, element: Element?)] = []
    private var nextToken: UInt64 = 0
    private var holes = 0

    package init() {}

    /// Whether the bag holds no element.
    package var isEmpty: Bool { entries.count == holes }

    /// Adds `element` at the end.
    package mutating func insert(_ element: Element) -> Token {
        defer { nextToken += 1 }
        entries.append((nextToken, element))
        return Token(value: nextToken)
    }

    /// Removes and returns the element of `token`, or `nil` when it was removed already.
    @discardableResult
    package mutating func remove(_ token: Token) -> Element? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].token < token.value { low = middle + 1 } else { high = middle }
        }
        guard low < entries.count, entries[low].token == token.value, let element = entries[low].element else {
            return nil
        }
        entries[low].element = nil
        holes += 1
        if holes * 2 >= entries.count { compact() }
        return element
    }

    /// Removes every element.
    package mutating func removeAll() {
        entries.removeAll()
        holes = 0
    }

    /// The elements, in insertion order: a copy-on-write snapshot, so taking it under a lock and
    /// iterating it after unlocking costs no allocation.
    package var elements: Snapshot {
        Snapshot(entries: entries)
    }

    /// The elements of a bag at one moment, in insertion order.
    package struct Snapshot: Sequence {
        fileprivate let entries: [(token: UInt64, element: Element?)]

        package func makeIterator() -> Iterator {
            Iterator(entries: entries)
        }

        package struct Iterator: IteratorProtocol {
            fileprivate let entries: [(token: UInt64, element: Element?)]
            fileprivate var index = 0

            package mutating func next() -> Element? {
                while index < entries.count {
                    defer { index += 1 }
                    if let element = entries[index].element { return element }
                }
                return nil
            }
        }
    }

    private mutating func compact() {
        if holes == entries.count {
            // Empty again (a subscription that came and went): keep the storage for the next one.
            entries.removeAll(keepingCapacity: true)
        } else {
            entries.removeAll { $0.element == nil }
        }
        holes = 0
    }
}
