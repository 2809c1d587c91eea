/// A disposable that disposes many others together.
///
/// Children are kept as RAC keeps them: the first two in inline slots, the rest in a slot array
/// with a free list. A child remembers its slot in the first compound that stores it there, and
/// other compounds keep a table of theirs, so ``remove(_:)`` is O(1) whatever the order and
/// whatever other compounds hold the child; ``add(_:)`` is O(1) amortized. Children are disposed outside the lock, so a child's action
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

    /// A compound disposable whose first child runs `action`: disposal runs `action` first, then
    /// disposes the children added later.
    ///
    /// RAC 2.5: `+[RACCompoundDisposable disposableWithBlock:]`, which makes the block a
    /// ``Disposable`` and the compound's first child. Here the block is kept as the compound's own
    /// action (there is nothing to remove it by), which saves a child.
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
            children.insert(disposable, owner: identity)
            return true
        }
        if !accepted { disposable.dispose() }
    }

    /// Adds `subscription` for as long as it runs: it is disposed with this compound, and removed
    /// from it once it is disposed by itself, so that a subscriber of many subscriptions, one after
    /// another, does not keep those that ended. Disposed at once if this compound is disposed.
    package func addWhileRunning(_ subscription: CompoundDisposable) {
        if subscription.isDisposed { return }
        add(subscription)
        // The action is the subscription's own child, so it never outlives it: `unowned` avoids
        // a cycle.
        subscription.add(Disposable { [weak self, unowned subscription] in self?.remove(subscription) })
    }

    /// Removes `disposable` without disposing it; does nothing when it is not a child.
    ///
    /// RAC 2.5: `-removeDisposable:`.
    public func remove(_ disposable: Disposable?) {
        guard let disposable else { return }
        // The removed child is released here, after the lock: its deinit may run user code.
        let removed = children.withLock { $0.remove(disposable, owner: identity) }
        _ = removed
    }

    /// Runs the action given at init, if any, then disposes every child exactly once.
    ///
    /// RAC 2.5: `-dispose`.
    public override func dispose() {
        guard markDisposed() else { return }
        var taken = children.withLock { children in
            defer { children = Children() }
            return children
        }
        // The block given at init is the first child, as in RAC 2.5: it runs first.
        runAction()
        taken.disposeAll(owner: identity)
    }

    /// How many children the compound holds now: for tests that check it lets go of them.
    package var count: Int {
        children.withLock { $0.count }
    }

    /// The compound's address: what a child's `slotOwner` holds when this compound claimed it.
    private var identity: UInt {
        UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
    }
}

/// The children of a compound: two inline slots, then a slot array with a free list.
///
/// A child in the slot array records its slot itself when it is not recorded in another compound
/// already (a claim on its `slotOwner`); otherwise the slot goes in `unclaimed`, by identity.
/// A claim can outlive its compound, and a new compound can reuse the address, so a recorded slot
/// is trusted only when it holds the child.
private struct Children {
    var first: Disposable?
    var second: Disposable?
    var slots: [Disposable?] = []
    var freeSlots: [Int] = []
    var unclaimed: [ObjectIdentifier: Int] = [:]

    var count: Int {
        (first == nil ? 0 : 1) + (second == nil ? 0 : 1) + slots.count - freeSlots.count
    }

    mutating func insert(_ disposable: Disposable, owner: UInt) {
        if first == nil {
            first = disposable
        } else if second == nil {
            second = disposable
        } else {
            let slot: Int
            if let free = freeSlots.popLast() {
                slot = free
                slots[slot] = disposable
            } else {
                slot = slots.count
                slots.append(disposable)
            }
            if disposable.slotOwner.compareExchange(expected: 0, desired: owner, ordering: .acquiringAndReleasing).exchanged {
                disposable.slotIndex.store(slot, ordering: .relaxed)
            } else {
                unclaimed[ObjectIdentifier(disposable)] = slot
            }
        }
    }

    /// Takes `disposable` out and returns it, or returns `nil` when it is not here.
    mutating func remove(_ disposable: Disposable, owner: UInt) -> Disposable? {
        if first === disposable {
            defer { first = nil }
            return first
        }
        if second === disposable {
            defer { second = nil }
            return second
        }
        guard let slot = slot(of: disposable, owner: owner) else { return nil }
        defer {
            slots[slot] = nil
            if freeSlots.count + 1 == slots.count {
                // Empty again: start over so the arrays do not keep the high-water mark's indices.
                slots.removeAll(keepingCapacity: true)
                freeSlots.removeAll(keepingCapacity: true)
                unclaimed.removeAll()
            } else {
                freeSlots.append(slot)
            }
        }
        return slots[slot]
    }

    /// The slot of `disposable` in the array, releasing the claim or the table entry that
    /// recorded it.
    private mutating func slot(of disposable: Disposable, owner: UInt) -> Int? {
        if disposable.slotOwner.load(ordering: .acquiring) == owner {
            let slot = disposable.slotIndex.load(ordering: .relaxed)
            if slots.indices.contains(slot), slots[slot] === disposable {
                disposable.slotOwner.store(0, ordering: .releasing)
                return slot
            }
        }
        return unclaimed.removeValue(forKey: ObjectIdentifier(disposable))
    }

    /// Disposes the children in the order they were added, releasing each one (and its claim) as
    /// it goes.
    mutating func disposeAll(owner: UInt) {
        first.take()?.dispose()
        second.take()?.dispose()
        for index in slots.indices {
            guard let child = slots[index].take() else { continue }
            _ = child.slotOwner.compareExchange(expected: owner, desired: 0, ordering: .acquiringAndReleasing)
            child.dispose()
        }
    }
}
