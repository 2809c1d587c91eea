import Disposables

extension Signal {
    /// Sends the latest value of this signal and of `other` as a pair, each time either sends,
    /// once both have sent a value.
    ///
    /// ```swift
    /// username.combineLatest(with: password)   // ("a", "1"), ("ab", "1"), ("ab", "12"), …
    /// ```
    ///
    /// Completes when both have completed; an error from either disposes the other, then is sent.
    ///
    /// RAC 2.5: `-combineLatestWith:`.
    public func combineLatest<U>(with other: Signal<U, Failure>) -> Signal<(Value, U), Failure> {
        Signal<(Value, U), Failure>.combineLatest(self, other).named(derivedName("-combineLatestWith: \(other.name ?? "")"))
    }

    /// Sends the latest value of every signal, as a tuple, each time any of them sends, once all
    /// of them have sent a value.
    ///
    /// Nothing is sent until every input has sent a value. Completes when all inputs have
    /// completed; an error from any input disposes the others, then is sent. All the inputs share
    /// one state and one lock: this is not a chain of pairwise combines.
    ///
    /// RAC 2.5: `+combineLatest:`.
    public static func combineLatest<each V>(_ signals: repeat Signal<each V, Failure>) -> Signal<(repeat each V), Failure>
    where Value == (repeat each V) {
        var inputs: [(CombineLatestJunction<Value, Failure>, Int) -> Subscribe] = []
        for signal in repeat each signals {
            inputs.append(LatestInput.make(signal))
        }
        return joining(
            { CombineLatestJunction($0, rows: TupleRowMaker<Value>()) },
            inputs: inputs,
            offsets: TupleRowMaker<Value>.offsets(of: repeat (each V).self)
        ).named("+combineLatest:")
    }

    /// Sends the latest value of every signal, as an array in the order of the signals, each time
    /// any of them sends, once all of them have sent a value.
    ///
    /// No signals complete at once without a value; one signal gives one-element arrays. All the
    /// inputs share one state and one lock, so ten thousand inputs cost ten thousand lanes, not
    /// ten thousand nested operators.
    ///
    /// RAC 2.5: `+combineLatest:`.
    public static func combineLatest<V>(_ signals: some Sequence<Signal<V, Failure>>) -> Signal<[V], Failure>
    where Value == [V] {
        let inputs = signals.map { LatestInput<V, [V], Failure>.make($0) }
        return joining(
            { CombineLatestJunction($0, rows: ArrayRowMaker<V>()) },
            inputs: inputs,
            offsets: inputs.indices.map(ArrayRowMaker<V>.offset(ofLaneAt:))
        ).named("+combineLatest:")
    }
}

/// The state of one subscription to a combineLatest: the latest value of each input (its lane).
final class CombineLatestJunction<Row, Failure: Error>: RowJunction<Row, Failure>, @unchecked Sendable {
    /// How many inputs have sent no value yet; rows go out once none.
    @exclusivity(unchecked) private var lanesWithoutValue = 0
    /// How many inputs have not completed; the result completes once none.
    @exclusivity(unchecked) private var runningLanes = 0

    override func didMakeLanes() {
        lanesWithoutValue = lanes.count
        runningLanes = lanes.count
    }

    /// `lane` has a new latest value, stored already; `wasEmpty` if it is its first.
    @inline(__always)
    func didStore(wasEmpty: Bool) {
        if wasEmpty { lanesWithoutValue -= 1 }
        if lanesWithoutValue == 0 { withRow { emit($0) } }
    }

    func didComplete() {
        runningLanes -= 1
        if runningLanes == 0 { complete() }
    }
}

/// The sink of one input of a combineLatest.
private final class LatestInput<Value, Row, Failure: Error>: JunctionInput<Value, Failure>, @unchecked Sendable {
    private let combine: CombineLatestJunction<Row, Failure>
    private let lane: LatestLane<Value>

    init(_ combine: CombineLatestJunction<Row, Failure>, lane: LatestLane<Value>) {
        self.combine = combine
        self.lane = lane
        super.init(combine)
    }

    /// What subscribes `signal` as an input of a combineLatest, at a given offset in its rows.
    static func make(_ signal: Signal<Value, Failure>) -> (CombineLatestJunction<Row, Failure>, Int) -> Subscribe {
        { combine, offset in
            let lane = LatestLane<Value>(offset: offset)
            let input = LatestInput(combine, lane: lane)
            return (lane, { _ = signal.attachSink(input) })
        }
    }

    override func process(_ value: Value) {
        let wasEmpty = lane.count == 0
        lane.store(value)
        combine.didStore(wasEmpty: wasEmpty)
    }

    override func process(error: Failure) {
        combine.fail(error)
    }

    override func processCompleted() {
        combine.didComplete()
    }
}
