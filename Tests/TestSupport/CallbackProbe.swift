import Disposables
import Signals
import Synchronization

/// The callbacks of one subscription under stress: records its events in order and checks the
/// promises every subscription keeps, whatever races with it.
///
/// The values are numbered by sender: sender `s`'s `k`-th value is `s * 1_000 + k`
/// (``value(sender:index:)``), so that each sender's values can be told apart and their order
/// checked. Call ``disposeHasReturned()`` once a `dispose()` of the subscription has returned;
/// ``violations()`` then says what went wrong:
///
/// - callbacks that overlapped;
/// - more than one callback that started after `dispose()` returned (one may: the callback
///   already past its final check when `dispose()` was called, since `dispose()` never waits);
/// - more than one terminal event, or an event after it;
/// - a value delivered twice, or a sender's values other than a run from its first value (each
///   sender sends its values in order and the subscription is made before any send, so it gets
///   each sender's values from the first until it ends).
public final class CallbackProbe: Sendable {
    private let recorder = Recorder<Event<Int, TestError>>()
    private let received = Atomic<Int>(0)
    private let running = Atomic<Int>(0)
    private let overlaps = Counter()
    private let late = Counter()
    private let disposed = Flag()

    public init() {}

    /// Sender `sender`'s `index`-th value.
    public static func value(sender: Int, index: Int) -> Int {
        sender * 1_000 + index
    }

    /// The sender of `value`.
    public static func sender(of value: Int) -> Int {
        value / 1_000
    }

    /// Every event so far, in order.
    public var events: [Event<Int, TestError>] { recorder.values }

    /// How many events have arrived so far.
    public var count: Int { received.load(ordering: .acquiring) }

    /// The values so far, in order.
    public var values: [Int] { events.compactMap(\.value) }

    /// The terminal event, if one has arrived.
    public var terminal: Event<Int, TestError>? { events.last(where: \.isFinished) }

    /// Records `event`: the body of every callback.
    public func receive(_ event: Event<Int, TestError>) {
        if disposed.isSet { late.increment() }
        if running.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.increment() }
        recorder.record(event)
        received.add(1, ordering: .releasing)
        running.subtract(1, ordering: .acquiringAndReleasing)
    }

    /// Subscribes to `signal` with closures that record its events.
    public func subscribe(to signal: Signal<Int, TestError>) -> Disposable {
        signal.subscribe(
            next: { [self] in receive(.next($0)) },
            error: { [self] in receive(.error($0)) },
            completed: { [self] in receive(.completed) }
        )
    }

    /// A ``Subscriber`` that records the events sent to it.
    public func subscriber() -> Subscriber<Int, TestError> {
        Subscriber(
            next: { [self] in receive(.next($0)) },
            error: { [self] in receive(.error($0)) },
            completed: { [self] in receive(.completed) }
        )
    }

    /// Notes that a `dispose()` of the subscription has returned: no callback may start from now
    /// on but the one already past its final check.
    public func disposeHasReturned() {
        disposed.set()
    }

    /// The promises broken so far, in words; empty when none.
    public func violations() -> [String] {
        var problems: [String] = []
        if overlaps.value > 0 { problems.append("\(overlaps.value) callback(s) overlapped another") }
        if late.value > 1 { problems.append("\(late.value) callbacks started after dispose() returned (at most 1 may)") }
        let events = events
        let terminals = events.indices.filter { events[$0].isFinished }
        if terminals.count > 1 { problems.append("\(terminals.count) terminal events") }
        if let first = terminals.first, first != events.count - 1 {
            problems.append("\(events.count - 1 - first) event(s) after the terminal event")
        }
        let values = events.compactMap(\.value)
        if Set(values).count != values.count { problems.append("a value delivered twice: \(values)") }
        for sender in Set(values.map(Self.sender(of:))) {
            let sent = values.filter { Self.sender(of: $0) == sender }
            if sent != (0..<sent.count).map({ Self.value(sender: sender, index: $0) }) {
                problems.append("sender \(sender)'s values are not a run from its first: \(sent)")
            }
        }
        return problems
    }
}

/// How a stress test makes the subscription it disposes, and what it disposes: each in turn.
public enum SubscriptionKind: CaseIterable, Sendable {
    /// `subscribe(next:error:completed:)`; disposes what it returns.
    case closures
    /// `subscribe(next:error:completed:)` through `filter` and `map`; disposes what it returns.
    case throughOperators
    /// `subscribe(_:)` of a ``Subscriber``; disposes what it returns, the feeding subscription.
    case subscriber
    /// `subscribe(_:)` of a ``Subscriber``; disposes the subscriber's own ``Subscriber/disposable``.
    case subscribersOwnDisposable

    /// The kind of round `round`: each kind in turn, in runs of `runs` rounds.
    public static func of(round: Int, runs: Int) -> SubscriptionKind {
        allCases[(round / runs) % allCases.count]
    }
}

extension CallbackProbe {
    /// Subscribes to `signal` as `kind` says, and returns the disposable to dispose.
    public func subscribe(to signal: Signal<Int, TestError>, as kind: SubscriptionKind) -> Disposable {
        switch kind {
        case .closures:
            return subscribe(to: signal)
        case .throughOperators:
            return subscribe(to: signal.filter { _ in true }.map { $0 })
        case .subscriber:
            return signal.subscribe(subscriber())
        case .subscribersOwnDisposable:
            let subscriber = subscriber()
            signal.subscribe(subscriber)
            return subscriber.disposable
        }
    }
}
