import Disposables

extension Signal {
    /// Sends this signal's latest value each time `sampler` sends a value.
    ///
    /// A tick before this signal's first value sends nothing; each tick resends the latest value,
    /// the same one again if nothing newer came. Completes when either signal completes and fails
    /// when either fails, disposing the other first.
    ///
    /// This signal is subscribed first, then `sampler`, always: when this signal ends while being
    /// subscribed, `sampler` is still subscribed (its subscription's side effects happen) and
    /// disposed at once.
    ///
    /// ```swift
    /// position.sample(frameTicks)   // the position at each frame
    /// ```
    ///
    /// RAC 2.5: `-sample:`.
    public func sample<U>(_ sampler: Signal<U, Failure>) -> Signal {
        Signal(producer: { downstream in
            let junction = Junction<Value, Failure>(downstream)
            let latest = LatestLane<Value>(offset: 0)
            _ = self.attachSink(SampledInput(junction, latest: latest))
            // Subscribed even when this signal ended meanwhile, as RAC 2.5 does, so that the
            // sampler's subscription side effects run; its subscription then joins the disposed
            // one and is disposed at once, and its ticks are dropped.
            _ = sampler.attachSink(SamplerInput(junction, latest: latest))
            return junction.handOverSubscription()
        }).named(derivedName("-sample: \(sampler.name ?? "")"))
    }
}

/// The sink of the sampled signal: keeps its latest value.
private final class SampledInput<Value, Failure: Error>: PassingInput<Value, Failure>, @unchecked Sendable {
    private let latest: LatestLane<Value>

    init(_ junction: Junction<Value, Failure>, latest: LatestLane<Value>) {
        self.latest = latest
        super.init(junction)
    }

    override func process(_ value: Value) {
        latest.store(value)
    }
}

/// The sink of the sampler: each tick sends the latest value, if there is one.
private final class SamplerInput<Tick, Value, Failure: Error>: JunctionInput<Tick, Failure>, @unchecked Sendable {
    private let junction: Junction<Value, Failure>
    private let latest: LatestLane<Value>

    init(_ junction: Junction<Value, Failure>, latest: LatestLane<Value>) {
        self.junction = junction
        self.latest = latest
        super.init(junction)
    }

    override func process(_: Tick) {
        if latest.count > 0 { junction.emit(latest.latest) }
    }

    override func process(error: Failure) {
        junction.fail(error)
    }

    override func processCompleted() {
        junction.complete()
    }
}
