import Disposables

extension Signal {
    /// Sends each value of this signal paired with the latest value of `other`, as a tuple.
    ///
    /// This signal's values that arrive before `other` has sent anything are dropped; `other`'s
    /// values send nothing by themselves. The result completes when this signal completes;
    /// `other` completing does not end it, and its last value is kept and used. An error from
    /// either signal disposes the other, then is sent. Disposing the result disposes both.
    ///
    /// `other` is subscribed first, then this signal: the values a synchronous `other` sends
    /// while being subscribed are there for this signal's first value. When `other` fails while
    /// being subscribed, this signal is not subscribed at all.
    ///
    /// The two may send on different threads: their events are taken one at a time, as a
    /// `combineLatest`'s are. So, as with `combineLatest`, a send from a thread outside any
    /// callback waits its turn: a callback that waits for another thread which sends into
    /// `other` (or this signal) deadlocks; disposing from that thread never waits.
    ///
    /// ```swift
    /// submitTaps.withLatestFrom(formText)   // ((), "the text at the tap") per tap
    /// ```
    ///
    /// Other libraries: RxSwift's and Combine's (CombineExt) `withLatestFrom(_:)`, ReactiveSwift's
    /// `withLatest(from:)`.
    ///
    /// New; RAC 2.5 has none (its nearest is `-combineLatestWith:` filtered by which side sent).
    @inlinable
    public func withLatestFrom<U>(_ other: Signal<U, Failure>) -> Signal<(Value, U), Failure> {
        // The pair is made here, in the caller's specialization, where `(Value, U)` is a known
        // type: made in unspecialized code, each pair looked up the tuple type's metadata.
        pairingWithLatest(other) { ($0, $1) }.named(derivedName("-withLatestFrom: \(other.name ?? "")"))
    }

    /// Sends `combine(value, latest)` for each value of this signal, `latest` being the latest
    /// value of `other`.
    ///
    /// The same as ``withLatestFrom(_:)``, with the pair made into one value: this signal's values
    /// before `other`'s first are dropped, the result completes when this signal completes, an
    /// error from either ends it, disposal disposes both, and `other` is subscribed first.
    ///
    /// ```swift
    /// submitTaps.withLatestFrom(formText) { _, text in text }   // the text at each tap
    /// ```
    ///
    /// Other libraries: RxSwift's `withLatestFrom(_:resultSelector:)`, Combine's (CombineExt)
    /// `withLatestFrom(_:resultSelector:)`; ReactiveSwift's `withLatest(from:)` then `map`.
    ///
    /// New; RAC 2.5 has none.
    public func withLatestFrom<U, R>(
        _ other: Signal<U, Failure>,
        _ combine: @escaping @Sendable (Value, U) -> R
    ) -> Signal<R, Failure> {
        pairingWithLatest(other, combine).named(derivedName("-withLatestFrom: \(other.name ?? "") combine:"))
    }

    /// The signal both spellings make: `combine` makes what goes out of each value and other's
    /// latest.
    @usableFromInline
    func pairingWithLatest<U, R>(
        _ other: Signal<U, Failure>,
        _ combine: @escaping @Sendable (Value, U) -> R
    ) -> Signal<R, Failure> {
        Signal<R, Failure>(producer: { downstream in
            let junction = WithLatestJunction<U, R, Failure>(downstream)
            _ = other.attachSink(LatestOtherInput(junction))
            if !junction.isClosed {
                _ = self.attachSink(WithLatestSourceInput(junction, combine: combine))
            }
            return junction.handOverSubscription()
        })
    }
}

/// The state of one subscription to a `withLatestFrom`: `other`'s latest value, touched only by
/// the owner of the junction's lock, and let go of when the subscription ends.
private final class WithLatestJunction<U, Output, Failure: Error>: Junction<Output, Failure>, @unchecked Sendable {
    let latest = LatestLane<U>(offset: 0)

    override func didEnd() {
        latest.removeAll()
    }
}

/// The sink of `other`: keeps its latest value; its completion ends nothing.
private final class LatestOtherInput<U, Output, Failure: Error>: JunctionInput<U, Failure>, @unchecked Sendable {
    private let junction: WithLatestJunction<U, Output, Failure>

    init(_ junction: WithLatestJunction<U, Output, Failure>) {
        self.junction = junction
        super.init(junction)
    }

    override func process(_ value: U) {
        junction.latest.store(value)
    }

    override func process(error: Failure) {
        junction.fail(error)
    }

    override func processCompleted() {}
}

/// The sink of the source: each value goes out with `other`'s latest, if there is one.
private final class WithLatestSourceInput<Value, U, Output, Failure: Error>: JunctionInput<Value, Failure>, @unchecked Sendable {
    private let junction: WithLatestJunction<U, Output, Failure>
    /// The junction's, held here too: read through the junction, it was retained and released
    /// for every value.
    private let latest: LatestLane<U>
    private let combine: @Sendable (Value, U) -> Output

    init(_ junction: WithLatestJunction<U, Output, Failure>, combine: @escaping @Sendable (Value, U) -> Output) {
        self.junction = junction
        latest = junction.latest
        self.combine = combine
        super.init(junction)
    }

    override func process(_ value: Value) {
        if latest.count > 0 { junction.emit(combine(value, latest.latest)) }
    }

    override func process(error: Failure) {
        junction.fail(error)
    }

    override func processCompleted() {
        junction.complete()
    }
}
