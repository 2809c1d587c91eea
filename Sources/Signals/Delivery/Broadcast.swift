import Dispatch
import Disposables
import Synchronization

/// The subscribers of a hot signal (a pipe, a subject): sent to by the input's delivering thread
/// (a pipe's lock owner, a subject's deliverer), one event at a time, and joined and left from
/// any thread, without ever waiting for a delivery.
///
/// A send takes no lock of its own and retains nothing: it marks the broadcast as walked (one
/// atomic operation at each end of the walk) and calls each member. Joining and leaving are
/// recorded under a lock that is never held around user code. So:
/// - a member that joins during a delivery gets the next event, not the one under way;
/// - a member is skipped from the moment it is disposed (it is marked before it leaves);
/// - the member list is changed under the lock, by whoever finds nobody walking it: a leaving
///   member is taken out at once when nobody walks the list, and by the walker as its walk ends
///   otherwise. Whoever takes a member out lets go of its sink, so the sink of a member is touched
///   by one thread at a time, and a `dispose()` never waits for a walk;
/// - a send from inside a member's callback is queued by the input and comes after the current
///   one, so walks never nest.
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
        /// Members that joined since the list was last brought up to date, in order: a list linked
        /// through the members themselves, so joining and leaving it are O(1) and allocate nothing.
        var joining = JoiningList()
        /// Whether a member of `members` has left since the list was last brought up to date.
        var hasLeavers = false
        /// How the broadcast ended, once it has: no member joins after that.
        var ending: Ending?
    }

    private let shared = Lock(Shared())
    /// ``walking`` while a sender walks `members`, ``changed`` while `shared` has news for the
    /// list. Nobody but the walker changes the list while it is walked; anyone may, under
    /// `shared`'s lock, while it is not.
    private let walk = Atomic<UInt>(0)
    private static var walking: UInt { 1 }
    private static var changed: UInt { 2 }
    private let isAnnotated = ThreadSanitizer.isActive
    /// The members, each retained once, in the order they joined. Changed under `shared`'s lock,
    /// by the walker or while nobody walks; read by the walker without it.
    @exclusivity(unchecked) private var members: UnsafeMutablePointer<Unmanaged<BroadcastMember>>?
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var capacity = 0

    package init() {}

    deinit {
        _ = detachAll()
    }

    /// Adds `member`, which gets every event sent after this returns, after running `body` under
    /// the lock the list is changed under, with how the broadcast ended, if it has (a replaying
    /// sink takes its snapshot there: see ``beginWalk(under:)``).
    ///
    /// - Returns: `joined` is `false` when the broadcast has ended (`ending` says how; `body` ran)
    ///   or when `member` had been disposed (`body` did not run; its disposal found it in no list,
    ///   so the caller lets go of its sink).
    package func join(_ member: BroadcastMember, under body: (Ending?) -> Void = { _ in }) -> (joined: Bool, ending: Ending?) {
        shared.withLock(annotated: isAnnotated) { shared in
            // `dispose()` marks before it leaves, under this lock: one it has not yet seen reads
            // true here.
            if member.isDisposed { return (false, nil) }
            body(shared.ending)
            if let ending = shared.ending { return (false, ending) }
            shared.joining.append(member)
            walk.bitwiseOr(Self.changed, ordering: .releasing)
            return (true, nil)
        }
    }

    /// Runs `body` under the lock the list is changed under: for a replaying sink that keeps a
    /// value without sending it.
    package func withListLocked(_ body: () -> Void) {
        shared.withLock(annotated: isAnnotated) { _ in body() }
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

    /// Takes `member`, which has been marked disposed, out of the broadcast, without waiting.
    ///
    /// - Returns: The members the caller took out and so must let go of (``BroadcastMember/detach()``):
    ///   `member` and any other disposed one, when nobody walks the list; none while a walk is
    ///   under way (the walker takes them out as it ends), once the broadcast has ended (whoever
    ///   ended it has them), or when `member` has not joined (whoever joins it finds it disposed).
    package func leave(_ member: BroadcastMember) -> Leavers {
        shared.withLock(annotated: isAnnotated) { shared -> Leavers in
            // The caller holds the member, so unlinking it releases nothing here.
            if shared.joining.remove(member) { return Leavers(first: member) }
            if shared.ending != nil { return Leavers() }
            shared.hasLeavers = true
            let before = walk.bitwiseOr(Self.changed, ordering: .acquiringAndReleasing).oldValue
            if before & Self.walking != 0 { return Leavers() }
            return update(&shared)
        }
    }

    /// Starts a walk: the current members, up to date with every join and leave that happened
    /// before this call; valid until ``endWalk()``. For the sender only.
    @inline(__always)
    package func beginWalk() -> UnsafeBufferPointer<Unmanaged<BroadcastMember>> {
        if walk.bitwiseOr(Self.walking, ordering: .acquiring).oldValue & Self.changed != 0 {
            detach(shared.withLock(annotated: isAnnotated) { update(&$0) })
        }
        return UnsafeBufferPointer(start: members, count: count)
    }

    /// ``beginWalk()``, running `body` first under the lock the list is changed under, in one step
    /// with the update: so a member joins either before `body` (it gets this walk's event) or
    /// after (`body`'s change is in the snapshot ``join(_:under:)`` took).
    package func beginWalk(under body: () -> Void) -> UnsafeBufferPointer<Unmanaged<BroadcastMember>> {
        let leavers = shared.withLock(annotated: isAnnotated) { shared -> Leavers in
            body()
            if walk.bitwiseOr(Self.walking, ordering: .acquiring).oldValue & Self.changed != 0 {
                return update(&shared)
            }
            return Leavers()
        }
        detach(leavers)
        return UnsafeBufferPointer(start: members, count: count)
    }

    /// Ends a walk; takes out, and lets go of, the members that left during it.
    @inline(__always)
    package func endWalk() {
        if walk.bitwiseAnd(~Self.walking, ordering: .releasing).oldValue & Self.changed != 0 {
            detach(shared.withLock(annotated: isAnnotated) { update(&$0) })
        }
    }

    /// Lets go of members taken out, outside the lock: a sink's cancellation may run user code.
    private func detach(_ leavers: Leavers) {
        leavers.detach()
    }

    /// Ends the broadcast with `ending`, unless it has ended already: no member joins after
    /// this. Returns every member, in order, each retained once for the caller, who now has
    /// their sinks to finish or let go of; for the sender, or for the last owner.
    package func end(_ ending: Ending) -> [BroadcastMember] {
        detachAll(ending)
    }

    private func detachAll(_ ending: Ending = .abandoned) -> [BroadcastMember] {
        shared.withLock(annotated: isAnnotated) { shared in
            if shared.ending == nil { shared.ending = ending }
            shared.hasLeavers = false
            var all: [BroadcastMember] = []
            all.reserveCapacity(count)
            for index in 0..<count { all.append(members![index].takeRetainedValue()) }
            members?.deallocate()
            members = nil
            count = 0
            capacity = 0
            shared.joining.removeAll { all.append($0) }
            walk.bitwiseAnd(~Self.changed, ordering: .releasing)
            return all
        }
    }

    /// Brings the list up to date, under the lock, by the walker or while nobody walks: the
    /// joiners are added and the disposed members taken out and returned.
    private func update(_ shared: inout Shared) -> Leavers {
        var leavers = Leavers()
        if shared.hasLeavers {
            shared.hasLeavers = false
            leavers = removeDisposedMembers()
        }
        shared.joining.removeAll { append($0) }
        // Last, with release: a walker that finds the flag down reads the list changed.
        walk.bitwiseAnd(~Self.changed, ordering: .releasing)
        return leavers
    }

    private func removeDisposedMembers() -> Leavers {
        var leavers = Leavers()
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

/// Members taken out of a ``Broadcast``, for the caller to let go of outside its lock: the first
/// kept apart, so that the common case (one member leaving) allocates no array.
package struct Leavers {
    private var first: BroadcastMember?
    private var rest: [BroadcastMember] = []

    init(first: BroadcastMember? = nil) {
        self.first = first
    }

    mutating func append(_ member: BroadcastMember) {
        if first == nil { first = member } else { rest.append(member) }
    }

    /// Lets go of each member's sink (``BroadcastMember/detach()``).
    func detach() {
        first?.detach()
        for member in rest { member.detach() }
    }
}

/// One subscription to a ``Broadcast``: the base of the members a hot signal sends to.
@usableFromInline
package class BroadcastMember: Disposable, @unchecked Sendable {
    // Its links in the broadcast's joining list; read and written under the broadcast's lock.
    fileprivate var isJoining = false
    fileprivate var nextJoining: BroadcastMember?
    fileprivate unowned(unsafe) var previousJoining: BroadcastMember?

    override init() {
        super.init()
        DeliveryContext.current.countLive(1)
    }

    deinit {
        DeliveryContext.current.countLive(-1)
    }

    /// The member was taken out of the broadcast, disposed: cancel and let go of the sink. By
    /// whoever took it out, which no other thread can be doing.
    fileprivate func detach() {}

    /// Lets go of the sink without cancelling it: the input is gone, so nothing will reach it
    /// again. The subscription is not ended (no event says so), but nothing it holds stays alive.
    /// By whoever took the member out.
    fileprivate func abandon() {}
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
/// them, called by the input's delivering thread.
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
        abandonMembers()
    }

    /// The input is gone, so nothing will be sent again: ends the broadcast without an event (a
    /// later subscriber joins nothing and is held by nothing) and lets go of each member's sink,
    /// which may hold (through an operator's output) the very disposable that holds the member,
    /// or the signal that holds this sink. As the input's deliverer.
    package override func inputReleased() {
        abandonMembers()
    }

    /// The input was disposed: nothing will be sent again, as when it is released.
    package override func cancel() {
        abandonMembers()
    }

    private func abandonMembers() {
        for member in broadcast.end(.abandoned) {
            member.abandon()
        }
    }

    /// Subscribes `sink`, which gets every event sent after this returns (or the terminal event at
    /// once): attaches it first, then adds it, so no event reaches it unattached.
    package final func add(_ sink: Sink<Value, Failure>) -> Disposable? {
        let member = member(for: sink)
        return join(member) ? member : nil
    }

    /// A member for `sink`, attached to it, that has not joined yet.
    package final func member(for sink: Sink<Value, Failure>) -> BroadcastObserver<Value, Failure> {
        let member = memberType.init(sink, in: broadcast)
        sink.attach(member)
        return member
    }

    /// Makes `member` a member, unless it was disposed (then lets go of its sink); once the
    /// broadcast has ended, sends it the terminal event instead and returns `false`.
    package final func join(_ member: BroadcastObserver<Value, Failure>) -> Bool {
        let (joined, ending) = broadcast.join(member)
        if joined { return true }
        finishTurnedAway(member, ending)
        return false
    }

    /// Finishes a member the broadcast turned away: sends it the terminal event the broadcast
    /// ended with, or lets go of its sink. On the subscribing thread, which alone holds the sink:
    /// the member is in no list, so neither a sender nor its disposal touches it. Out of line, so
    /// that joining looks up no `Event` metadata.
    @inline(never)
    package final func finishTurnedAway(_ member: BroadcastObserver<Value, Failure>, _ ending: Broadcast.Ending?) {
        switch ending {
        case nil:
            // Disposed before it joined.
            member.detachSink()
        case .completed?:
            member.finishCompleted()
        case let .failed(failure)?:
            member.finish(error: FailureBox<Failure>.error(in: failure))
        case .abandoned?:
            // The input is gone: nothing will come, so nothing of the subscriber's stays alive.
            member.abandonSink()
        }
    }

    package override func receive(_ value: Value) {
        deliver(value, to: broadcast.beginWalk())
    }

    /// Sends `value` to `members`, then ends the walk that gave them.
    @inline(__always)
    package final func deliver(_ value: Value, to members: UnsafeBufferPointer<Unmanaged<BroadcastMember>>) {
        for member in members {
            member._withUnsafeGuaranteedRef { member in
                let observer = unsafeDowncast(member, to: BroadcastObserver<Value, Failure>.self)
                if !observer.isDisposed { observer.forward(value) }
            }
        }
        broadcast.endWalk()
    }

    package override func receive(error: Failure) {
        for member in broadcast.end(.failed(FailureBox(error))) {
            let observer = unsafeDowncast(member, to: BroadcastObserver<Value, Failure>.self)
            if observer.isDisposed { observer.detachSink() } else { observer.finish(error: error) }
        }
    }

    package override func receiveCompleted() {
        for member in broadcast.end(.completed) {
            let observer = unsafeDowncast(member, to: BroadcastObserver<Value, Failure>.self)
            if observer.isDisposed { observer.detachSink() } else { observer.finishCompleted() }
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

/// One subscription to a hot signal.
///
/// Its sink is touched by one thread at a time: the walker while the member is in the broadcast's
/// list; whoever takes it out of the list (its disposal when nobody walks, the walker as its walk
/// ends, the thread that ends the broadcast); or, while it catches up (``beginCatchUp()``), the
/// subscribing thread that replays to it, with live events held back meanwhile. Disposing it
/// never waits.
@usableFromInline
package final class BroadcastObserver<Value, Failure: Error>: BroadcastMember, @unchecked Sendable {
    @exclusivity(unchecked) private var sink: Retained<Sink<Value, Failure>>
    private let broadcast: Broadcast
    /// Whether a replay to the member is under way: live events go to `catchUp` instead.
    private let isCatchingUp = Atomic<Bool>(false)
    /// Made by ``beginCatchUp()`` before the member joins, and never changed after.
    private var catchUp: CatchUp?

    required init(_ sink: Sink<Value, Failure>, in broadcast: Broadcast) {
        self.sink = Retained(sink)
        self.broadcast = broadcast
        super.init()
    }

    deinit {
        sink.release()
    }

    /// Sends `value` to the sink, or holds it back while the member catches up. As the walker.
    @inline(__always)
    package func forward(_ value: Value) {
        if isCatchingUp.load(ordering: .acquiring), holdBack(value) { return }
        sink.use { $0.receive(value) }
    }

    /// Out of line, so that ``forward(_:)`` builds no `Event` (whose metadata unspecialized code
    /// would look up for every value).
    @inline(never)
    private func holdBack(_ value: Value) -> Bool {
        catchUp!.hold(Event<Value, Failure>.next(value))
    }

    /// Sends a replayed `value` to the sink. As the thread that replays to the member, before it
    /// has joined or while it catches up.
    @inline(__always)
    package func replay(_ value: Value) {
        sink.use { $0.receive(value) }
    }

    /// Sends `error` to the sink and lets go of it; held back while the member catches up.
    package func finish(error: Failure) {
        if isCatchingUp.load(ordering: .acquiring), holdBack(error: error) { return }
        markEnded()
        sink.take(retiring: .current)?.receive(error: error)
    }

    /// Sends completion to the sink and lets go of it; held back while the member catches up.
    package func finishCompleted() {
        if isCatchingUp.load(ordering: .acquiring), holdBackCompletion() { return }
        markEnded()
        sink.take(retiring: .current)?.receiveCompleted()
    }

    @inline(never)
    private func holdBack(error: Failure) -> Bool {
        catchUp!.hold(Event<Value, Failure>.error(error))
    }

    @inline(never)
    private func holdBackCompletion() -> Bool {
        catchUp!.hold(Event<Value, Failure>.completed)
    }

    /// Cancels and lets go of the sink (the member was disposed); put off while it catches up.
    package func detachSink() {
        if isCatchingUp.load(ordering: .acquiring), catchUp!.holdEnd(.detach) { return }
        sink.take(retiring: .current)?.cancel()
    }

    /// Lets go of the sink without cancelling it (the input is gone), or cancels it when the
    /// member was disposed; put off while it catches up.
    package func abandonSink() {
        if isDisposed { return detachSink() }
        if isCatchingUp.load(ordering: .acquiring), catchUp!.holdEnd(.abandon) { return }
        sink.take(retiring: .current)?.inputReleased()
    }

    fileprivate override func detach() {
        detachSink()
    }

    fileprivate override func abandon() {
        abandonSink()
    }

    /// From now until ``endCatchUp(in:)``, live events are held back: for a subscriber that replays
    /// kept values to the member on its own thread. Before the member joins.
    package func beginCatchUp() {
        catchUp = CatchUp(replayer: DeliveryContext.current.id)
        isCatchingUp.store(true, ordering: .releasing)
    }

    /// Sends what was held back, in order, then lets live events through; by the thread that
    /// replayed to the member, whose context is `context`.
    ///
    /// The held events are delivered as the replay is, inside a delivery of `context` (see
    /// ``ReplaySink``); when that was this thread's outermost, what their callbacks put off
    /// (sends to subscribers that other threads deliver to) is done before the next look for
    /// held events, and so before live events pass, which might otherwise overtake those sends on
    /// their way through the same subscriber.
    package func endCatchUp(in context: DeliveryContext) {
        guard let catchUp else { return }
        while true {
            if context.depth == 0, context.hasDeferred { context.runDeferred(afterASend: false) }
            let (events, end) = catchUp.take(ifEmpty: { isCatchingUp.store(false, ordering: .releasing) })
            context.depth += 1
            for held in events {
                // Held as `Any`: the catch-up is not generic, so that replaying costs no metadata
                // lookup; only an event held back (a send racing the replay) pays for the box.
                let event = held as! Event<Value, Failure>
                switch event {
                case let .next(value):
                    if !isDisposed { sink.use { $0.receive(value) } }
                case let .error(error):
                    markEnded()
                    sink.take(retiring: context)?.receive(error: error)
                case .completed:
                    markEnded()
                    sink.take(retiring: context)?.receiveCompleted()
                }
            }
            switch end {
            case nil, .live?: break
            case .detach?: sink.take(retiring: context)?.cancel()
            case .abandon?: sink.take(retiring: context)?.inputReleased()
            }
            context.depth -= 1
            guard end != nil else { continue }
            if context.depth == 0, context.hasDeferred { context.runDeferred(afterASend: false) }
            return
        }
    }

    package override func dispose() {
        guard markDisposed() else { return }
        // Taken out at once when nobody walks the list; otherwise the walker (or whoever ended
        // the broadcast, or joins the member) lets go of the sink.
        broadcast.leave(self).detach()
    }
}

/// What a member that catches up holds back: the live events that came meanwhile, and how it was
/// let go of, if it was. Not generic, so that making one costs no metadata lookup.
///
/// **The bound.** The replaying thread delivers what is held while senders may go on sending: a
/// sender faster than the member's callbacks would keep it catching up for ever (its `subscribe`
/// never returning) and the held events would grow without limit. So, as at a subject's bound, a
/// sender that finds more than ``bound`` events held pays for it once it is outside every
/// delivery (it cannot wait inside one, where it might hold what the replaying thread waits
/// for): before its outermost send returns, it waits until the catch-up is over. (Waiting only
/// until what is held has been taken would let the sender refill it while the replaying thread
/// delivers, so the catch-up could still go on for ever.) Not the replaying thread itself, nor a thread that is
/// catching up a member of its own (two such threads could otherwise wait for each other).
private final class CatchUp: DeliveryDebt, @unchecked Sendable {
    enum End {
        case live, detach, abandon
    }

    private struct State {
        var events: [Any] = []
        var end: End?
        var isOver = false
        /// Senders waiting for the held events to be taken.
        var waiters: [DispatchSemaphore] = []
    }

    /// How many held events a sender may find before it waits: a subject's input's bound.
    static let bound = 64

    private let state = Lock(State())
    /// The ``DeliveryContext/id`` of the replaying thread.
    private let replayer: UInt

    init(replayer: UInt) {
        self.replayer = replayer
    }

    /// Holds `event` back; `false` once the catch-up is over (the caller delivers it).
    func hold(_ event: Any) -> Bool {
        let (isHeld, isBeyondTheBound) = state.withLock { state -> (Bool, Bool) in
            if state.isOver { return (false, false) }
            state.events.append(event)
            return (true, state.events.count > Self.bound)
        }
        if isBeyondTheBound { oweAWait() }
        return isHeld
    }

    /// Owes, until this thread has left its deliveries after a send, a wait for the held events to
    /// be taken (see ``DeliveryDebt``); once per catch-up.
    @inline(never)
    private func oweAWait() {
        let context = DeliveryContext.current
        guard context.id != replayer, !context.isCatchingUp, context.depth > 0 else { return }
        context.owe(self)
    }

    /// Waits, when more than ``bound`` events are held, until the catch-up is over.
    func settle() {
        let semaphore = DispatchSemaphore(value: 0)
        let waits = state.withLock { state -> Bool in
            guard !state.isOver, state.events.count > Self.bound else { return false }
            state.waiters.append(semaphore)
            return true
        }
        if waits { semaphore.wait() }
    }

    /// Records that the member was let go of; `false` once the catch-up is over.
    func holdEnd(_ end: End) -> Bool {
        state.withLock { state in
            if state.isOver { return false }
            if state.end == nil { state.end = end }
            return true
        }
    }

    /// The events held back; when there are none, ends the catch-up (running `over` under the
    /// lock) and also returns how to end it.
    func take(ifEmpty over: () -> Void) -> ([Any], End?) {
        let (events, end, waiters) = state.withLock { state -> ([Any], End?, [DispatchSemaphore]) in
            if state.events.isEmpty {
                state.isOver = true
                over()
                let waiters = state.waiters
                state.waiters = []
                return ([], state.end ?? .live, waiters)
            }
            defer { state.events = [] }
            return (state.events, nil, [])
        }
        // The catch-up is over: the senders waiting for it go on.
        for waiter in waiters { waiter.signal() }
        return (events, end)
    }
}
