import Disposables

extension Signal {
    /// Sends this signal's values until `trigger` sends a value or completes; then disposes this
    /// signal and completes.
    ///
    /// The trigger is subscribed first: one that fires at once means this signal is never
    /// subscribed. An error from the trigger is ignored (the trigger just stops watching), as in
    /// RAC 2.5; this signal's error and completion end the result as usual.
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
private final class TriggerInput<Tick, TriggerFailure: Error, Value, Failure: Error>: JunctionInput<Tick, TriggerFailure>, @unchecked Sendable {
    private let junction: Junction<Value, Failure>

    init(_ junction: Junction<Value, Failure>) {
        self.junction = junction
        super.init(junction)
    }

    override func process(_: Tick) {
        junction.complete()
    }

    override func processCompleted() {
        junction.complete()
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
