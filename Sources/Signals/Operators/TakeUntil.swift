import Disposables

extension Signal {
    /// Sends this signal's values until `trigger` sends a value or completes; then disposes this
    /// signal and completes.
    ///
    /// The trigger is subscribed first: one that fires at once means this signal is never
    /// subscribed. An error from the trigger is ignored (the trigger just stops watching), as in
    /// RAC 2.5; this signal's error and completion end the result as usual.
    ///
    /// The trigger never waits: fired on one thread while another delivers a value of this signal,
    /// it returns at once, and the delivering thread completes the result as soon as that value
    /// has been delivered (nothing this signal sends after it arrives). A value the trigger's thread
    /// sent this signal before, put off because it was inside a delivery of its own, still arrives
    /// first. So a trigger fired from a deinit, as ``Lifetime/ended`` is, cannot deadlock with a
    /// callback that waits for its thread.
    ///
    /// ```swift
    /// ticks.take(until: viewDisappeared)
    /// ```
    ///
    /// RAC 2.5: `-takeUntil:`.
    public func take<U, TriggerFailure>(until trigger: Signal<U, TriggerFailure>) -> Signal {
        Signal(producer: { downstream in
            let junction = Junction<Value, Failure>(downstream)
            _ = trigger.attachSink(TriggerInput(junction))
            if !junction.isClosed {
                _ = self.attachSink(PassingInput(junction))
            }
            return junction.handOverSubscription()
        }).named(derivedName("-takeUntil: \(trigger.name ?? "")"))
    }
}

/// The sink of the trigger: its first value or its completion ends the result.
///
/// A member of the junction but not a `JunctionInput`: the trigger never waits for the junction.
/// A trigger sent while another thread delivers a value of the source hands the end to that
/// thread, which completes as soon as the value has been delivered, and returns at once (a
/// trigger sent from a deinit, as `Lifetime.ended` is, must not wait for another thread's
/// callback: one that waits for the releasing thread would deadlock with it).
private final class TriggerInput<Tick, TriggerFailure: Error, Value, Failure: Error>: JunctionMember<Tick, TriggerFailure>, @unchecked Sendable {
    private let junction: Junction<Value, Failure>

    init(_ junction: Junction<Value, Failure>) {
        self.junction = junction
        super.init(junction)
    }

    override func receive(_: Tick) {
        end()
    }

    override func receiveCompleted() {
        end()
    }

    /// Completes the result without waiting (see ``Junction/completeWithoutWaiting(puttingOffAs:)``):
    /// now when nobody delivers, else by the delivering thread as its event ends, but never before
    /// what this thread put off earlier while inside a delivery (a value it sent the source first).
    private func end() {
        junction.completeWithoutWaiting(puttingOffAs: self)
    }
}

/// The sink of a signal whose events pass through a junction as they are.
class PassingInput<Value, Failure: Error>: JunctionInput<Value, Failure>, @unchecked Sendable {
    final let junction: Junction<Value, Failure>

    init(_ junction: Junction<Value, Failure>) {
        self.junction = junction
        super.init(junction)
    }

    override func process(_ value: Value) {
        junction.emit(value)
    }

    override final func process(error: Failure) {
        junction.fail(error)
    }

    override final func processCompleted() {
        junction.complete()
    }
}
