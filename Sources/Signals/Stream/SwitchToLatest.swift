import Disposables
import Synchronization

extension Signal {
    /// Sends the values of the latest signal this signal sent, disposing the previous one's
    /// subscription each time a new signal arrives.
    ///
    /// This signal completing does not end the current inner signal: the result completes when
    /// both have completed. An error from this signal or the current inner signal ends it at once.
    ///
    /// Threads: once the switch has happened (the send of the new signal has returned), nothing
    /// the previous inner signal sends arrives. A value it sends on another thread at the very
    /// moment of the switch may still arrive, after the new signal's first value, as in RAC 2.5,
    /// where the previous signal is ended by `-takeUntil:` on the next one.
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
    /// Threads: as ``switchToLatest()``: once the switch has happened, nothing the previous inner
    /// signal sends arrives, but a value it sends on another thread at the very moment of the
    /// switch may still arrive, after the new signal's first value.
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

/// The source side of `switchToLatest` and `flatMapLatest`; it keeps the current inner subscription.
///
/// The output's disposable holds the inner subscriptions (through `current`), never the inner
/// sinks, which hold this sink and so the output: once an inner signal's source lets go of its
/// sink, nothing keeps the subscription alive.
///
/// Its subclasses receive the source's values: `LatestSwitchSink` switches to each signal it
/// receives, `FlatMapLatestSink` to the signal its transform makes of each value. A transform
/// for `switchToLatest` too (the identity) would cost it a generic copy of every signal.
private class SwitchSink<Source, Value, Failure: Error>: Sink<Source, Failure>, @unchecked Sendable {
    final let output: Subscriber<Value, Failure>
    /// The current inner subscription.
    private let current = SerialDisposable()
    private let state = Lock(SwitchState())
    /// The number of the current inner signal: an inner sink whose number is older forwards
    /// nothing. Written by the source's delivery only.
    let generation = Atomic<Int>(0)
    /// Looked up once: allocating through it costs no metadata lookup per inner signal.
    private let innerType = SwitchInner<Source, Value, Failure>.self

    init(_ output: Subscriber<Value, Failure>) {
        self.output = output
        super.init()
        output.disposable.add(current)
    }

    package override func attach(_ upstream: Disposable) {
        output.disposable.add(upstream)
    }

    /// Disposes the current inner subscription and subscribes to `signal`, unless the output was
    /// disposed meanwhile (by `flatMapLatest`'s transform, say): subscribing then would start
    /// the inner signal's work (a request, a timer) only to dispose it.
    final func switchTo(_ signal: Signal<Value, Failure>) {
        let number = generation.add(1, ordering: .acquiringAndReleasing).newValue
        state.withLock { $0.latest = number }
        current.swap(nil)?.dispose()
        if output.disposable.isDisposed { return }
        _ = signal.attachSink(innerType.init(self, number: number))
    }

    /// Keeps the subscription of inner signal `number` as the current one, unless a later inner
    /// signal has arrived.
    final func attach(_ subscription: Disposable, number: Int) {
        current.swap(subscription)?.dispose()
        if generation.load(ordering: .acquiring) != number { current.swap(nil)?.dispose() }
    }

    package override func receive(error: Failure) {
        output.sendError(error)
    }

    package override func receiveCompleted() {
        let isDone = state.withLock { state in
            state.sourceIsDone = true
            return state.latest == nil
        }
        if isDone { output.sendCompleted() }
    }

    final func innerCompleted(number: Int) {
        let isDone = state.withLock { state -> Bool in
            guard state.latest == number else { return false }
            state.latest = nil
            return state.sourceIsDone
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

/// The sink of one inner signal; once replaced, it forwards nothing.
private final class SwitchInner<Source, Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private let parent: SwitchSink<Source, Value, Failure>
    private let number: Int

    required init(_ parent: SwitchSink<Source, Value, Failure>, number: Int) {
        self.parent = parent
        self.number = number
        super.init()
    }

    private var isCurrent: Bool {
        parent.generation.load(ordering: .relaxed) == number
    }

    package override func attach(_ upstream: Disposable) {
        if isCurrent { parent.attach(upstream, number: number) } else { upstream.dispose() }
    }

    package override func receive(_ value: Value) {
        if isCurrent { parent.output.sendNext(value) }
    }

    package override func receive(error: Failure) {
        if isCurrent { parent.output.sendError(error) }
    }

    package override func receiveCompleted() {
        if isCurrent { parent.innerCompleted(number: number) }
    }
}
