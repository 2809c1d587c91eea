#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Disposables
import Signals
import Synchronization

/// An immutable, pull-driven, memoised list: RAC 2.5's `RACSequence`.
///
/// A list is a chain of nodes. Each node knows, once it is asked, its ``head`` (the element it
/// holds) and its ``tail`` (the list after it). Nothing is computed until it is pulled: building a
/// chain of operators evaluates nothing, and pulling *n* elements evaluates only what those *n*
/// need. Every head and tail is computed at most once and then kept, so a list can be walked any
/// number of times, from any number of threads, and its blocks still run once (two threads pulling
/// the same head wait for one evaluation).
///
/// ```swift
/// let squares = LazyList(1...).map { $0 * $0 }   // infinite, nothing evaluated yet
/// squares.take(3).array                          // [1, 4, 9]
/// ```
///
/// The end of a list is ``isEmpty``, never a `nil` head, so lists of optionals work: the head of a
/// `LazyList<Int?>` is an `Int??`, and a `nil` element is `.some(nil)`.
///
/// Memory: a node holds its tail once it has been evaluated, so a list that stays referenced keeps
/// everything evaluated from it. A node that nothing references is released at once, and a long
/// chain is released with a bounded nesting of deinits (`Teardown`), not one per node. An iterator
/// (`for … in`) holds only the node it stands on, and so do the methods that walk a list
/// (``foldLeft(_:_:)``, ``any(_:)``, ``all(_:)``, ``first(passing:)``, ``array``, ``eagerSequence``, `==`):
/// they consume the list they are called on, so on a list nothing else holds (a temporary, or a
/// variable passed with `consume`) they let go of each node once they have passed it. A list that
/// something else holds keeps its nodes, evaluated once, for its next walk.
///
/// Depth: evaluating a node of a chain of operators, however many are nested (a hundred thousand
/// `map`s of `map`s, `filter`s, `concat`s, `zip`s, …), runs in a loop past a few levels, not one
/// nested call per operator. What cannot be a loop is a block of the user's that pulls another
/// list (a head or tail block of ``init(head:tail:)``, a ``foldRight(_:_:)`` that looks at its
/// rest): each nests one call. When nesting is about to use up the thread's stack (less than
/// 64 KiB left), evaluation stops the program with a message naming the operator or block,
/// instead of overflowing the stack.
///
/// Threads: a node's blocks run while it holds its own lock, so a second thread pulling the same
/// node waits for them. As RAC 2.5's recursive lock allows, a head block may read its own list's
/// tail, and a tail block its head; a block that needs its own result (or an operator's block its
/// own node) would never end, and stops the program with a message saying so.
///
/// RAC 2.5: `RACSequence` (`RACDynamicSequence`, `RACArraySequence`, `RACEagerSequence`, …).
public final class LazyList<Element>: @unchecked Sendable {
    // Soundness of the unchecked fields below: every write happens under `gate` and before the
    // release store to `known` that publishes it, and a field is read either under `gate` or after
    // an acquire load of `known` shows it published; published fields never change again while
    // the node lives (`deinit` empties only the dying node: a weak reference can make a node that
    // one thread alone strongly references reachable from another at any time). The fields need
    // no exclusivity checks: no two accesses can overlap. Tested from several threads in
    // `MemoisationTests` and `RegressionTests` under ThreadSanitizer and AddressSanitizer.

    // The fields are declared in this order to pack them: 72 bytes for a node of `Int`s.

    /// Serializes the evaluation of this node: held while a block runs, so a second puller waits.
    /// Its value is a byte no one uses: the zero-sized value of a `Lock<Void>` would sit, for
    /// ThreadSanitizer, at the address of the next field, which is read without the lock.
    @usableFromInline let gate: Lock<UInt8>
    /// Whether operators on this list evaluate at once (``eagerSequence``), as `RACEagerSequence` does.
    @usableFromInline let evaluatesEagerly: Bool
    /// What is known about this node (``Known``), and in the bits above them, while a thread
    /// evaluates the node, which thread (``Known/evaluator``): a block that pulls its own node
    /// then evaluates the node's other block in place, or fails with a message, instead of
    /// locking its own gate again (`evaluateReentrantly`).
    @usableFromInline let known: Atomic<UInt>
    /// How to compute head and tail together, from `upstream` (see ``Stage``); `nil` once run.
    @usableFromInline @exclusivity(unchecked) var stage: Stage<Element>?
    /// What `stage` computes from, or the blocks of ``init(head:tail:)`` (a `Blocks`); `nil`
    /// once used.
    @usableFromInline @exclusivity(unchecked) var upstream: AnyObject?
    /// The tail, valid once `Known.tail` is set and `Known.ended` is not.
    @usableFromInline @exclusivity(unchecked) var storedTail: LazyList<Element>?
    /// The head, valid once `Known.head` is set and `Known.ended` is not.
    @usableFromInline @exclusivity(unchecked) var storedHead: Element?

    @inlinable
    init(known: UInt, eager: Bool) {
        gate = Lock(0)
        evaluatesEagerly = eager
        self.known = Atomic(known)
    }

    /// A node whose head and tail are known already.
    @inlinable
    convenience init(head: consuming Element, tail: LazyList<Element>, eager: Bool = false) {
        self.init(known: Known.head | Known.tail | Known.nonEmpty, eager: eager)
        storedHead = head
        storedTail = tail
    }

    /// A node made by a stage: `stage.step` computes its head and tail from `upstream`.
    @inlinable
    convenience init(stage: Stage<Element>, upstream: AnyObject, eager: Bool = false) {
        self.init(known: 0, eager: eager)
        self.stage = stage
        self.upstream = upstream
    }

    /// A node whose head and tail its own blocks compute, each when first asked for.
    convenience init(blocks: Blocks, known: UInt) {
        self.init(known: known, eager: false)
        upstream = blocks
    }

    /// A list whose head is `head()` and whose tail is `tail()`, each run once, when first asked
    /// for, and independently of each other. The list is not empty: asking ``isEmpty`` runs
    /// neither block.
    ///
    /// ```swift
    /// let list = LazyList(head: { 0 }, tail: { LazyList.return(1) })
    /// list.array   // [0, 1]
    /// ```
    ///
    /// RAC 2.5: `+sequenceWithHeadBlock:tailBlock:`.
    public convenience init(
        head: @escaping @Sendable () -> Element,
        tail: @escaping @Sendable () -> LazyList<Element>
    ) {
        self.init(blocks: Blocks("LazyList(head:tail:)", head: { .some(head()) }, tail: tail), known: Known.nonEmpty)
    }

    /// A list whose blocks share a value computed once, before the first of them runs.
    ///
    /// `dependency()` runs when the head, the tail or ``isEmpty`` is first asked for; then
    /// `head(dependency)` gives the head, or `nil` for an empty list (for a list of optionals, a
    /// `nil` element is `.some(nil)`), and `tail(dependency)` the tail. The tail block does not run
    /// for an empty list.
    ///
    /// RAC 2.5: `+sequenceWithLazyDependency:headBlock:tailBlock:`.
    public convenience init<Dependency>(
        dependency: @escaping @Sendable () -> Dependency,
        head: @escaping @Sendable (Dependency) -> Element?,
        tail: @escaping @Sendable (Dependency) -> LazyList<Element>
    ) {
        let shared = Memo(dependency)
        self.init(
            blocks: Blocks("LazyList(dependency:head:tail:)", head: { head(shared.value) }, tail: { tail(shared.value) }),
            known: 0
        )
    }

    deinit {
        // An evaluated tail can be the first of a long evaluated chain, and what computes an
        // unevaluated node can hold a long chain of other unevaluated nodes: ``Teardown`` releases
        // them with a bound on how deep the deinits nest. (Taking the tail out of a live node that
        // only this thread strongly references, to release a chain in a loop, is not sound: a weak
        // reference loaded on another thread meanwhile finds the node with its tail gone.)
        if stage != nil || upstream != nil { Teardown.release(takeWork) }
        // A tail that something else holds too is just let go of. One only this node holds goes
        // through `Teardown`. Both as a plain object: with a type that depends on `Element`, the
        // uniqueness check and `Teardown.release` would run unspecialized, looking up metadata
        // on every call.
        var tail = takeTail()
        if isKnownUniquelyReferenced(&tail) { Teardown.release { tail.take() } }
    }

    /// Takes out what computes this node, leaving nothing for its deinit to release, so that
    /// ``Teardown`` releases it (handed over as a call's result, no copy of it stays behind).
    private func takeWork() -> (AnyObject?, AnyObject?) {
        defer {
            stage = nil
            upstream = nil
        }
        // As plain objects, as in `takeTail()`: `Teardown.release` is then specialized for them.
        return (stage, upstream)
    }

    /// Takes out the tail, as ``takeWork()`` does what computes the node. Called by `deinit` only.
    private func takeTail() -> AnyObject? {
        defer { storedTail = nil }
        return storedTail
    }

    /// The blocks of ``init(head:tail:)`` and ``init(dependency:head:tail:)``, each `nil` once it
    /// has run. Touched under the node's gate only.
    final class Blocks {
        /// What made the blocks, for the message of a nesting too deep for the stack.
        let origin: StaticString
        var head: (() -> Element?)?
        var tail: (() -> LazyList<Element>)?

        init(_ origin: StaticString, head: @escaping () -> Element?, tail: @escaping () -> LazyList<Element>) {
            self.origin = origin
            self.head = head
            self.tail = tail
        }
    }
}

/// Bits of `LazyList.known`.
@usableFromInline
enum Known {
    /// The head has been computed (or the list found empty).
    @usableFromInline static let head: UInt = 1
    /// The tail has been computed (or the list found empty).
    @usableFromInline static let tail: UInt = 2
    /// The list has an element (its head may still be unevaluated).
    @usableFromInline static let nonEmpty: UInt = 4
    /// The list is empty.
    @usableFromInline static let ended: UInt = 8
    /// Head and tail both computed.
    @usableFromInline static let all: UInt = head | tail
    /// The bits above are the evaluating thread's.
    @usableFromInline static let flags: UInt = 0xF

    /// The calling thread, as it is kept above the flags while it evaluates a node: its
    /// `pthread_t`, the address of its control block, so its low bits are zero.
    @inlinable
    static var evaluator: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self()) & ~flags
        #else
        UInt(pthread_self()) & ~flags
        #endif
    }
}

/// One operator's step, shared by all the nodes it makes: given a node's input, it computes the
/// node's head and tail (making the tail with the same stage), or `nil` for the end.
///
/// Sharing the step means a node costs one allocation; its input is handed over owned, so a step
/// that walks far along its input (a `filter` skipping a long run) lets go of what it passed.
///
/// A step gets how deeply evaluations nest where it runs (`nesting`), and passes it on to every
/// node it evaluates (``LazyList/evaluate(nesting:)``): past ``Nesting/loopFrom`` levels, a node is
/// evaluated after the chain of nodes it depends on, in a loop (see
/// ``LazyList/evaluateInALoop(wantsHead:wantsTail:nesting:)``), which is why a stage names, in
/// `dependency`, the node its step evaluates first.
@usableFromInline
class Stage<Element>: @unchecked Sendable {
    /// The operator, for the message of a nesting too deep for the stack: `"map(_:)"`.
    @usableFromInline let name: StaticString
    @usableFromInline let step: (_ upstream: consuming AnyObject, _ stage: Stage<Element>, _ nesting: Int) -> (Element, LazyList<Element>)?
    /// Given a node's input, the list node its step evaluates first; `nil` for a stage that
    /// evaluates no node (one that reads a collection, an iterator, a signal).
    @usableFromInline let dependency: ((_ upstream: AnyObject) -> (any DeferredNode)?)?
    /// For a stage that reads a collection (no block of the user's to run), a way to send what an
    /// unevaluated node would give without making nodes: given the node's input, read under its
    /// gate, a walk from where the input stands (see ``LazyList/unevaluatedWalk()``).
    @usableFromInline let snapshot: ((_ upstream: AnyObject) -> (borrowing Burst<Element, Never>) -> Bool)?

    @inlinable
    init(
        _ name: StaticString,
        dependency: ((_ upstream: AnyObject) -> (any DeferredNode)?)?,
        _ step: @escaping (_ upstream: consuming AnyObject, _ stage: Stage<Element>, _ nesting: Int) -> (Element, LazyList<Element>)?,
        snapshot: ((_ upstream: AnyObject) -> (borrowing Burst<Element, Never>) -> Bool)? = nil
    ) {
        self.name = name
        self.dependency = dependency
        self.step = step
        self.snapshot = snapshot
    }
}

/// A list node whatever its element type, as ``LazyList/evaluateInALoop(wantsHead:wantsTail:nesting:)``
/// walks a chain of them.
@usableFromInline
protocol DeferredNode: AnyObject {
    /// The node this one's step evaluates first, when this node is not evaluated and neither is
    /// that one; else `nil` (also while another evaluation holds this node).
    func unevaluatedDependency() -> (any DeferredNode)?
    /// Whether head and tail are both known.
    var isEvaluated: Bool { get }
    /// Evaluates this node, whose dependency is evaluated, when evaluations nest `nesting` deep.
    func evaluateAfterItsDependency(nesting: Int)
}

extension LazyList: DeferredNode {}

/// A value computed once, on first use, shared by the blocks of ``LazyList/init(dependency:head:tail:)``.
final class Memo<Value>: @unchecked Sendable {
    private let state: Lock<(make: (@Sendable () -> Value)?, value: Value?)>

    init(_ make: @escaping @Sendable () -> Value) {
        state = Lock((make, nil))
    }

    /// Callers are list nodes holding their own gate: the block runs under this memo's lock, so a
    /// second caller waits for it.
    var value: Value {
        state.withLock { state in
            if let make = state.make {
                state.value = make()
                state.make = nil
            }
            return state.value!
        }
    }
}

// MARK: - Evaluation

extension LazyList {
    /// Computes head and tail if they are not known yet; returns the known bits. `nesting` is how
    /// deeply evaluations nest here: 0 outside any step, a step's own `nesting` inside one.
    @inlinable @inline(__always)
    func evaluate(nesting: Int) -> UInt {
        let bits = known.load(ordering: .acquiring)
        if bits & Known.all == Known.all { return bits }
        return evaluateSlowly(wantsHead: true, wantsTail: true, nesting: nesting)
    }

    /// Computes the head if it is not known yet; returns the known bits.
    @inlinable @inline(__always)
    func evaluateHead() -> UInt {
        let bits = known.load(ordering: .acquiring)
        if bits & Known.head != 0 { return bits }
        return evaluateSlowly(wantsHead: true, wantsTail: false, nesting: 0)
    }

    /// Computes the tail if it is not known yet (and the head only when emptiness depends on it);
    /// returns the known bits.
    @inlinable @inline(__always)
    func evaluateTail() -> UInt {
        let bits = known.load(ordering: .acquiring)
        if bits & Known.tail != 0 { return bits }
        return evaluateSlowly(wantsHead: false, wantsTail: true, nesting: 0)
    }

    @inlinable @inline(never)
    func evaluateSlowly(wantsHead: Bool, wantsTail: Bool, nesting: Int) -> UInt {
        if nesting >= Nesting.loopFrom { return evaluateInALoop(wantsHead: wantsHead, wantsTail: wantsTail, nesting: nesting) }
        return evaluateNow(wantsHead: wantsHead, wantsTail: wantsTail, nesting: nesting)
    }

    /// Evaluates what is due of this node, whatever its dependency's state: its step evaluates
    /// what it needs itself.
    @inlinable
    func evaluateNow(wantsHead: Bool, wantsTail: Bool, nesting: Int) -> UInt {
        if let bits = gate.withLockIfAvailable({ _ in evaluateLocked(wantsHead: wantsHead, wantsTail: wantsTail, nesting: nesting) }) {
            return bits
        }
        // Another evaluation holds the gate: wait for it, unless it is this thread's own, further
        // up its stack (a block pulling the node it computes).
        if known.load(ordering: .relaxed) & ~Known.flags == Known.evaluator {
            return evaluateReentrantly(wantsHead: wantsHead, wantsTail: wantsTail)
        }
        return gate.withLock { _ in evaluateLocked(wantsHead: wantsHead, wantsTail: wantsTail, nesting: nesting) }
    }

    /// Evaluates this node where evaluations already nest ``Nesting/loopFrom`` deep: first the
    /// chain of unevaluated nodes it depends on (the node its step evaluates first, the node that
    /// one's step evaluates first, …), from the deepest up, in a loop; then this node, whose step
    /// finds its dependency evaluated. However many operators are nested, the stack grows by a few
    /// frames, not one evaluation per operator.
    ///
    /// What a step evaluates beyond its dependency (the next elements a `filter` skips to, a
    /// `zip`'s other lists) goes through here again, one level deeper. Nesting that no loop can
    /// undo (blocks of the user's that pull lists) stops with a message before the stack is used
    /// up (``Nesting/checkStack(_:)``).
    @usableFromInline @inline(never)
    func evaluateInALoop(wantsHead: Bool, wantsTail: Bool, nesting: Int) -> UInt {
        Nesting.checkStack(gate.withLockIfAvailable { _ in stage?.name } ?? nil)
        var chain: [any DeferredNode] = []
        var next = unevaluatedDependency()
        while let node = next {
            chain.append(node)
            next = node.unevaluatedDependency()
        }
        while let node = chain.popLast() { node.evaluateAfterItsDependency(nesting: nesting) }
        return evaluateNow(wantsHead: wantsHead, wantsTail: wantsTail, nesting: nesting)
    }

    /// Evaluates, for a block of this node that this thread is running (it holds the gate further
    /// up its stack), the other block: as RAC 2.5's recursive lock allows, a tail block may read its
    /// own list's head, and a head block its tail. A block that needs its own result, or a step
    /// that needs its own node, would never end: that stops with a message.
    @usableFromInline
    func evaluateReentrantly(wantsHead: Bool, wantsTail: Bool) -> UInt {
        let bits = known.load(ordering: .relaxed) & Known.flags
        checkInput(
            stage == nil && upstream is Blocks,
            "LazyList: an operator's block pulled the very list it is computing; that would never end"
        )
        let now = evaluateParts(upstream.unsafelyUnwrapped, bits, wantsHead: wantsHead, wantsTail: wantsTail)
        checkInput(
            (!wantsHead || now & Known.head != 0) && (!wantsTail || now & Known.tail != 0),
            "LazyList: a head or tail block pulled the very part of its list it is computing; that would never end"
        )
        known.store(now | Known.evaluator, ordering: .releasing)
        return now
    }

    /// Runs what is due, as the owner of `gate`.
    @inlinable
    func evaluateLocked(wantsHead: Bool, wantsTail: Bool, nesting: Int) -> UInt {
        var bits = known.load(ordering: .relaxed)
        known.store(bits | Known.evaluator, ordering: .relaxed)
        if let stage {
            self.stage = nil
            // Handed over, not copied: a step that walks far along its input lets go of what it
            // passes only if nothing here still holds where it started.
            let input = upstream.take().unsafelyUnwrapped
            bits = settle(stage.step(consume input, stage, nesting + 1), bits)
        } else if let parts = upstream {
            bits = evaluateParts(parts, bits, wantsHead: wantsHead, wantsTail: wantsTail)
        }
        known.store(bits, ordering: .releasing)
        return bits
    }

    @inlinable @inline(__always)
    func settle(_ result: consuming (Element, LazyList<Element>)?, _ bits: UInt) -> UInt {
        guard let (head, tail) = result else { return bits | Known.all | Known.ended }
        storedHead = head
        storedTail = tail
        return bits | Known.all | Known.nonEmpty
    }

    /// Runs what is due of ``init(head:tail:)``'s blocks: the head when asked for, or when the tail
    /// cannot run before emptiness is known (the dependency form); the tail when asked for.
    ///
    /// A block may pull other lists, whose blocks may pull others: that nesting is the user's, and
    /// stops with a message before it uses up the stack.
    @usableFromInline
    func evaluateParts(_ blocks: AnyObject, _ bits: UInt, wantsHead: Bool, wantsTail: Bool) -> UInt {
        let parts = unsafeDowncast(blocks, to: Blocks.self)
        Nesting.checkStack(parts.origin)
        var bits = bits
        if bits & Known.head == 0, let head = parts.head, wantsHead || bits & Known.nonEmpty == 0 {
            parts.head = nil
            let value = head()
            // The block may have evaluated the tail meanwhile (`evaluateReentrantly`).
            bits = known.load(ordering: .relaxed) & Known.flags
            if let value {
                storedHead = value
                bits |= Known.head | Known.nonEmpty
            } else {
                bits |= Known.all | Known.ended
                parts.tail = nil
            }
        }
        if wantsTail, bits & Known.tail == 0, let tail = parts.tail {
            parts.tail = nil
            let list = tail()
            // The block may have evaluated the head meanwhile (`evaluateReentrantly`).
            bits = known.load(ordering: .relaxed) & Known.flags
            storedTail = list
            bits |= Known.tail
        }
        if parts.head == nil, parts.tail == nil { upstream = nil }
        return bits
    }

    /// Whether head and tail are both known.
    @inlinable @inline(__always)
    var isEvaluated: Bool {
        known.load(ordering: .acquiring) & Known.all == Known.all
    }

    /// Whether the list is known to be empty (evaluated, and found empty).
    @inlinable @inline(__always)
    var isKnownEmpty: Bool {
        known.load(ordering: .acquiring) & Known.ended != 0
    }

    /// The node this one's step evaluates first, if neither is evaluated (read under this node's
    /// gate: an evaluation under way takes the step's input; then there is nothing to read).
    @usableFromInline
    func unevaluatedDependency() -> (any DeferredNode)? {
        let dependency = gate.withLockIfAvailable { _ -> (any DeferredNode)? in
            guard known.load(ordering: .relaxed) & Known.all != Known.all,
                  let find = stage?.dependency, let upstream else { return nil }
            return find(upstream)
        } ?? nil
        guard let dependency, !dependency.isEvaluated else { return nil }
        return dependency
    }

    /// The dependency of a stage whose input is the list it reads (`map`, `filter`, `skip`):
    /// that list.
    @inlinable
    static func listDependency(_ upstream: AnyObject) -> (any DeferredNode)? {
        unsafeDowncast(upstream, to: LazyList<Element>.self)
    }

    @usableFromInline
    func evaluateAfterItsDependency(nesting: Int) {
        _ = evaluateNow(wantsHead: true, wantsTail: true, nesting: nesting)
    }

    /// A walk that sends what this node would give, without making nodes, when nothing is
    /// evaluated from it and it reads a collection (see `Stage.snapshot`); else `nil`.
    ///
    /// The walk is one for ``Signals/Subscriber/sendNexts(_:)``: each call sends elements while
    /// the burst has room, computing each only once the burst allows it, and returns whether it
    /// reached the end; the next call goes on from there. It is specialized where the list was
    /// made, so an element's way to the subscriber's sink is a direct call.
    @inlinable
    func unevaluatedWalk() -> ((borrowing Burst<Element, Never>) -> Bool)? {
        gate.withLock { _ in
            guard known.load(ordering: .relaxed) == 0, let snapshot = stage?.snapshot, let upstream else { return nil }
            return snapshot(upstream)
        }
    }

    /// The head and tail of a node known to be evaluated and not empty.
    @inlinable @inline(__always)
    var evaluatedParts: (head: Element, tail: LazyList<Element>) {
        (storedHead.unsafelyUnwrapped, storedTail.unsafelyUnwrapped)
    }
}

// MARK: - Head, tail, emptiness

extension LazyList {
    /// The first element, or `nil` when the list is empty (use ``isEmpty`` to tell a `nil`
    /// element of a list of optionals from the end). Computed once, on first use.
    ///
    /// RAC 2.5: `head`.
    public var head: Element? {
        let bits = evaluateHead()
        return bits & Known.ended != 0 ? nil : storedHead
    }

    /// The list after the head: an empty list when this one is empty or has one element.
    /// Computed once, on first use.
    ///
    /// RAC 2.5: `tail` (`nil` there for the end).
    public var tail: LazyList<Element> {
        let bits = evaluateTail()
        if bits & Known.ended != 0 { return self }
        return storedTail.unsafelyUnwrapped
    }

    /// Whether the list has no element. A list made by ``init(head:tail:)`` answers without running
    /// a block; others compute their head.
    public var isEmpty: Bool {
        let bits = known.load(ordering: .acquiring)
        if bits & Known.nonEmpty != 0 { return false }
        return evaluateHead() & Known.ended != 0
    }

    /// A list of `value` alone.
    ///
    /// RAC 2.5: `+return:`.
    public static func `return`(_ value: Element) -> LazyList<Element> {
        LazyList(head: value, tail: .empty)
    }

    /// A list with no element.
    ///
    /// RAC 2.5: `+empty`.
    public static var empty: LazyList<Element> {
        LazyList(known: Known.all | Known.ended, eager: false)
    }
}
