import Disposables
import Synchronization

/// The subscribers of a hot signal (a pipe, a subject): sent to by the owner of the input's
/// delivery lock, one event at a time, and joined and left from any thread.
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
    private struct Shared {
        /// Members that joined since the sender last looked, in order.
        var joining = Bag<BroadcastMember>()
        /// Whether a member of `members` has left since the sender last looked.
        var hasLeavers = false
        var isTerminated = false
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

    /// Adds `member`, which gets every event sent after this returns; `false`, without adding
    /// it, once the broadcast has ended.
    package func join(_ member: BroadcastMember) -> Bool {
        shared.withLock(annotated: isAnnotated) { shared in
            if shared.isTerminated { return false }
            member.token = shared.joining.insert(member)
            isChanged.store(true, ordering: .releasing)
            return true
        }
    }

    /// Removes `member`, which has been marked disposed already, so the sender skips it from now.
    package func leave(_ member: BroadcastMember) {
        let removed = shared.withLock(annotated: isAnnotated) { shared -> BroadcastMember? in
            if let token = member.token.take() { return shared.joining.remove(token) }
            if !shared.isTerminated {
                shared.hasLeavers = true
                isChanged.store(true, ordering: .releasing)
            }
            return nil
        }
        // Released after unlocking.
        _ = removed
    }

    /// The current members, up to date with every join and leave that happened before this call;
    /// valid until the next call. For the sender only.
    @inline(__always)
    package func currentMembers() -> UnsafeBufferPointer<Unmanaged<BroadcastMember>> {
        if isChanged.load(ordering: .acquiring) { update() }
        return UnsafeBufferPointer(start: members, count: count)
    }

    /// Ends the broadcast: no member joins after this. Returns every member, in order, each
    /// retained once for the caller; for the sender, or for the last owner.
    package func end() -> [BroadcastMember] {
        detachAll()
    }

    private func detachAll() -> [BroadcastMember] {
        shared.withLock(annotated: isAnnotated) { shared in
            shared.isTerminated = true
            isChanged.store(false, ordering: .relaxed)
            var all: [BroadcastMember] = []
            all.reserveCapacity(count + (shared.joining.isEmpty ? 0 : 1))
            for index in 0..<count { all.append(members![index].takeRetainedValue()) }
            members?.deallocate()
            members = nil
            count = 0
            capacity = 0
            for member in shared.joining.elements {
                member.token = nil
                all.append(member)
            }
            shared.joining.removeAll()
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
            for member in shared.joining.elements {
                member.token = nil
                append(member)
            }
            shared.joining.removeAll()
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
package class BroadcastMember: Disposable, @unchecked Sendable {
    /// Where the member waits to join; read and written under the broadcast's lock only.
    fileprivate var token: Bag<BroadcastMember>.Token?
}
