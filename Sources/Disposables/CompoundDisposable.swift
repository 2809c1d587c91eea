/// A disposable that disposes many others together.
///
/// Disposal disposes every child exactly once, in the order the children were added, whatever was
/// removed in between; a compound made with a block runs that block first, as its first child.
/// Children are disposed outside the lock, so a child's action may add to or remove from this
/// compound, or dispose it, without deadlocking.
///
/// Compounds may nest to any depth: a compound holding a compound holding a compound, a million
/// levels down (as a signal that subscribes to itself once per page builds them), is disposed, and
/// released, in constant stack. Past a few levels nested on one thread, a nested compound's children
/// are put off and disposed by the outermost `dispose()` on that thread, in the same order, before
/// it returns.
///
/// Children are kept as RAC keeps them: the first two in inline slots, the rest in a slot array,
/// in the order they were added; a removed child leaves a hole that is compacted away later. A
/// child remembers its slot in the first compound that stores it there, and other compounds keep
/// a table of theirs, so ``remove(_:)`` is O(1) amortized whatever the order and whatever other
/// compounds hold the child; ``add(_:)`` is O(1) amortized. A disposable added more than once is
/// held once per ``add(_:)``, and ``remove(_:)`` takes every one out, as RAC 2.5 does.
///
/// ```swift
/// let subscriptions = CompoundDisposable { print("block") }
/// let a = Disposable { print("a") }
/// subscriptions.add(a)
/// subscriptions.add(Disposable { print("b") })
/// subscriptions.remove(a)
/// subscriptions.add(Disposable { print("c") })
/// subscriptions.dispose()   // prints "block", "b", "c"
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
    /// disposes the children added later, in order.
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

    /// Removes `disposable` without disposing it, however many times it was added; does nothing
    /// when it is not a child. The compound no longer holds it.
    ///
    /// ```swift
    /// let subscriptions = CompoundDisposable()
    /// let request = Disposable { print("cancelled") }
    /// subscriptions.add(request)
    /// subscriptions.add(request)
    /// subscriptions.remove(request)
    /// subscriptions.dispose()   // prints nothing
    /// ```
    ///
    /// RAC 2.5: `-removeDisposable:`, which removes every occurrence too.
    public func remove(_ disposable: Disposable?) {
        guard let disposable else { return }
        // The compound's references to it go inside the lock, but none of them is the last: the
        // caller holds `disposable` until this returns, so no deinit runs under the lock.
        children.withLock { $0.remove(disposable, owner: identity) }
    }

    /// Runs the action given at init, if any, then disposes every child exactly once, in the order
    /// they were added.
    ///
    /// However deeply compounds nest, this runs in constant stack: past a few holders disposing
    /// nested on this thread, a nested compound puts its children off, and the outermost
    /// `dispose()` on the thread disposes them, in order, before it returns.
    ///
    /// RAC 2.5: `-dispose`.
    public override func dispose() {
        guard markDisposed() else { return }
        // Made from the lock's result: no other copy of the children shares their storage, which
        // the disposal empties as it goes.
        var disposal = Disposal(children.withLock { children in
            defer { children = Children() }
            return children
        })
        // The block given at init is the first child, as in RAC 2.5: it runs first.
        runAction()
        if disposal.isEmpty { return }
        Trampoline.dispose(&disposal)
    }

    deinit {
        // A disposed compound has taken its children out already.
        if isDisposed { return }
        var held: Children? = children.withLock { children in
            defer { children = Children() }
            children.releaseClaims(owner: identity)
            return children
        }
        if held.unsafelyUnwrapped.isEmpty { return }
        // Children that are compounds release theirs from their deinits: a chain of them goes
        // through the trampoline, in constant stack.
        Trampoline.release { held.take().unsafelyUnwrapped }
    }

    /// How many children the compound holds now: for tests that check it lets go of them.
    ///
    /// Not named `count`: the compiler would show it, as "inaccessible", to a user who reads
    /// RxSwift's `CompositeDisposable.count`.
    package var childCount: Int {
        children.withLock { $0.count }
    }

    /// How many slots of the array the compound keeps, holes included: for tests that check it
    /// reclaims them.
    package var storedSlots: Int {
        children.withLock { $0.slots.count }
    }

    /// The compound's address: what a child's `slotOwner` holds when this compound claimed it.
    private var identity: UInt {
        UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
    }
}

/// The children of a compound, in the order they were added: two inline slots, then a slot array.
///
/// The inline slots hold the oldest children: a child goes inline only while the array holds
/// none, and removing `first` moves `second` up, so `first`, `second`, then the array is always
/// the order of addition. The array only ever appends; a removed child leaves a hole, and once
/// holes are more than half of it, the array is compacted in order, its children's recorded
/// slots rewritten (O(1) amortized per removal).
///
/// A child in the slot array records its slot itself when it is not recorded in another compound
/// already (a claim on its `slotOwner`); otherwise the slot goes in `unclaimed`, by identity. A
/// child added again while it is here is held again: its later slots go in `unclaimed` (its claim,
/// if it holds one here, records the first), so that `remove` finds every one.
/// A claim can outlive its compound, and a new compound can reuse the address, so a recorded slot
/// is trusted only when that slot was claimed and holds the child.
private struct Children {
    var first: Disposable?
    var second: Disposable?
    var slots: [Slot] = []
    /// How many slots are holes.
    var holes = 0
    var unclaimed: [ObjectIdentifier: SlotList] = [:]

    struct Slot {
        var child: Disposable?
        /// Whether the child records this slot itself (this compound holds its claim).
        var isClaimed: Bool
        /// For a claimed slot: whether the child has other slots here, kept in `unclaimed`.
        var hasDuplicates = false
    }

    /// The slots of one child that it does not record itself, in ascending order. Nearly always
    /// one, kept without an array.
    enum SlotList {
        case one(Int)
        case many([Int])

        var slots: [Int] {
            switch self {
            case let .one(slot): [slot]
            case let .many(slots): slots
            }
        }

        func appending(_ slot: Int) -> SlotList {
            switch self {
            case let .one(first): .many([first, slot])
            case let .many(slots): .many(slots + [slot])
            }
        }

        /// The list with `old` renumbered `new`, for a compaction, which keeps the order.
        func moving(_ old: Int, to new: Int) -> SlotList {
            switch self {
            case .one: return .one(new)
            case var .many(slots):
                if let index = slots.firstIndex(of: old) { slots[index] = new }
                return .many(slots)
            }
        }
    }

    var count: Int {
        (first == nil ? 0 : 1) + (second == nil ? 0 : 1) + slots.count - holes
    }

    var isEmpty: Bool {
        first == nil && second == nil && slots.count == holes
    }

    mutating func insert(_ disposable: Disposable, owner: UInt) {
        if slots.isEmpty, second == nil {
            if first == nil { first = disposable } else { second = disposable }
            return
        }
        let slot = slots.count
        let (isClaimed, holder) = disposable.slotOwner
            .compareExchange(expected: 0, desired: owner, ordering: .acquiringAndReleasing)
        if isClaimed {
            disposable.slotIndex.store(slot, ordering: .relaxed)
            // Added before, while another compound held its claim: those slots are in `unclaimed`.
            let hasDuplicates = !unclaimed.isEmpty && unclaimed[ObjectIdentifier(disposable)] != nil
            slots.append(Slot(child: disposable, isClaimed: true, hasDuplicates: hasDuplicates))
        } else {
            // Here already, with its claim: that slot tells `remove` to look in `unclaimed` too.
            if holder == owner, let claimed = claimedSlot(of: disposable) { slots[claimed].hasDuplicates = true }
            let key = ObjectIdentifier(disposable)
            unclaimed[key] = unclaimed[key]?.appending(slot) ?? SlotList.one(slot)
            slots.append(Slot(child: disposable, isClaimed: false))
        }
    }

    /// The slot `disposable` records as its own here, if it holds a claim on one that holds it.
    private func claimedSlot(of disposable: Disposable) -> Int? {
        let slot = disposable.slotIndex.load(ordering: .relaxed)
        guard slots.indices.contains(slot), slots[slot].isClaimed, slots[slot].child === disposable else { return nil }
        return slot
    }

    /// Takes every occurrence of `disposable` out.
    mutating func remove(_ disposable: Disposable, owner: UInt) {
        if second === disposable { second = nil }
        // `second` moves up, so that a child added later goes after it.
        if first === disposable { first = second.take() }
        if slots.isEmpty { return }
        let before = holes
        // Without its claim here, any of its slots may be in `unclaimed`.
        var hasDuplicates = true
        if disposable.slotOwner.load(ordering: .acquiring) == owner, let slot = claimedSlot(of: disposable) {
            hasDuplicates = slots[slot].hasDuplicates
            disposable.slotOwner.store(0, ordering: .releasing)
            empty(slot)
        }
        if hasDuplicates, !unclaimed.isEmpty,
           let list = unclaimed.removeValue(forKey: ObjectIdentifier(disposable)) {
            for slot in list.slots where slots.indices.contains(slot) && slots[slot].child === disposable {
                empty(slot)
            }
        }
        if holes == before { return }
        if holes == slots.count {
            // Empty again: start over, so the next children may go inline again.
            slots.removeAll(keepingCapacity: true)
            holes = 0
            unclaimed.removeAll()
        } else if holes * 2 > slots.count {
            compact()
        }
    }

    /// Makes `slot` a hole.
    private mutating func empty(_ slot: Int) {
        slots[slot] = Slot(child: nil, isClaimed: false)
        holes += 1
    }

    /// Closes the holes, keeping the children in order, and records their new slots.
    private mutating func compact() {
        // Out of `self` for the loop, which also updates `unclaimed`.
        var slots: [Slot] = []
        swap(&slots, &self.slots)
        let kept = slots.withUnsafeMutableBufferPointer { slots in
            var kept = 0
            for index in slots.indices where slots[index].child != nil {
                if index != kept {
                    if slots[index].isClaimed {
                        slots[index].child.unsafelyUnwrapped.slotIndex.store(kept, ordering: .relaxed)
                    } else {
                        let key = ObjectIdentifier(slots[index].child.unsafelyUnwrapped)
                        unclaimed[key] = unclaimed[key]?.moving(index, to: kept)
                    }
                    // `kept` holds a hole: swapping moves the child there, with no reference
                    // counting, and leaves the hole at `index`.
                    slots.swapAt(kept, index)
                }
                kept += 1
            }
            return kept
        }
        // Only holes are left past `kept`: nothing is released here.
        slots.removeLast(slots.count - kept)
        swap(&slots, &self.slots)
        holes = 0
    }

    /// Gives up the claims this compound holds, for children that outlive it.
    mutating func releaseClaims(owner: UInt) {
        for index in slots.indices where slots[index].isClaimed {
            slots[index].child?.slotOwner.store(0, ordering: .releasing)
            slots[index].isClaimed = false
        }
    }
}

/// The children a disposal took out, in the order they were added; each is let go of (and its
/// claim given up) as it is handed out.
private struct Disposal: IteratorProtocol {
    private var children: Children
    private var index = 0

    init(_ children: consuming Children) {
        self.children = children
    }

    var isEmpty: Bool { children.isEmpty }

    mutating func next() -> Disposable? {
        if let first = children.first.take() { return first }
        if let second = children.second.take() { return second }
        while index < children.slots.count {
            defer { index += 1 }
            guard let child = children.slots[index].child.take() else { continue }
            if children.slots[index].isClaimed { child.slotOwner.store(0, ordering: .releasing) }
            return child
        }
        return nil
    }
}
