import Disposables
import Signals

extension Signal {
    /// Shares one subscription to this signal among every subscriber present at a time, and
    /// subscribes to it again once all of them have left: a reference-counted multicast that
    /// reconnects.
    ///
    /// - The first subscriber connects: the source is subscribed once, through a fresh subject (a
    ///   plain ``Subject`` for `replay: 0`, a ``ReplaySubject`` of capacity `replay` otherwise).
    /// - Later subscribers join that connection. They get the events sent after they joined, led
    ///   by up to `replay` of its latest values.
    /// - When the last subscriber leaves (by disposal), the source's subscription is disposed, and
    ///   the subject with its kept values is let go of.
    /// - When the source sends an error or completes, every current subscriber gets it, and the
    ///   connection ends with it.
    /// - Either way, the next subscriber connects again, through a new subject: it gets nothing of
    ///   an earlier connection, neither kept values nor its terminal event. So a synchronous
    ///   source, `Signal.return(1).share()`, runs again for each subscriber that comes after the
    ///   one before has ended: each gets `1` and completion.
    ///
    /// Safe from any thread. A subscriber that arrives while the last one leaves on another thread
    /// either joins the connection before it ends (and keeps it) or starts the next one; the
    /// source is subscribed once per connection, and a subscriber is never left on a connection
    /// that has ended, nor sent another connection's events. No lock is held while the source's
    /// work or a subscriber runs, and disposing never waits for either: a subscriber may dispose
    /// from inside its own callback, even while a synchronous source is still sending, which ends
    /// the source's subscription when it was the last subscriber (nothing more reaches anyone; a
    /// source's loop stops early if it checks `subscriber.isDisposed`). A synchronous source sends
    /// before `subscribe` returns its disposable, so to stop it from a callback, end the
    /// subscription with an operator instead (`take(_:)`, `take(while:)`), or subscribe a
    /// `Subscriber` and dispose its `disposable`. A subscriber joins at once, on the thread that
    /// subscribes; the source is then subscribed as it would be on its own (a created signal's work
    /// runs through `Scheduler.subscription`: at once on the main thread or a scheduler's, on a
    /// background scheduler from elsewhere). The last subscriber out disposes the source's
    /// subscription even when the shared signal itself has been let go of.
    ///
    /// On the main thread (elsewhere the created signal's work runs on a background scheduler, so
    /// the prints come later):
    ///
    /// ```swift
    /// let request = Signal<Int, Never> { subscriber in
    ///     print("request")
    ///     subscriber.sendNext(42)
    ///     return nil
    /// }.share(replay: 1)
    /// let first = request.subscribe(next: { print("first", $0) })   // prints request, first 42
    /// let second = request.subscribe(next: { print("second", $0) }) // prints second 42
    /// first.dispose()
    /// second.dispose()              // the last one out disposes the request's subscription
    /// request.subscribe(next: { print("again", $0) })               // prints request, again 42
    /// ```
    ///
    /// - Parameter replay: How many of the connection's latest values a subscriber that joins it
    ///   gets first: zero or more (a negative count stops the program with a message naming it).
    ///
    /// Other libraries: RxSwift's `share(replay:scope:)` with its default scope, `.whileConnected`
    /// (also `publish().refCount()`, which RxSwift builds the same way: a new subject for each
    /// connection); ReactiveSwift has none (`replayLazily(upTo:)` never disconnects). Combine's
    /// `share()` is the same while the source runs, reconnecting after every subscriber has
    /// cancelled; it differs once the source has ended: Combine keeps one subject for all its
    /// connections, so a subscriber that comes after the end gets the end at once, and the source
    /// is not subscribed again, where here it is.
    ///
    /// New; RAC 2.5 has none: its `-autoconnect` (``MulticastConnection/autoconnect()``) connects
    /// once and never again.
    public func share(replay: Int = 0) -> Signal {
        checkInput(replay >= 0, "share(replay:) needs a count of zero or more, got \(replay)")
        let shared = Shared(source: self, replay: replay)
        // Looked up once: allocating through it costs no metadata lookup per subscription.
        let sinkType = CountedSink<Value, Failure>.self
        return Signal(producer: { downstream in
            let connection = shared.join()
            // The subscriber's events come from this connection's subject alone, so it never gets
            // another connection's. It is attached, and its counting out is tied to its
            // subscription, before the source is subscribed: a source that sends at once reaches
            // it, and a disposal from inside one of its callbacks (or from another thread) counts
            // it out at once.
            let sink = sinkType.init(downstream, count: connection.membership)
            // A replaying subject joins and replays at once, on this thread, rather than through
            // `Scheduler.subscription` as a subscription to it does: a hot source's events sent
            // after this subscribe has returned reach the subscriber whatever thread it is on.
            let subscription = connection.replaying?.subscribe(sink, synchronously: true) ?? connection.subject.attachSink(sink)
            sink.connected(connection.membership.upstream, subscription: subscription)
            if connection.isNew { shared.connect(connection) }
            return sink
        }).named(derivedName("-shareReplay: \(replay)"))
    }
}

/// What one ``Signal/share(replay:)`` signal holds: its source and its current connection.
private final class Shared<Value, Failure: Error>: Sendable {
    let source: Signal<Value, Failure>
    let replay: Int
    /// The connection that a new subscriber joins, or `nil` when none has run yet. One that has
    /// ended (all its subscribers left, or its source ended) is replaced by the next subscriber,
    /// and cleared by its end when it is still here. Lock order: this lock, then a membership's.
    let current = Lock<Connection<Value, Failure>?>(nil)

    init(source: Signal<Value, Failure>, replay: Int) {
        self.source = source
        self.replay = replay
    }

    /// Counts a subscriber into the current connection, or into a new one when none runs.
    func join() -> Connection<Value, Failure> {
        current.withLock { current in
            if let connection = current, connection.membership.join() {
                return Connection(
                    subject: connection.subject, replaying: connection.replaying, membership: connection.membership, isNew: false
                )
            }
            let replaying = replay == 0 ? nil : ReplaySubject<Value, Failure>(capacity: replay)
            let connection = Connection<Value, Failure>(
                subject: replaying ?? Subject(),
                replaying: replaying?.observers,
                membership: Membership(shared: self),
                isNew: true
            )
            current = connection
            return connection
        }
    }

    /// Subscribes the source to `connection`'s subject. If every subscriber has left already, the
    /// source's subscription is disposed as it joins the membership's `upstream`.
    func connect(_ connection: Connection<Value, Failure>) {
        source.subscribe(ConnectionInput(subject: connection.subject, membership: connection.membership))
    }

    /// `membership`'s connection has ended: a later subscriber starts another one.
    func ended(_ membership: Membership) {
        current.withLock { current in
            if current?.membership === membership { current = nil }
        }
    }
}

/// A connection of a ``Signal/share(replay:)`` signal, as ``Shared/join()`` hands it out: its
/// subject, its membership, and whether this join made it (and so connects it).
private struct Connection<Value, Failure: Error>: Sendable {
    let subject: Subject<Value, Failure>
    /// The replaying subject's subscribers, when `replay` is more than zero.
    let replaying: ReplaySink<Value, Failure>?
    let membership: Membership
    let isNew: Bool
}

/// The subscribers' count of one connection, its end and its source's subscription.
///
/// Each of its subscribers holds it strongly (a ``CountedSink`` counts out of it), so the last one
/// out disposes the source's subscription even when nothing else holds the connection any more:
/// the shared signal let go of, and a source that keeps nothing of its subscriber. It holds
/// neither the subject nor a subscriber, so holding it makes no cycle, and it holds its
/// ``Shared`` weakly: once that has gone, no subscriber can join, and there is nothing to clear.
private final class Membership: SubscriptionCounting {
    private struct State {
        /// How many subscribers joined and have not left.
        var count = 1
        /// Whether the connection has ended (its subscribers all left, or its source ended), so
        /// that no one joins it any more.
        var isEnded = false
    }

    /// The source's subscription, which joins it before its first event: disposed when the last
    /// subscriber leaves (at once, if the source subscribes later), and after the source ends.
    let upstream = CompoundDisposable()
    private let state = Lock(State())
    private weak let shared: (any EndingConnections)?

    /// A membership whose first subscriber is counted in.
    init(shared: any EndingConnections) {
        self.shared = shared
    }

    /// Counts a subscriber in, unless the connection has ended.
    func join() -> Bool {
        state.withLock { state in
            if state.isEnded { return false }
            state.count += 1
            return true
        }
    }

    /// Counts a subscriber out; the last one out ends the connection and disposes its source's
    /// subscription, `upstream`.
    func countOut(_ upstream: Disposable) {
        let ends = state.withLock { state -> Bool in
            state.count -= 1
            guard state.count == 0, !state.isEnded else { return false }
            state.isEnded = true
            return true
        }
        if ends {
            shared?.ended(self)
            upstream.dispose()
        }
    }

    /// The source has ended: the connection ends with it, before its subject sends the terminal
    /// event, so that a subscriber that comes from inside that event, or after it, starts the
    /// next connection.
    func sourceEnded() {
        let ends = state.withLock { state -> Bool in
            if state.isEnded { return false }
            state.isEnded = true
            return true
        }
        if ends { shared?.ended(self) }
        upstream.dispose()
    }
}

/// What a ``Membership`` tells its ``Shared`` of, whatever its types.
private protocol EndingConnections: AnyObject, Sendable {
    func ended(_ membership: Membership)
}

extension Shared: EndingConnections {}

/// What the source of a connection sends to: passes events on to the connection's subject, and
/// ends the connection before its subject sends the terminal event.
private final class ConnectionInput<Value, Failure: Error>: SubscriberProtocol, Sendable {
    let subject: Subject<Value, Failure>
    let membership: Membership

    init(subject: Subject<Value, Failure>, membership: Membership) {
        self.subject = subject
        self.membership = membership
    }

    func sendNext(_ value: Value) {
        subject.sendNext(value)
    }

    func sendError(_ error: Failure) {
        membership.sourceEnded()
        subject.sendError(error)
    }

    func sendCompleted() {
        membership.sourceEnded()
        subject.sendCompleted()
    }

    func didSubscribe(with disposable: CompoundDisposable) {
        membership.upstream.add(disposable)
    }
}
