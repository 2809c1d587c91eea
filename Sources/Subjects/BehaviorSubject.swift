import Signals

/// A subject with a current value: each new subscriber gets it at once, then the live events.
///
/// The current value is the initial one, then the last value sent. A subscriber that comes after
/// the terminal event gets the terminal event alone: a behavior subject replays no value after
/// the end. **Departure:** RAC 2.5's behavior subject keeps no terminal state, so there a late
/// subscriber gets the current value and then waits forever.
///
/// ```swift
/// let selection = BehaviorSubject<Int, Never>(value: 0)
/// selection.subscribe(next: { print($0) })   // prints 0
/// selection.sendNext(3)                       // prints 3
/// ```
///
/// As in RAC 2.5, the current value goes to a new subscriber through `Scheduler.subscription`:
/// at once, on the subscribing thread, where a scheduler is current (or on the main thread), else
/// on a background scheduler. It is the value current as the subscriber joins; values sent
/// meanwhile are held back and follow it, in order. Subscribing never waits for the subject's
/// delivery under way, nor delivers another subscription's events.
///
/// RAC 2.5: `RACBehaviorSubject`, `+behaviorSubjectWithDefaultValue:`.
public final class BehaviorSubject<Value, Failure: Error>: Subject<Value, Failure>, @unchecked Sendable {
    /// A behavior subject whose current value is `value`.
    ///
    /// RAC 2.5: `+behaviorSubjectWithDefaultValue:`.
    public init(value: Value) {
        let observers = ReplaySink<Value, Failure>(capacity: 1, replaysValuesAfterEnd: false)
        observers.keep(value)
        super.init(replaying: observers, input: SerialInput(observers))
    }
}
