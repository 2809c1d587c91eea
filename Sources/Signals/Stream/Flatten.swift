import Disposables
import Synchronization

extension Signal {
    /// Subscribes to each signal this signal sends, at most `maxConcurrent` at a time, and sends
    /// all their values.
    ///
    /// Signals beyond the limit wait in a queue, first in first out, and are subscribed as
    /// running ones complete; `0` means no limit, `1` is `concat()`. The result completes when this
    /// signal has completed, no inner signal is running and none waits. An error from this signal
    /// or any inner one disposes everything, then is sent. Inner signals that complete
    /// synchronously are subscribed in a loop, so a million of them use constant stack.
    ///
    /// RAC 2.5: `-flatten:`.
    public func flatten<Inner>(maxConcurrent: Int) -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        checkInput(maxConcurrent >= 0, "flatten(maxConcurrent:) needs a limit of zero (none) or more, got \(maxConcurrent)")
        return Signal<Inner, Failure>(producer: { downstream in
            let merge = Merge(downstream, limit: maxConcurrent)
            _ = self.attachSink(SignalsSink(merge))
            return merge.output.disposable
        }).named(derivedName("-flatten: \(maxConcurrent)"))
    }

    /// Subscribes to every signal this signal sends as it arrives and sends all their values.
    ///
    /// Completes when this signal and every inner signal have completed; an error from any of them
    /// disposes everything, then is sent.
    ///
    /// RAC 2.5: `-flatten`.
    public func flatten<Inner>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        flatten(maxConcurrent: 0)
    }

    /// Subscribes to each signal this signal sends once the one before it has completed, and
    /// sends their values in that order: `flatten(maxConcurrent: 1)`.
    ///
    /// RAC 2.5: `-concat` (on a signal of signals).
    public func concat<Inner>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        flatten(maxConcurrent: 1)
    }

    /// Maps each value to a signal, subscribes to it at once, and sends the values of all of them.
    ///
    /// Completes when this signal and every signal `transform` made have completed; an error from
    /// any of them disposes everything, then is sent.
    ///
    /// ```swift
    /// userIDs.flattenMap { id in fetchUser(id) }
    /// ```
    ///
    /// RAC 2.5: `-flattenMap:`.
    public func flattenMap<U>(_ transform: @escaping @Sendable (Value) -> Signal<U, Failure>) -> Signal<U, Failure> {
        Signal<U, Failure>(producer: { downstream in
            let merge = Merge(downstream, limit: 0)
            _ = self.attachSink(FlattenMapSink(merge, transform))
            return merge.output.disposable
        }).named(derivedName("-flattenMap:"))
    }

    /// `flattenMap(_:)` for a transform that may return `nil`, which counts as an empty signal.
    ///
    /// RAC 2.5: `-flattenMap:` (a block returning `nil`).
    public func flattenMap<U>(_ transform: @escaping @Sendable (Value) -> Signal<U, Failure>?) -> Signal<U, Failure> {
        flattenMap { transform($0) ?? .empty }
    }

    /// Sends the values of this signal and `other` as they come; completes when both have.
    ///
    /// RAC 2.5: `-merge:`.
    public func merge(_ other: Signal) -> Signal {
        Signal.merge([self, other]).named(derivedName("-merge:"))
    }

    /// Subscribes to all the signals at once and sends their values as they come; completes when
    /// all have completed (at once for none). An error from any of them disposes the others, then
    /// is sent.
    ///
    /// RAC 2.5: `+merge:`.
    public static func merge(_ signals: some Sequence<Signal>) -> Signal {
        let signals = UncheckedSendable(Array(signals))
        return Signal(producer: { downstream in
            let merge = Merge(downstream, limit: 0)
            for signal in signals.value {
                merge.add(signal)
            }
            merge.sourceCompleted()
            return merge.output.disposable
        }).named("+merge:")
    }
}

/// The state of one subscription to a flattened signal: which inner signals run and which wait.
///
/// `output` serializes what the inner signals send, and its disposable holds the source's
/// subscription and those of the running inner signals.
final class Merge<Value, Failure: Error>: @unchecked Sendable {
    let output: Subscriber<Value, Failure>
    private let limit: Int
    private let state = Lock(MergeState())
    /// The signals waiting for a slot; guarded by `state`'s lock.
    private var waiting = Queue<Signal<Value, Failure>>()
    /// Requests to subscribe to waiting signals; the caller that raises it from zero loops.
    private let drainRequests = Atomic<Int>(0)
    /// Looked up once: allocating through it costs no metadata lookup per inner signal.
    private let innerType = MergeInner<Value, Failure>.self

    init(_ downstream: Sink<Value, Failure>, limit: Int) {
        output = Subscriber(downstream)
        self.limit = limit
        downstream.attach(output.disposable)
    }

    /// Subscribes to `signal` now, or queues it when `limit` signals are running.
    func add(_ signal: Signal<Value, Failure>) {
        if output.isDisposed { return }
        if limit == 0 {
            state.withLock { $0.running += 1 }
            subscribe(signal)
        } else {
            state.withLock { state in
                waiting.append(signal)
                state.waiting += 1
            }
            drain()
        }
    }

    func sourceCompleted() {
        let isDone = state.withLock { state in
            state.sourceIsDone = true
            return state.isDone
        }
        if isDone { output.sendCompleted() }
    }

    fileprivate func innerCompleted(_ subscription: Disposable?) {
        if let subscription { output.disposable.remove(subscription) }
        let isDone = state.withLock { state in
            state.running -= 1
            return state.isDone
        }
        if isDone {
            output.sendCompleted()
        } else if limit > 0 {
            drain()
        }
    }

    /// Subscribes to waiting signals while fewer than `limit` run, in a loop that only one thread
    /// runs at a time; a synchronous completion inside it only adds a request.
    private func drain() {
        if drainRequests.add(1, ordering: .acquiringAndReleasing).oldValue > 0 { return }
        repeat {
            while let next = state.withLock({ state -> Signal<Value, Failure>? in
                guard state.running < limit, let next = waiting.popFirst() else { return nil }
                state.running += 1
                state.waiting -= 1
                return next
            }) {
                if output.isDisposed { return }
                subscribe(next)
            }
        } while drainRequests.subtract(1, ordering: .acquiringAndReleasing).newValue > 0
    }

    private func subscribe(_ signal: Signal<Value, Failure>) {
        // The inner subscription joins `output`'s disposable when the inner sink is attached.
        _ = signal.attachSink(innerType.init(self))
    }
}

/// How many inner signals of a merge run and wait. Not generic, so locking it in unspecialized
/// code costs no metadata lookup.
private struct MergeState {
    var running = 0
    var waiting = 0
    var sourceIsDone = false

    var isDone: Bool { sourceIsDone && running == 0 && waiting == 0 }
}

/// Where a merge's inner subscription stands: not yet attached, kept among the merge's
/// subscriptions, or finished.
private enum Membership {
    static let running = 0
    static let added = 1
    static let finished = 2
}

/// The sink of one inner signal: forwards values to the merge's output.
///
/// The inner subscription, not this sink, joins the output's disposable, from when it is attached
/// until the inner signal ends: so the output's disposable never holds the sink, which holds the
/// output, and once the inner signal's source lets go of the sink, nothing keeps the merge alive.
private final class MergeInner<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private let merge: Merge<Value, Failure>
    private let membership = Atomic<Int>(Membership.running)
    /// Written by `attach`, before `membership` says `added`; read after it says so.
    private var subscription: Disposable?

    required init(_ merge: Merge<Value, Failure>) {
        self.merge = merge
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        subscription = upstream
        merge.output.disposable.add(upstream)
        let joined = membership.compareExchange(
            expected: Membership.running, desired: Membership.added, ordering: .acquiringAndReleasing
        ).exchanged
        // It finished on another thread meanwhile, and found nothing to remove.
        if !joined { merge.output.disposable.remove(upstream) }
    }

    package override func receive(_ value: Value) {
        merge.output.sendNext(value)
    }

    package override func receive(error: Failure) {
        membership.store(Membership.finished, ordering: .releasing)
        merge.output.sendError(error)
    }

    package override func receiveCompleted() {
        let previous = membership.exchange(Membership.finished, ordering: .acquiringAndReleasing)
        merge.innerCompleted(previous == Membership.added ? subscription.take() : nil)
    }
}

/// The source of `flatten`: each value is a signal to merge.
private final class SignalsSink<Value, Failure: Error>: Sink<Signal<Value, Failure>, Failure>, @unchecked Sendable {
    private let merge: Merge<Value, Failure>

    init(_ merge: Merge<Value, Failure>) {
        self.merge = merge
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        merge.output.disposable.add(upstream)
    }

    package override func receive(_ signal: Signal<Value, Failure>) {
        merge.add(signal)
    }

    package override func receive(error: Failure) {
        merge.output.sendError(error)
    }

    package override func receiveCompleted() {
        merge.sourceCompleted()
    }
}

/// The source of `flattenMap`: each value is mapped to a signal to merge.
private final class FlattenMapSink<Value, U, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private let merge: Merge<U, Failure>
    private let transform: @Sendable (Value) -> Signal<U, Failure>

    init(_ merge: Merge<U, Failure>, _ transform: @escaping @Sendable (Value) -> Signal<U, Failure>) {
        self.merge = merge
        self.transform = transform
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        merge.output.disposable.add(upstream)
    }

    package override func receive(_ value: Value) {
        merge.add(transform(value))
    }

    package override func receive(error: Failure) {
        merge.output.sendError(error)
    }

    package override func receiveCompleted() {
        merge.sourceCompleted()
    }
}
