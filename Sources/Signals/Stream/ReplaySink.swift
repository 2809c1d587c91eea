import Disposables
import Schedulers

/// A ``BroadcastSink`` that keeps the last `capacity` values it sent, for the replaying subjects.
///
/// The kept values are changed by the input's deliverer, under the broadcast's lock, in one step
/// with bringing the member list up to date; a new subscriber takes its snapshot of them under
/// the same lock as it joins (``subscribe(_:synchronously:)``). So no send can fall between the
/// replay and the first live value: nothing is missed and nothing comes twice, however sends and
/// subscriptions race.
@usableFromInline
package final class ReplaySink<Value, Failure: Error>: BroadcastSink<Value, Failure>, @unchecked Sendable {
    private let capacity: Int
    private let replaysValuesAfterEnd: Bool
    /// The kept values, in raw memory (a generic array would look up its type metadata on every
    /// append): in order until `capacity` are kept, then a ring whose oldest is at `start`, each
    /// new value replacing (and releasing) the oldest.
    @exclusivity(unchecked) private var kept: UnsafeMutablePointer<Value>?
    @exclusivity(unchecked) private var allocated = 0
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var start = 0

    /// - Parameters:
    ///   - capacity: How many of the latest values to keep; 0 keeps none.
    ///   - replaysValuesAfterEnd: Whether a subscriber that comes after the terminal event gets the
    ///     kept values before it (a replay subject) or the terminal event alone (a behavior subject).
    package init(capacity: Int, replaysValuesAfterEnd: Bool = true) {
        self.capacity = capacity
        self.replaysValuesAfterEnd = replaysValuesAfterEnd
        super.init()
    }

    /// A replay subject's sink, keeping the last `capacity` values, whose members are of
    /// `memberType` (see ``BroadcastSink/init(memberType:)``).
    @usableFromInline
    package init(capacity: Int, memberType: BroadcastObserver<Value, Failure>.Type) {
        self.capacity = capacity
        replaysValuesAfterEnd = true
        super.init(memberType: memberType)
    }

    deinit {
        kept?.deinitialize(count: count)
        kept?.deallocate()
    }

    package override func receive(_ value: Value) {
        // Kept in one step with the members' update, so that a subscriber's snapshot (taken as it
        // joins, under the same lock) holds exactly the values sent before it joined.
        deliver(value, to: broadcast.beginWalk(under: { keep(value) }))
    }

    /// Subscribes `sink`: replays the kept values, then the terminal event if there was one, else
    /// makes it a member, with no value missed or sent twice. The replay runs on the subscribing
    /// thread, never as the input's deliverer, so a subscription never delivers another one's
    /// events and never waits for them: the member joins with a snapshot of the kept values and
    /// holds back the live events that come meanwhile, which follow the replay in order.
    ///
    /// As in RAC 2.5's replay subject, this goes through ``Scheduler/subscription``: at once when
    /// a scheduler is current (or on the main thread), else on a background scheduler, so that
    /// the replay runs on a scheduler, after `subscribe` has returned the disposable that its
    /// callbacks may dispose. A member disposed before its turn is replayed nothing.
    ///
    /// - Parameter synchronously: Replay on the subscribing thread instead, as an observed
    ///   property sends its current value (RAC 2.5's `RACObserve`).
    package func subscribe(_ sink: Sink<Value, Failure>, synchronously: Bool = false) -> Disposable {
        let member = member(for: sink)
        if synchronously || Scheduler.current != nil {
            replay(to: member)
        } else {
            Scheduler.subscription.schedule { [self] in replay(to: member) }
        }
        return member
    }

    private func replay(to member: BroadcastObserver<Value, Failure>) {
        member.beginCatchUp()
        var snapshot = UnsafeMutableBufferPointer<Value>(start: nil, count: 0)
        let (joined, ending) = broadcast.join(member) { ending in
            let isTerminated = switch ending {
            case .completed?, .failed?: true
            case .abandoned?, nil: false
            }
            if replaysValuesAfterEnd || !isTerminated { snapshot = keptValues() }
        }
        // The replay is a delivery of this signal's events, like the walk of a live one: inside
        // it, a send from a callback waits for no other thread (`DeliveryContext`), neither at a
        // subject's bound (`SerialInput`) nor for a subscriber that another thread delivers to,
        // so a callback that sends into the very subject replaying to it cannot wait for a
        // deliverer that is waiting for this subscription.
        let context = DeliveryContext.current
        context.countCatchUp(1)
        defer { context.countCatchUp(-1) }
        context.depth += 1
        // Raw memory, not an array: walking an array of a generic element in unspecialized code
        // costs a metadata lookup per value.
        var index = 0
        while index < snapshot.count, !member.isDisposed {
            member.replay(snapshot[index])
            index += 1
        }
        context.depth -= 1
        _ = snapshot.deinitialize()
        snapshot.deallocate()
        member.endCatchUp(in: context)
        if !joined { finishTurnedAway(member, ending) }
    }

    /// A copy of the kept values, oldest first, which the caller deinitializes and deallocates.
    /// Under the broadcast's lock.
    private func keptValues() -> UnsafeMutableBufferPointer<Value> {
        guard let kept, count > 0 else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
        let copy = UnsafeMutablePointer<Value>.allocate(capacity: count)
        (copy).initialize(from: kept + start, count: count - start)
        (copy + (count - start)).initialize(from: kept, count: start)
        return UnsafeMutableBufferPointer(start: copy, count: count)
    }

    /// Keeps `value` as the latest, for later subscribers, without sending it: as the input's
    /// deliverer.
    package func keepSilently(_ value: Value) {
        broadcast.withListLocked { keep(value) }
    }

    /// Keeps `value` as the latest, without sending it: as the input's deliverer, under the
    /// broadcast's lock, or before anything can subscribe.
    package func keep(_ value: Value) {
        if count < capacity {
            if count == allocated { grow() }
            (kept! + count).initialize(to: value)
            count += 1
        } else if capacity > 0 {
            kept![start] = value
            start = start + 1 == capacity ? 0 : start + 1
        }
    }

    /// Doubles the storage, up to the capacity; the values are still in order (`start` is 0
    /// until the capacity is reached, and then the storage no longer grows).
    private func grow() {
        allocated = Swift.min(capacity, Swift.max(16, allocated * 2))
        let grown = UnsafeMutablePointer<Value>.allocate(capacity: allocated)
        if let kept {
            grown.moveInitialize(from: kept, count: count)
            kept.deallocate()
        }
        kept = grown
    }
}
