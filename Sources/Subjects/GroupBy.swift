import Disposables
import Signals

/// A subject for the values of one group of a ``Signals/Signal/group(by:transform:)``, with its key.
///
/// RAC 2.5: `RACGroupedSignal`.
public final class GroupedSignal<Key: Hashable, Value, Failure: Error>: Subject<Value, Failure>, @unchecked Sendable {
    /// What every value of the group maps to.
    ///
    /// RAC 2.5: `key`.
    public let key: Key

    init(key: Key) {
        self.key = key
        super.init(broadcastingTo: BroadcastSink())
    }
}

extension Signal {
    /// Splits the values into groups by key: sends a ``GroupedSignal`` the first time its key
    /// appears, before its first value, then sends each value, transformed, to its group.
    ///
    /// Groups are hot: a group's subscriber gets only the values sent after it subscribed. An
    /// error or completion goes to the outer subscriber first, then to every group, in the order
    /// they appeared. Disposing the subscription stops the source; the groups then get nothing
    /// more (and no terminal event).
    ///
    /// ```swift
    /// words.group(by: { $0.first }).subscribe(next: { group in
    ///     group.subscribe(next: { print(group.key, $0) })
    /// })
    /// ```
    ///
    /// RAC 2.5: `-groupBy:transform:`.
    public func group<Key: Hashable & Sendable, Transformed>(
        by key: @escaping @Sendable (Value) -> Key,
        transform: @escaping @Sendable (Value) -> Transformed
    ) -> Signal<GroupedSignal<Key, Transformed, Failure>, Failure> {
        Signal<GroupedSignal<Key, Transformed, Failure>, Failure> { subscriber in
            let groups = Groups<Key, Transformed, Failure>()
            // Joins the subscriber's disposable before the first value, so disposing it from
            // inside a group's arrival ends a source that is still sending synchronously.
            return self.subscribe(for: subscriber, next: { value in
                let key = key(value)
                let (group, isNew) = groups.group(for: key)
                if isNew { subscriber.sendNext(group) }
                group.sendNext(transform(value))
            }, error: { error in
                subscriber.sendError(error)
                for group in groups.all { group.sendError(error) }
            }, completed: {
                subscriber.sendCompleted()
                for group in groups.all { group.sendCompleted() }
            })
        }.named(derivedName("-groupBy:transform:"))
    }

    /// ``group(by:transform:)`` with the values unchanged.
    ///
    /// RAC 2.5: `-groupBy:`.
    public func group<Key: Hashable & Sendable>(
        by key: @escaping @Sendable (Value) -> Key
    ) -> Signal<GroupedSignal<Key, Value, Failure>, Failure> {
        group(by: key, transform: { $0 })
    }
}

/// The groups of one subscription, in the order their keys appeared.
private final class Groups<Key: Hashable, Value, Failure: Error>: @unchecked Sendable {
    private struct State {
        var byKey: [Key: GroupedSignal<Key, Value, Failure>] = [:]
        var ordered: [GroupedSignal<Key, Value, Failure>] = []
    }

    private let state = Lock(State())

    /// The group of `key`, made if it is new.
    func group(for key: Key) -> (GroupedSignal<Key, Value, Failure>, isNew: Bool) {
        state.withLock { state in
            if let group = state.byKey[key] { return (group, false) }
            let group = GroupedSignal<Key, Value, Failure>(key: key)
            state.byKey[key] = group
            state.ordered.append(group)
            return (group, true)
        }
    }

    var all: [GroupedSignal<Key, Value, Failure>] {
        state.withLock { $0.ordered }
    }
}
