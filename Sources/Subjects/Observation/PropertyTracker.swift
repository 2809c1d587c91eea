import Disposables
import Observation
import Schedulers
import Synchronization

/// Follows one property of an `@Observable` object with `withObservationTracking`, on the
/// scheduler the object lives on: what `signal(for:on:)` and `channel(for:on:)` are built on.
///
/// `withObservationTracking` calls its `onChange` once, on the thread making the change, *before*
/// the new value is stored. So the tracker never reads the value there: it schedules a re-read
/// on `scheduler`, which runs after the change (and after every other change made in the same
/// block of that scheduler, which the re-read sees as one), reads the value, sends it and tracks
/// again.
///
/// Invariant: the object and `keyPath` are read and written only in blocks `scheduler` runs, or on
/// its thread while it is `Scheduler.current`; the owner of the object makes its changes there
/// too (the main thread for a SwiftUI model). The tracker's own state is under `state`'s lock, so
/// its methods may be called from any thread; `onValue` and `onEnd` run on the scheduler, never
/// under the lock.
final class PropertyTracker<Root: AnyObject & Observable & SendableMetatype, Value>: @unchecked Sendable {
    private weak var object: Root?
    private let keyPath: KeyPath<Root, Value>
    private let scheduler: Scheduler
    /// What the tracker does when reading the property tracked nothing (the property is not one
    /// Observation tracks): no change to it can ever be seen, nor the object's going, so waiting
    /// for either would keep `onValue` and `onEnd`, and what they hold, for ever. `true`: it
    /// ends (`onEnd` runs); `false`: it stops (both are let go of uncalled). Either in a block of
    /// its own, after the value the read sends.
    private let endsWhenUntracked: Bool
    private let state: Lock<TrackerState<Value>>

    /// `onValue` gets the current value, then each change; `onEnd` runs once, when the object has
    /// gone, or, if `endsWhenUntracked`, once reading the property is seen to track nothing
    /// (without it, the tracker then stops).
    /// Neither runs after `stop()` returns on the scheduler's thread, nor at all once `stop()` has
    /// run before them.
    init(
        _ object: Root,
        _ keyPath: KeyPath<Root, Value>,
        on scheduler: Scheduler,
        endsWhenUntracked: Bool = false,
        onValue: @escaping (Value) -> Void,
        onEnd: @escaping () -> Void
    ) {
        self.object = object
        self.keyPath = keyPath
        self.scheduler = scheduler
        self.endsWhenUntracked = endsWhenUntracked
        // The tracker guards its state itself; `Lock` needs the value in a region of its own.
        nonisolated(unsafe) let initial = TrackerState(onValue: onValue, onEnd: onEnd)
        state = Lock(initial)
    }

    /// Reads the value, sends it and starts tracking: at once when the scheduler is current,
    /// else in a block scheduled on it.
    func start() -> Disposable? {
        if Scheduler.current === scheduler {
            track(sending: true)
            return nil
        }
        return scheduler.schedule { [self] in track(sending: true) }
    }

    /// Stops: nothing is sent any more, and what was to receive it is let go of. Any thread.
    func stop() {
        // Taken out, and released once the lock is let go of: releasing a subscriber may run
        // user code.
        _ = state.withLock { state in
            defer { state.onValue = nil; state.onEnd = nil }
            return (state.onValue, state.onEnd)
        }
    }

    /// Sets the property to `value`, a value that came from the other side of a binding: the
    /// change it makes is tracked again at once but not sent back. On the scheduler only.
    func set(_ value: Value, through keyPath: ReferenceWritableKeyPath<Root, Value>) {
        guard let object else { return }
        state.withLock { $0.settingFromBinding = true }
        object[keyPath: keyPath] = value
        let tracksAgain = state.withLock { state in
            state.settingFromBinding = false
            defer { state.changedWhileSetting = false }
            return state.changedWhileSetting
        }
        if tracksAgain { track(sending: false) }
    }

    /// On the scheduler: reads the value while tracking it, and sends it if `sending`.
    private func track(sending: Bool) {
        guard state.withLock({ $0.onValue != nil }) else { return }
        guard let object else {
            end()
            return
        }
        let watch = ChangeWatch(self)
        let value = withObservationTracking {
            object[keyPath: keyPath]
        } onChange: {
            watch.changed()
        }
        guard sending, let onValue = state.withLock({ $0.onValue }) else { return }
        onValue(value)
    }

    /// `onChange`: on the thread making the change, before it is stored.
    fileprivate func changed() {
        let rereads = state.withLock { state in
            guard state.onValue != nil else { return false }
            if state.settingFromBinding {
                state.changedWhileSetting = true
                return false
            }
            return true
        }
        if rereads { scheduler.schedule { [self] in track(sending: true) } }
    }

    /// The tracking ended without a change: the object has gone, or the property is not one
    /// Observation tracks (the registrar never held the tracking: this runs inside `track`, on
    /// the scheduler, with the object held), and will never be seen to change. What follows runs
    /// in a block of its own, after the value the read sends.
    fileprivate func trackingDropped() {
        // Stopped already (disposed, or ended): nothing is left to end. Scheduling a block anyway
        // would keep the tracker (and, through it, the scheduler) in a scheduler that may never
        // run again, as a test's `TestScheduler` that is let go of.
        guard state.withLock({ $0.onValue != nil || $0.onEnd != nil }) else { return }
        if object == nil || endsWhenUntracked {
            scheduler.schedule { [self] in end() }
        } else {
            scheduler.schedule { [self] in stop() }
        }
    }

    private func end() {
        let onEnd = state.withLock { state in
            defer { state.onValue = nil; state.onEnd = nil }
            return state.onEnd
        }
        onEnd?()
    }
}

private struct TrackerState<Value> {
    var onValue: ((Value) -> Void)?
    var onEnd: (() -> Void)?
    /// The tracker is setting the property from a binding, on the scheduler.
    var settingFromBinding = false
    /// The tracked property changed during that set.
    var changedWhileSetting = false
}

/// What one `withObservationTracking` call's `onChange` holds. The object's registrar keeps it
/// until the property changes (`changed()` runs, then the registrar lets it go) or until the
/// object goes (the registrar goes with the object and lets it go without calling it). So a watch
/// let go of unchanged means the object has gone: the tracker ends, deterministically and without
/// polling.
private final class ChangeWatch<Root: AnyObject & Observable & SendableMetatype, Value>: Sendable {
    private let tracker: PropertyTracker<Root, Value>
    private let hasChanged = Atomic(false)

    init(_ tracker: PropertyTracker<Root, Value>) {
        self.tracker = tracker
    }

    func changed() {
        hasChanged.store(true, ordering: .releasing)
        tracker.changed()
    }

    deinit {
        if !hasChanged.load(ordering: .acquiring) { tracker.trackingDropped() }
    }
}
