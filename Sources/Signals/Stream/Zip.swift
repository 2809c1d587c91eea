import Disposables

extension Signal {
    /// Pairs the n-th value of this signal with the n-th value of `other`.
    ///
    /// Completes as soon as one input has completed and none of its values wait for a partner;
    /// unmatched values of the other input are dropped. An error from either is sent at once.
    ///
    /// RAC 2.5: `-zipWith:`.
    public func zip<U>(with other: Signal<U, Failure>) -> Signal<(Value, U), Failure> {
        Signal<(Value, U), Failure>.zip(self, other).named(derivedName("-zipWith:"))
    }

    /// Combines the n-th values of all the signals into a tuple.
    ///
    /// ```swift
    /// Signal.zip(letters, numbers)   // ("a", 1), ("b", 2), …
    /// ```
    ///
    /// Completes as soon as one input has completed and none of its values wait for partners; an
    /// error from any input is sent at once.
    ///
    /// RAC 2.5: `+zip:`.
    public static func zip<each V>(_ signals: repeat Signal<each V, Failure>) -> Signal<(repeat each V), Failure>
    where Value == (repeat each V) {
        var inputs: [(ZipJunction<Value, Failure>, Int) -> Subscribe] = []
        for signal in repeat each signals {
            inputs.append(ZipInput.make(signal))
        }
        return joining(
            { ZipJunction($0, rows: TupleRowMaker<Value>()) },
            inputs: inputs,
            offsets: TupleRowMaker<Value>.offsets(of: repeat (each V).self)
        ).named("+zip:")
    }

    /// Combines the n-th values of all the signals into an array, in the order of the signals.
    ///
    /// No signals complete at once without a value; one signal gives one-element arrays.
    ///
    /// RAC 2.5: `+zip:`.
    public static func zip<V>(_ signals: some Sequence<Signal<V, Failure>>) -> Signal<[V], Failure>
    where Value == [V] {
        let inputs = signals.map { ZipInput<V, [V], Failure>.make($0) }
        return joining(
            { ZipJunction($0, rows: ArrayRowMaker<V>()) },
            inputs: inputs,
            offsets: inputs.indices.map(ArrayRowMaker<V>.offset(ofLaneAt:))
        ).named("+zip:")
    }
}

/// The state of one subscription to a zip: a queue of unmatched values per input (its lane).
///
/// A row goes out when every lane has a value; the zip completes once an input has completed and
/// its lane is empty, checked after each row, as RAC 2.5 does.
final class ZipJunction<Row, Failure: Error>: RowJunction<Row, Failure>, @unchecked Sendable {
    /// How many lanes have no value waiting; a row can go out when none.
    @exclusivity(unchecked) private var emptyLanes = 0

    override func didMakeLanes() {
        emptyLanes = lanes.count
    }

    /// `lane` received a value, appended already.
    func didAppend(to lane: Lane) {
        if lane.count == 1 { emptyLanes -= 1 }
        guard emptyLanes == 0 else { return }
        var isFinished = false
        withRow { row in
            lanes.forEach { lane in
                guard lane.count == 0 else { return }
                emptyLanes += 1
                if lane.isCompleted { isFinished = true }
            }
            emit(row)
        }
        if isFinished { complete() }
    }

    /// `lane`'s input completed.
    func didComplete(_ lane: Lane) {
        lane.isCompleted = true
        if lane.count == 0 { complete() }
    }
}

/// The sink of one input of a zip.
private final class ZipInput<Value, Row, Failure: Error>: JunctionInput<Value, Failure>, @unchecked Sendable {
    private let zip: ZipJunction<Row, Failure>
    private let lane: QueueLane<Value>

    init(_ zip: ZipJunction<Row, Failure>, lane: QueueLane<Value>) {
        self.zip = zip
        self.lane = lane
        super.init(zip)
    }

    /// What subscribes `signal` as an input of a zip, at a given offset in its rows.
    static func make(_ signal: Signal<Value, Failure>) -> (ZipJunction<Row, Failure>, Int) -> Subscribe {
        { zip, offset in
            let lane = QueueLane<Value>(offset: offset)
            let input = ZipInput(zip, lane: lane)
            return (lane, { _ = signal.attachSink(input) })
        }
    }

    override func process(_ value: Value) {
        lane.append(value)
        zip.didAppend(to: lane)
    }

    override func process(error: Failure) {
        zip.fail(error)
    }

    override func processCompleted() {
        zip.didComplete(lane)
    }
}
