import Disposables

/// A binary min-heap: `insert` and `removeFirst` in O(log n), `first` in O(1).
struct MinHeap<Element: Comparable> {
    private var elements: [Element] = []

    var isEmpty: Bool { elements.isEmpty }
    var count: Int { elements.count }
    var first: Element? { elements.first }

    mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the smallest element; the heap must not be empty.
    mutating func removeFirst() -> Element {
        checkInput(!elements.isEmpty, "MinHeap.removeFirst() needs an element to remove, got an empty heap")
        elements.swapAt(0, elements.count - 1)
        let smallest = elements.removeLast()
        siftDown(from: 0)
        return smallest
    }

    /// Removes every element that satisfies `predicate`, in O(n).
    mutating func removeAll(where predicate: (Element) -> Bool) {
        elements.removeAll(where: predicate)
        for parent in stride(from: elements.count / 2 - 1, through: 0, by: -1) {
            siftDown(from: parent)
        }
    }

    /// Moves the element at `parent` down until neither child is smaller.
    private mutating func siftDown(from parent: Int) {
        var parent = parent
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallestChild = parent
            if left < elements.count, elements[left] < elements[smallestChild] { smallestChild = left }
            if right < elements.count, elements[right] < elements[smallestChild] { smallestChild = right }
            if smallestChild == parent { break }
            elements.swapAt(parent, smallestChild)
            parent = smallestChild
        }
    }
}
