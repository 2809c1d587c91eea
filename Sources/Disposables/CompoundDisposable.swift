/// A disposable that disposes many others together.
///
/// Children are kept as RAC keeps them: the first two in inline slots, the rest in a slot array
/// with a free list. Each child remembers its slot, so ``remove(_:)`` is O(1) whatever the order,
/// and ``add(_:)`` is O(1) amortized. Children are disposed outside the lock, so a child's action
/// may add to or remove from this compound, or dispose it, without deadlocking.
///
/// ```swift
/// let subscriptions = CompoundDisposable()
/// subscriptions.add(Disposable { print("a") })
/// subscriptions.add(Disposable { print("b") })
/// subscriptions.dispose()   // prints "a", "b"
/// ```
///
/// RAC 2.5: `RACCompoundDisposable`.
public final class CompoundDisposable: Disposable, @unchecked Sendable {
    private let children = Lock(Children())

    /// An empty compound disposable.
    ///
    /// RAC 2.5: `+compoundDisposable`.
    public override init() {
        super.init()
    }

    /// A compound disposable holding `disposables`.
    ///
    /// RAC 2.5: `+compoundDisposableWithDisposables:`.
    public init(_ disposables: some Sequence<Disposable>) {
        super.init()
        for disposable in disposables { add(disposable) }
    }

    /// An empty compound disposable whose `action` runs after its children are disposed.
    ///
    /// RAC 2.5: `+[RACCompoundDisposable disposableWithBlock:]`.
    public override init(_ action: @escaping @Sendable () -> Void) {
        super.init(action)
    }

    /// Adds `disposable`, to be disposed with this compound.
    ///
    /// `nil` and an already disposed disposable are ignored. When this compound is already
    /// disposed, `disposable` is disposed at once instead.
    ///
    /// RAC 2.5: `-addDisposable:`.
    public func add(_ disposable: consuming Disposable?) {
        guard let disposable = disposable.take(), !disposable.isDisposed else { return }
        let accepted = children.withLock { children in
            // `dispose()` marks before it locks, so an add it has not yet seen reads true here.
            if isDisposed { return false }
            children.insert(disposable)
            return true
        }
        if !accepted { disposable.dispose() }
    }

    /// Removes `disposable` without disposing it; does nothing when it is not a child.
    ///
    /// RAC 2.5: `-removeDisposable:`.
    public func remove(_ disposable: Disposable?) {
        guard let disposable else { return }
        // The removed child is released here, after the lock: its deinit may run user code.
        let removed = children.withLock { $0.remove(disposable) }
        _ = removed
    }

    /// Disposes every child exactly once, then runs the action given at init, if any.
    ///
    /// RAC 2.5: `-dispose`.
    public override func dispose() {
        guard markDisposed() else { return }
        var taken = children.withLock { children in
            defer { children = Children() }
            return children
        }
        taken.disposeAll()
        runAction()
    }
}

/// The children of a compound: two inline slots, then a slot array with a free list.
private struct Children {
    var first: Disposable?
    var second: Disposable?
    var slots: [Disposable?] = []
    var freeSlots: [Int] = []

    mutating func insert(_ disposable: Disposable) {
        if first == nil {
            first = disposable
        } else if second == nil {
            second = disposable
        } else if let slot = freeSlots.popLast() {
            slots[slot] = disposable
            disposable.compoundSlot.store(slot, ordering: .relaxed)
        } else {
            disposable.compoundSlot.store(slots.count, ordering: .relaxed)
            slots.append(disposable)
        }
    }

    /// Takes `disposable` out and returns it, or returns `nil` when it is not here.
    mutating func remove(_ disposable: Disposable) -> Disposable? {
        if first === disposable {
            defer { first = nil }
            return first
        }
        if second === disposable {
            defer { second = nil }
            return second
        }
        // The remembered slot is a hint: a disposable added to two compounds remembers the last.
        // One that never had a slot in any compound's array (-1) is not in this one's.
        let hint = disposable.compoundSlot.load(ordering: .relaxed)
        if hint < 0 { return nil }
        let slot = slots.indices.contains(hint) && slots[hint] === disposable
            ? hint
            : slots.firstIndex { $0 === disposable }
        guard let slot else { return nil }
        defer {
            slots[slot] = nil
            if freeSlots.count + 1 == slots.count {
                // Empty again: start over so the arrays do not keep the high-water mark's indices.
                slots.removeAll(keepingCapacity: true)
                freeSlots.removeAll(keepingCapacity: true)
            } else {
                freeSlots.append(slot)
            }
        }
        return slots[slot]
    }

    /// Disposes the children in the order they were added, releasing each one as it goes.
    mutating func disposeAll() {
        first.take()?.dispose()
        second.take()?.dispose()
        for index in slots.indices {
            slots[index].take()?.dispose()
        }
    }
}
