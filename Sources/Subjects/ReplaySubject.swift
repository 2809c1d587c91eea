import Disposables
import Signals

/// A subject that sends each new subscriber the last `capacity` values, then the terminal event
/// if there was one, then the live events.
///
/// Replay and live events join with no gap and no duplicate, also when sends race with
/// subscriptions: a new subscriber takes a snapshot of the kept values as it joins, and the live
/// events sent meanwhile are held back and follow the replay, in order. The replay runs where the
/// subscription is made (below), not on the thread delivering the subject's events, and never
/// waits for that delivery: subscribing never waits, nor delivers another subscription's events.
///
/// As in RAC 2.5, the replay goes through `Scheduler.subscription`: at once, on the subscribing
/// thread, where a scheduler is current (or on the main thread), else on a background scheduler,
/// so that `subscribe` may return before it. So the replay always runs on a scheduler, and a
/// subscriber on a plain thread or a global queue can dispose its subscription from its first
/// replayed value. A replayed value's callback is a callback like a live one's: a send from it
/// (into this subject, too) never waits for another thread. A sender (of a value, an error or
/// completion) that finds more than 64 live events held back for a subscriber still catching up
/// waits, once it has left its own callbacks, until that subscriber has caught up: so a sender faster than the subscriber can
/// neither keep it catching up for ever nor grow what is held without limit.
///
/// ```swift
/// let recent = ReplaySubject<String, Never>(capacity: 2)
/// recent.sendNext("a"); recent.sendNext("b"); recent.sendNext("c")
/// recent.subscribe(next: { print($0) })   // prints b, c
/// ```
///
/// RAC 2.5: `RACReplaySubject`, `+replaySubjectWithCapacity:`.
public final class ReplaySubject<Value, Failure: Error>: Subject<Value, Failure>, @unchecked Sendable {
    @usableFromInline let observers: ReplaySink<Value, Failure>

    /// A replay subject keeping the last `capacity` values.
    ///
    /// - Parameter capacity: How many values to replay; `0` replays only the terminal event. The
    ///   default, unlimited, is RAC 2.5's: it keeps every value ever sent, for the subject's
    ///   lifetime, so memory grows with each send; give a bound when the stream is long.
    ///   A negative capacity stops the program with a message naming it.
    ///
    /// RAC 2.5: `+replaySubjectWithCapacity:` (`+subject` for the unlimited default).
    //
    // `@inlinable`, so that a client with its own types makes the subject's parts (as a command
    // does for each execution) without the lookups of their generic metadata that unspecialized
    // code makes for each.
    @inlinable
    public init(capacity: Int = .max) {
        checkInput(capacity >= 0, "ReplaySubject(capacity:) needs a capacity of zero or more, got \(capacity)")
        let observers = ReplaySink<Value, Failure>(capacity: capacity, memberType: BroadcastObserver<Value, Failure>.self)
        self.observers = observers
        super.init(replaying: observers, input: SerialInput(observers))
    }

    /// Keeps `value` as the latest, for later subscribers, without sending it to the current ones.
    func keepSilently(_ value: Value) {
        input.run { [observers] in observers.keepSilently(value) }
    }
}
