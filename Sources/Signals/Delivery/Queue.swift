/// A first-in-first-out queue on a ring buffer: `append` and `popFirst` in O(1) amortized, with
/// no shifting and no allocation while it stays within its capacity.
///
/// Once it empties, a queue that grew large (a burst of reentrant sends, say) gives its storage
/// back.
///
/// `@usableFromInline`, with its hot members `@inlinable`, so that code specialized in a client
/// (the iterator of `SignalValues`) buffers without looking up generic metadata per element.
@usableFromInline
struct Queue<Element> {
    @usableFromInline var storage: [Element?] = []
    /// The index of the first element in `storage`.
    @usableFromInline var head = 0
    /// How many elements the queue holds.
    @usableFromInline var count = 0

    @inlinable init() {}

    /// The capacity a queue keeps when it empties.
    @usableFromInline static var retainedCapacity: Int { 1_024 }

    @inlinable var isEmpty: Bool {
        @inline(__always) get { count == 0 }
    }

    @inlinable mutating func append(_ element: Element) {
        if count == storage.count { grow() }
        storage[(head + count) & (storage.count - 1)] = element
        count += 1
    }

    @inlinable mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head].take()
        head = (head + 1) & (storage.count - 1)
        count -= 1
        if count == 0 {
            head = 0
            if storage.count > Self.retainedCapacity { storage = [] }
        }
        return element
    }

    mutating func removeAll() {
        storage = []
        head = 0
        count = 0
    }

    /// Doubles the capacity (a power of two, so an index wraps with a mask), keeping the order.
    @usableFromInline mutating func grow() {
        let capacity = Swift.max(8, storage.count * 2)
        var grown = [Element?](repeating: nil, count: capacity)
        for offset in 0..<count {
            grown[offset] = storage[(head + offset) & (storage.count - 1)].take()
        }
        storage = grown
        head = 0
    }
}
