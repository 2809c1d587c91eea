import Disposables
import Schedulers

/// A ``BroadcastSink`` that keeps the last `capacity` values it sent, for the replaying subjects.
///
/// The kept values are touched only by the input's deliverer: each value is kept as it is sent,
/// and a new subscriber is replayed to and made a member in one piece of work run as the
/// deliverer (``subscribe(_:through:)``). So no send can fall between the replay and the first live
/// value: nothing is missed and nothing comes twice, however sends and subscriptions race.
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
        keep(value)
        super.receive(value)
    }

    /// Subscribes `sink` through `input`: replays the kept values, then the terminal event if
    /// there was one, else makes it a member, all as the input's deliverer.
    ///
    /// As in RAC 2.5's replay subject, this goes through ``Scheduler/subscription``: at once when
    /// a scheduler is current (or on the main thread), else on a background scheduler, so that
    /// the replay runs on a scheduler, after `subscribe` has returned the disposable that its
    /// callbacks may dispose. A member disposed before its turn is replayed nothing.
    ///
    /// - Parameter synchronously: Replay on the subscribing thread instead, as an observed
    ///   property sends its current value (RAC 2.5's `RACObserve`).
    package func subscribe(
        _ sink: Sink<Value, Failure>,
        through input: SerialInput<Value, Failure>,
        synchronously: Bool = false
    ) -> Disposable {
        let member = member(for: sink, deliveredUnder: input)
        if synchronously || Scheduler.current != nil {
            // Where the subscription scheduler runs it at once (a scheduler is current), at once
            // here, as it would: no closure is made for it unless the input is busy.
            replay(to: member, through: input)
        } else {
            Scheduler.subscription.schedule { [self] in replay(to: member, through: input) }
        }
        return member
    }

    /// Replays to `member` as the input's deliverer: `input.run`, without making its closure
    /// when nobody delivers.
    private func replay(to member: BroadcastObserver<Value, Failure>, through input: SerialInput<Value, Failure>) {
        if input.quiesceIfFree({ replay(to: member) }) { return }
        input.run { [self] in replay(to: member) }
    }

    private func replay(to member: BroadcastObserver<Value, Failure>) {
        if replaysValuesAfterEnd || !broadcast.hasTerminalEvent {
            guard replay(start..<count, to: member), replay(0..<start, to: member) else { return }
        }
        _ = join(member)
    }

    /// Sends the kept values at `indices`; `false` once the member is disposed.
    private func replay(_ indices: Range<Int>, to member: BroadcastObserver<Value, Failure>) -> Bool {
        guard let kept else { return true }
        for index in indices {
            if member.isDisposed { return false }
            member.forward(kept[index])
        }
        return true
    }

    /// Keeps `value` as the latest, without sending it: as the input's deliverer, or before
    /// anything can subscribe.
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
