/// A first-in-first-out queue with O(1) amortized `append` and `popFirst`.
struct Queue<Element> {
    private var elements: [Element?] = []
    private var head = 0

    var isEmpty: Bool { head == elements.count }

    mutating func append(_ element: Element) {
        elements.append(element)
    }

    mutating func popFirst() -> Element? {
        guard head < elements.count else { return nil }
        defer {
            head += 1
            // Reclaim the consumed prefix once it is at least half the storage.
            if head == elements.count {
                elements.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 32, head * 2 >= elements.count {
                elements.removeFirst(head)
                head = 0
            }
        }
        return elements[head].take()
    }
}
