import Disposables
import Synchronization

/// The subscribers of a hot signal (a pipe, a subject): sent to by the input's delivering thread
/// (a pipe's lock owner, a subject's deliverer), one event at a time, and joined and left from
/// any thread.
///
/// A send takes no lock of its own and retains nothing. Joining and leaving are recorded under a
/// lock and raise a flag; the sender reads the flag (one atomic load) and, when it is raised,
/// brings its list of members up to date before the send. So:
/// - a member that joins during a delivery gets the next event, not the one under way;
/// - a member is skipped from the moment it is disposed (it is marked before it leaves), and its
///   sink is let go of by the lock's owner, so nothing reaches it after its removal;
/// - the list is changed only by the sender, never while it walks it: a send from inside a
///   member's callback is queued by the input's lock and comes after the current one.
///
/// Not generic, so that walking the members costs no metadata lookup in unspecialized code.
package final class Broadcast: @unchecked Sendable {
    /// How a broadcast ended: what a subscriber that comes afterwards gets.
    package enum Ending {
        /// Nothing will be sent again, though no terminal event came: the input is gone.
        case abandoned
        case completed
        /// Failed with the error that `failure` holds: a ``FailureBox`` of the signal's failure
        /// type. (Not generic, so that keeping it costs no metadata lookup.)
        case failed(_ failure: AnyObject)
    }

    private struct Shared {
        /// Members that joined since the sender last looked, in order: a list linked through the
        /// members themselves, so joining and leaving it are O(1) and allocate nothing.
        var joining = JoiningList()
        /// Whether a member of `members` has left since the sender last looked.
        var hasLeavers = false
        /// How the broadcast ended, once it has: no member joins after that.
        var ending: Ending?
    }

    private let shared = Lock(Shared())
    /// Raised when `shared` has news for the sender.
    private let isChanged = Atomic<Bool>(false)
    private let isAnnotated = ThreadSanitizer.isActive
    /// The members, each retained once, in the order they joined. Changed under `shared`'s lock
    /// by the sender (or, at the end, by the last owner); read by the sender without it.
    @exclusivity(unchecked) private var members: UnsafeMutablePointer<Unmanaged<BroadcastMember>>?
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var capacity = 0

    package init() {}

    deinit {
        _ = detachAll()
    }

    /// Adds `member`, which gets every event sent after this returns, and returns `nil`; or, once
    /// the broadcast has ended, returns how, without adding it.
    package func join(_ member: BroadcastMember) -> Ending? {
        shared.withLock(annotated: isAnnotated) { shared in
            if let ending = shared.ending { return ending }
            shared.joining.append(member)
            isChanged.store(true, ordering: .releasing)
            return nil
        }
    }

    /// Whether the broadcast was ended by a terminal event (not ``Ending/abandoned``, and not
    /// running).
    package var hasTerminalEvent: Bool {
        shared.withLock(annotated: isAnnotated) { shared in
            switch shared.ending {
            case .completed, .failed: true
            case .abandoned, nil: false
            }
        }
    }

    /// Removes `member`, which has been marked disposed already, so the sender skips it from now.
    package func leave(_ member: BroadcastMember) {
        shared.withLock(annotated: isAnnotated) { shared in
            // The caller holds the member, so unlinking it releases nothing here.
            if shared.joining.remove(member) { return }
            if shared.ending == nil {
                shared.hasLeavers = true
                isChanged.store(true, ordering: .releasing)
            }
        }
    }

    /// The current members, up to date with every join and leave that happened before this call;
    /// valid until the next call. For the sender only.
    @inline(__always)
    package func currentMembers() -> UnsafeBufferPointer<Unmanaged<BroadcastMember>> {
        if isChanged.load(ordering: .acquiring) { update() }
        return UnsafeBufferPointer(start: members, count: count)
    }

    /// Ends the broadcast with `ending`, unless it has ended already: no member joins after
    /// this. Returns every member, in order, each retained once for the caller; for the sender,
    /// or for the last owner.
    package func end(_ ending: Ending) -> [BroadcastMember] {
        detachAll(ending)
    }

    private func detachAll(_ ending: Ending = .abandoned) -> [BroadcastMember] {
        shared.withLock(annotated: isAnnotated) { shared in
            if shared.ending == nil { shared.ending = ending }
            isChanged.store(false, ordering: .relaxed)
            var all: [BroadcastMember] = []
            all.reserveCapacity(count)
            for index in 0..<count { all.append(members![index].takeRetainedValue()) }
            members?.deallocate()
            members = nil
            count = 0
            capacity = 0
            shared.joining.removeAll { all.append($0) }
            return all
        }
    }

    @inline(never)
    private func update() {
        let leavers = shared.withLock(annotated: isAnnotated) { shared -> [BroadcastMember] in
            isChanged.store(false, ordering: .relaxed)
            var leavers: [BroadcastMember] = []
            if shared.hasLeavers {
                shared.hasLeavers = false
                leavers = removeDisposedMembers()
            }
            shared.joining.removeAll { append($0) }
            return leavers
        }
        // Released after unlocking: a member's deinit may lead to user code.
        _ = leavers
    }

    private func removeDisposedMembers() -> [BroadcastMember] {
        var leavers: [BroadcastMember] = []
        var kept = 0
        for index in 0..<count {
            let member = members![index]
            if member._withUnsafeGuaranteedRef({ $0.isDisposed }) {
                leavers.append(member.takeRetainedValue())
            } else {
                members![kept] = member
                kept += 1
            }
        }
        count = kept
        return leavers
    }

    private func append(_ member: BroadcastMember) {
        if count == capacity {
            capacity = max(4, capacity * 2)
            let grown = UnsafeMutablePointer<Unmanaged<BroadcastMember>>.allocate(capacity: capacity)
            if let members {
                grown.moveInitialize(from: members, count: count)
                members.deallocate()
            }
            members = grown
        }
        (members! + count).initialize(to: Unmanaged.passRetained(member))
        count += 1
    }
}

/// One subscription to a ``Broadcast``: the base of the members a hot signal sends to.
@usableFromInline
package class BroadcastMember: Disposable, @unchecked Sendable {
    // Its links in the broadcast's joining list; read and written under the broadcast's lock.
    fileprivate var isJoining = false
    fileprivate var nextJoining: BroadcastMember?
    fileprivate unowned(unsafe) var previousJoining: BroadcastMember?

    /// Lets go of the sink without cancelling it: the input is gone, so nothing will reach it
    /// again. The subscription is not ended (no event says so), but nothing it holds stays alive.
    ///
    /// - Parameter isOwner: Whether the caller owns the input's lock (or is its deliverer), and so
    ///   may empty the sink's slot at once; otherwise the lock is quiesced for it.
    fileprivate func abandon(isOwner: Bool) {}
}

/// The members waiting to join a ``Broadcast``, in order, linked through themselves: the list
/// holds each strongly through the link before it.
private struct JoiningList {
    private var first: BroadcastMember?
    private unowned(unsafe) var last: BroadcastMember?

    mutating func append(_ member: BroadcastMember) {
        member.isJoining = true
        member.previousJoining = last
        if let last { last.nextJoining = member } else { first = member }
        last = member
    }

    /// Unlinks `member`; `false` when it is not in the list.
    mutating func remove(_ member: BroadcastMember) -> Bool {
        guard member.isJoining else { return false }
        member.isJoining = false
        let next = member.nextJoining.take()
        let previous = member.previousJoining
        member.previousJoining = nil
        if let next { next.previousJoining = previous } else { last = previous }
        if let previous { previous.nextJoining = next } else { first = next }
        return true
    }

    /// Empties the list, handing `body` each member in order.
    mutating func removeAll(_ body: (BroadcastMember) -> Void) {
        var current = first.take()
        last = nil
        while let member = current {
            current = member.nextJoining.take()
            member.previousJoining = nil
            member.isJoining = false
            body(member)
        }
    }
}

/// The subscribers of a hot signal (a pipe, a subject): a sink that forwards each event to all of
/// them, called by the owner of the input's delivery lock.
///
/// The subscribers are the members of a ``Broadcast``, which they reference strongly to leave it;
/// the cycle is broken when they leave, at the terminal event, or when this sink goes (the signal
/// and its input are both gone). No weak reference: a weakly referenced object pays for it on
/// every retain.
@usableFromInline
package class BroadcastSink<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    package final let broadcast = Broadcast()
    /// Looked up once: making a member through it costs no metadata lookup per subscription.
    private let memberType: BroadcastObserver<Value, Failure>.Type
    // The terminal event is kept by the broadcast, as its ending (``Broadcast/Ending``), not
    // here: a field of type `Lock<Event<Value, Failure>?>` cost the lookups of the metadata of
    // `Mutex`, `Optional` and `Event` for these types when a sink was made, when it went, and at
    // the terminal event. And the terminal events are sent without an `Event`, for the same
    // reason.

    package override init() {
        memberType = BroadcastObserver<Value, Failure>.self
        super.init()
    }

    /// A sink whose members are of `memberType`, `BroadcastObserver<Value, Failure>.self`, looked up
    /// by the caller: code specialized for its types finds it at no cost.
    @usableFromInline
    package init(memberType: BroadcastObserver<Value, Failure>.Type) {
        self.memberType = memberType
        super.init()
    }

    deinit {
        // Nothing can send or subscribe any more: break the members' cycle with the broadcast.
        abandonMembers(isOwner: false)
    }

    /// The input is gone, so nothing will be sent again: ends the broadcast without an event (a
    /// later subscriber joins nothing and is held by nothing) and lets go of each member's sink,
    /// which may hold (through an operator's output) the very disposable that holds the member,
    /// or the signal that holds this sink. As the owner of the input's lock.
    package override func inputReleased() {
        abandonMembers(isOwner: true)
    }

    /// The input was disposed: nothing will be sent again, as when it is released.
    package override func cancel() {
        abandonMembers(isOwner: true)
    }

    private func abandonMembers(isOwner: Bool) {
        for member in broadcast.end(.abandoned) {
            member.abandon(isOwner: isOwner)
        }
    }

    /// Subscribes `sink`, which gets every event sent after this returns (or the terminal event at
    /// once): attaches it first, then adds it, so no event reaches it unattached.
    package final func add(_ sink: Sink<Value, Failure>, deliveredUnder lock: any Quiescing) -> Disposable? {
        let member = member(for: sink, deliveredUnder: lock)
        return join(member) ? member : nil
    }

    /// A member for `sink`, attached to it, that has not joined yet.
    package final func member(for sink: Sink<Value, Failure>, deliveredUnder lock: any Quiescing) -> BroadcastObserver<Value, Failure> {
        let member = memberType.init(sink, lock: lock, in: broadcast)
        sink.attach(member)
        return member
    }

    /// Makes `member` a member, unless it was disposed; once the broadcast has ended, sends it the
    /// terminal event instead and returns `false`.
    package final func join(_ member: BroadcastObserver<Value, Failure>) -> Bool {
        if member.isDisposed { return false }
        guard let ending = broadcast.join(member) else { return true }
        finishTurnedAway(member, ending)
        return false
    }

    /// Sends the terminal event to a member the ended broadcast turned away. Out of line, so that
    /// joining looks up no `Event` metadata.
    @inline(never)
    private func finishTurnedAway(_ member: BroadcastObserver<Value, Failure>, _ ending: Broadcast.Ending) {
        // Not a member, but its sink is attached already: another thread may be disposing it, so
        // its sink is touched only as the owner of the input's lock, like a member's.
        switch ending {
        case .completed:
            member.finishAsOwner(.completed)
        case let .failed(failure):
            member.finishAsOwner(.error(FailureBox<Failure>.error(in: failure)))
        case .abandoned:
            // The input is gone: nothing will come, so nothing of the subscriber's stays alive.
            member.abandon(isOwner: false)
        }
    }

    package override func receive(_ value: Value) {
        for member in broadcast.currentMembers() {
            member._withUnsafeGuaranteedRef { member in
                let observer = unsafeDowncast(member, to: BroadcastObserver<Value, Failure>.self)
                if !observer.isDisposed { observer.forward(value) }
            }
        }
    }

    package override func receive(error: Failure) {
        for member in broadcast.end(.failed(FailureBox(error))) {
            let observer = unsafeDowncast(member, to: BroadcastObserver<Value, Failure>.self)
            if !observer.isDisposed { observer.finish(error: error) }
        }
    }

    package override func receiveCompleted() {
        for member in broadcast.end(.completed) {
            let observer = unsafeDowncast(member, to: BroadcastObserver<Value, Failure>.self)
            if !observer.isDisposed { observer.finishCompleted() }
        }
    }
}

/// The error a broadcast failed with, kept by its ``Broadcast/Ending``.
package final class FailureBox<Failure: Error>: @unchecked Sendable {
    let error: Failure

    init(_ error: Failure) {
        self.error = error
    }

    /// The error in `box`, a box of this type.
    static func error(in box: AnyObject) -> Failure {
        guard let box = box as? FailureBox else {
            preconditionFailure("Broadcast: a failure of another type than its signal's")
        }
        return box.error
    }
}

/// One subscription to a hot signal. Its sink is touched only by the owner of the input's lock,
/// so disposing it quiesces that lock before it cancels and lets go of the sink.
@usableFromInline
package final class BroadcastObserver<Value, Failure: Error>: BroadcastMember, @unchecked Sendable {
    @exclusivity(unchecked) private var sink: Retained<Sink<Value, Failure>>
    private let lock: any Quiescing
    private let broadcast: Broadcast

    required init(_ sink: Sink<Value, Failure>, lock: any Quiescing, in broadcast: Broadcast) {
        self.sink = Retained(sink)
        self.lock = lock
        self.broadcast = broadcast
        super.init()
    }

    deinit {
        sink.release()
    }

    /// Sends `value` to the sink. As the owner of the input's lock.
    @inline(__always)
    package func forward(_ value: Value) {
        sink.use { $0.receive(value) }
    }

    /// Sends the terminal `event` to the sink, unless the member was disposed, as the owner of
    /// the input's lock: at once when it is free, or once the delivery under way has ended.
    fileprivate func finishAsOwner(_ event: Event<Value, Failure>) {
        if lock.quiesceIfFree({ if !isDisposed { finish(event) } }) { return }
        lock.quiesce { [self] in if !isDisposed { finish(event) } }
    }

    /// Sends the terminal `event` to the sink and lets go of it. As the owner of the input's lock.
    private func finish(_ event: Event<Value, Failure>) {
        switch event {
        case .next: preconditionFailure("BroadcastObserver: finished with a value")
        case let .error(error): finish(error: error)
        case .completed: finishCompleted()
        }
    }

    /// Sends `error` to the sink and lets go of it. As the owner of the input's lock.
    package func finish(error: Failure) {
        markEnded()
        sink.take(retiring: .current)?.receive(error: error)
    }

    /// Sends completion to the sink and lets go of it. As the owner of the input's lock.
    package func finishCompleted() {
        markEnded()
        sink.take(retiring: .current)?.receiveCompleted()
    }

    fileprivate override func abandon(isOwner: Bool) {
        // A disposed member's disposal lets go of the sink.
        if isDisposed { return }
        if isOwner {
            // One of the sink's calls may be running further up this thread's stack.
            sink.take(retiring: .current)?.inputReleased()
        } else if !lock.quiesceIfFree({ sink.take()?.inputReleased() }) {
            lock.quiesce { [self] in sink.take(retiring: .current)?.inputReleased() }
        }
    }

    package override func dispose() {
        guard markDisposed() else {
            // Ended already, perhaps by a terminal event still on its way on another thread:
            // return once it has arrived, where waiting is safe (see ``Quiescing``). (From inside
            // a delivery, such as the one of the terminal event itself, nothing waits.)
            lock.settle()
            return
        }
        broadcast.leave(self)
        // Owning the lock for this, nothing of the sink's can be running on this thread.
        if lock.quiesceIfFree({ sink.take()?.cancel() }) { return }
        lock.quiesce { [self] in sink.take(retiring: .current)?.cancel() }
    }
}
