import Disposables
import Synchronization

extension Signal {
    /// Sends the values of the latest signal this signal sent, disposing the previous one's
    /// subscription each time a new signal arrives.
    ///
    /// This signal completing does not end the current inner signal: the result completes when
    /// both have completed. An error from this signal or the current inner signal ends it at once.
    ///
    /// Threads: switching is monotonic. Once a value of the new signal has been delivered, no
    /// value or error of an earlier inner signal is, whatever threads they send on; and once the
    /// switch has happened (the send of the new signal has returned), nothing the previous inner
    /// signal sends arrives. An earlier signal's value sent on another thread at the very moment
    /// of the switch may still arrive, but only before the new signal's first value.
    ///
    /// **Departure:** RAC 2.5 ends the previous signal with `-takeUntil:` on the next one, so
    /// there such a value can arrive after the new signal's values (an old query's results shown
    /// after the new query's). Here each value is checked at delivery, inside the subscriber's
    /// serialization, against the signal it came from.
    ///
    /// RAC 2.5: `-switchToLatest`.
    public func switchToLatest<Inner>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        switching { LatestSwitchSink($0) }.named(derivedName("-switchToLatest"))
    }

    /// Sends the values of the signal `transform` makes of this signal's latest value, disposing
    /// the previous one's subscription each time a new value arrives: `map(transform)` then
    /// ``switchToLatest()``, in one operator.
    ///
    /// This signal completing does not end the current inner signal: the result completes when
    /// both have completed. An error from this signal or the current inner signal ends it at once.
    /// Disposing the result disposes this signal's subscription and the current inner one.
    ///
    /// Threads: as ``switchToLatest()``, switching is monotonic: once a value of the latest
    /// signal has been delivered, no value or error of an earlier one is, from any thread (RAC
    /// 2.5's `-map:` then `-switchToLatest` can deliver one later: see ``switchToLatest()``).
    ///
    /// ```swift
    /// queries.flatMapLatest { query in api.search(query) }   // only the latest query's results
    /// ```
    ///
    /// Other libraries: RxSwift's `flatMapLatest(_:)`, ReactiveSwift's `flatMap(.latest)`,
    /// Combine's `map(_:)` then `switchToLatest()`.
    ///
    /// New; RAC 2.5 has none (its nearest is `-map:` then `-switchToLatest`).
    public func flatMapLatest<U>(_ transform: @escaping @Sendable (Value) -> Signal<U, Failure>) -> Signal<U, Failure> {
        switching { FlatMapLatestSink($0, transform: transform) }.named(derivedName("-flatMapLatest:"))
    }

    /// The switch both spellings share, with the sink `makeSink` makes of the output.
    private func switching<U>(
        _ makeSink: @escaping @Sendable (Subscriber<U, Failure>) -> SwitchSink<Value, U, Failure>
    ) -> Signal<U, Failure> {
        Signal<U, Failure>(producer: { downstream in
            let output = Subscriber(downstream)
            downstream.attach(output.disposable)
            _ = self.attachSink(makeSink(output))
            return output.disposable
        })
    }
}

/// What the source side of a switch and its inner sinks share: the output, the current inner
/// subscription and the bookkeeping of which inner signal is current.
///
/// The output's disposable holds the inner subscriptions (through `current`), never the inner
/// sinks, which hold this core and so the output: once an inner signal's source lets go of its
/// sink, nothing keeps the subscription alive.
private final class SwitchCore<Value, Failure: Error>: @unchecked Sendable {
    let output: Subscriber<Value, Failure>
    /// The current inner subscription.
    let current = SerialDisposable()
    let state = Lock(SwitchState())
    /// The number of the current inner signal: an inner subscription whose number is older is
    /// disposed as it attaches. Written by the source's delivery only.
    let generation = Atomic<Int>(0)

    init(_ output: Subscriber<Value, Failure>) {
        self.output = output
        output.disposable.add(current)
    }

    /// Keeps the subscription of inner signal `number` as the current one, unless a later inner
    /// signal has arrived.
    func attach(_ subscription: Disposable, number: Int) {
        current.swap(subscription)?.dispose()
        if generation.load(ordering: .acquiring) != number { current.swap(nil)?.dispose() }
    }

    func innerCompleted(number: Int) {
        let isDone = state.withLock { state -> Bool in
            guard state.latest == number else { return false }
            state.latest = nil
            return state.sourceIsDone
        }
        if isDone { output.sendCompleted() }
    }
}

/// The source side of `switchToLatest` and `flatMapLatest`: switches to each new inner signal.
///
/// Its subclasses receive the source's values: `LatestSwitchSink` switches to each signal it
/// receives, `FlatMapLatestSink` to the signal its transform makes of each value. A transform
/// for `switchToLatest` too (the identity) would cost it a generic copy of every signal.
private class SwitchSink<Source, Value, Failure: Error>: Sink<Source, Failure>, @unchecked Sendable {
    private let core: SwitchCore<Value, Failure>
    /// The core's, held here too: reaching them through `core` costs a retain and a release of
    /// each for every switch.
    private let output: Subscriber<Value, Failure>
    private let current: SerialDisposable
    /// The sink of the current inner signal, marked ended at the next switch: the output's
    /// serialization checks it, as the feed of each value, right before delivering the value.
    /// Touched only by the source's delivery, which is serialized (a sink is never called
    /// concurrently with itself).
    @exclusivity(unchecked) private var currentInner: SwitchInner<Value, Failure>?
    /// Looked up once: allocating through it costs no metadata lookup per inner signal.
    private let innerType = SwitchInner<Value, Failure>.self

    init(_ output: Subscriber<Value, Failure>) {
        core = SwitchCore(output)
        self.output = output
        current = core.current
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        output.disposable.add(upstream)
    }

    /// Ends the current inner signal and subscribes to `signal`, unless the output was disposed
    /// meanwhile (by `flatMapLatest`'s transform, say): subscribing then would start the inner
    /// signal's work (a request, a timer) only to dispose it.
    ///
    /// The previous inner sink is marked ended before the next inner signal is subscribed, so
    /// before any of its values can be delivered: a value of the previous signal that reaches the
    /// output's serialization after that is dropped there. That is what makes the switch
    /// monotonic: the check and the delivery happen as the output's one owner, so no value of the
    /// previous signal can follow one of the next.
    final func switchTo(_ signal: Signal<Value, Failure>) {
        let number = core.generation.add(1, ordering: .acquiringAndReleasing).newValue
        core.state.withLock { $0.latest = number }
        currentInner?.markEnded()
        current.swap(nil)?.dispose()
        if output.disposable.isDisposed {
            currentInner = nil
            return
        }
        let inner = innerType.init(core, number: number)
        currentInner = inner
        _ = signal.attachSink(inner)
    }

    package override func receive(error: Failure) {
        output.sendError(error)
    }

    package override func receiveCompleted() {
        let isDone = core.state.withLock { state in
            state.sourceIsDone = true
            return state.latest == nil
        }
        if isDone { output.sendCompleted() }
    }
}

/// The source side of `switchToLatest`: each value is the signal to switch to.
private final class LatestSwitchSink<Value, Failure: Error>: SwitchSink<Signal<Value, Failure>, Value, Failure>, @unchecked Sendable {
    package override func receive(_ signal: Signal<Value, Failure>) {
        switchTo(signal)
    }
}

/// The source side of `flatMapLatest`: `transform` makes the signal to switch to of each value.
private final class FlatMapLatestSink<Source, Value, Failure: Error>: SwitchSink<Source, Value, Failure>, @unchecked Sendable {
    private let transform: @Sendable (Source) -> Signal<Value, Failure>

    init(_ output: Subscriber<Value, Failure>, transform: @escaping @Sendable (Source) -> Signal<Value, Failure>) {
        self.transform = transform
        super.init(output)
    }

    package override func receive(_ value: Source) {
        switchTo(transform(value))
    }
}

/// What `switchToLatest` and `flatMapLatest` track between events. Not generic, so locking it in
/// unspecialized code costs no metadata lookup.
private struct SwitchState {
    /// The number of the current inner signal, until it completes.
    var latest: Int?
    var sourceIsDone = false
}

/// The sink of one inner signal; once replaced, nothing it forwards is delivered.
///
/// It is the feed of what it forwards (``SubscriberGate/sendNext(_:feed:)``): the switch marks it
/// ended (`markEnded()`, its own `isDisposed`) before subscribing the next inner signal, and the
/// output's serialization drops a value or error whose feed has ended, as the owner, right before
/// delivering it.
private final class SwitchInner<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private let core: SwitchCore<Value, Failure>
    private let number: Int

    required init(_ core: SwitchCore<Value, Failure>, number: Int) {
        self.core = core
        self.number = number
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        if core.generation.load(ordering: .relaxed) == number {
            core.attach(upstream, number: number)
        } else {
            upstream.dispose()
        }
    }

    package override func receive(_ value: Value) {
        if core.output.disposable.isDisposed { return }
        core.output.gate.sendNext(value, feed: self)
    }

    package override func receive(error: Failure) {
        let output = core.output
        if output.disposable.isDisposed { return }
        output.gate.sendTerminal(.error(error), disposing: output.disposable, feed: self, dropsWhenFeedDisposed: true)
    }

    package override func receiveCompleted() {
        // Ignored unless this is still the current inner signal (`SwitchState.latest`).
        core.innerCompleted(number: number)
    }
}
