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
    /// from inside its own callback, even while a synchronous source is still sending, which stops
    /// that source when it was the last subscriber.
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
        return Signal { subscriber in
            shared.subscribe(subscriber)
            return nil
        }.named(derivedName("-shareReplay: \(replay)"))
    }
}

/// What one ``Signal/share(replay:)`` signal holds: its source and its current connection.
private final class Shared<Value, Failure: Error>: Sendable {
    let source: Signal<Value, Failure>
    let replay: Int
    /// The connection that a new subscriber joins, or `nil` when none runs: none yet, or the last
    /// one ended (all its subscribers left, or its source ended). Set and cleared only under this
    /// lock, together with the connection's own state, so joining a connection and its end are
    /// ordered.
    let current = Lock<Connection<Value, Failure>?>(nil)

    init(source: Signal<Value, Failure>, replay: Int) {
        self.source = source
        self.replay = replay
    }

    /// Joins `subscriber` to the current connection, making one when none runs, and connects it
    /// when this call made it.
    func subscribe(_ subscriber: Subscriber<Value, Failure>) {
        let (connection, isNew) = current.withLock { current -> (Connection<Value, Failure>, Bool) in
            if let connection = current {
                connection.count += 1
                return (connection, false)
            }
            let connection = Connection<Value, Failure>(subject: replay == 0 ? Subject() : ReplaySubject(capacity: replay))
            connection.count = 1
            current = connection
            return (connection, true)
        }
        // The subscriber's events come from this connection's subject alone, so it never gets
        // another connection's. Its leaving is tied to its subscription before the source is
        // subscribed: a disposal from inside a callback of a source that sends synchronously
        // (or from another thread, or one made already) counts it out at once.
        //
        // Held weakly: the subject holds the subscriber, whose disposable holds this action, so a
        // strong hold would keep a subscription that is let go of, never disposed, alive forever.
        // Both stay alive while the source's subscription runs (its input holds them), and once it
        // has gone there is nothing left to end.
        connection.subject.subscribe(subscriber)
        subscriber.disposable.add(Disposable { [weak self, weak connection] in
            if let self, let connection { self.leave(connection) }
        })
        if isNew { connect(connection) }
    }

    /// Subscribes the source to `connection`'s subject, unless every subscriber has left already.
    private func connect(_ connection: Connection<Value, Failure>) {
        let ended = current.withLock { _ in connection.isEnded }
        if ended { return }
        source.subscribe(ConnectionInput(connection: connection, shared: self))
    }

    /// Counts a subscriber out of `connection`; the last one out ends it.
    private func leave(_ connection: Connection<Value, Failure>) {
        let ends = current.withLock { current -> Bool in
            connection.count -= 1
            guard connection.count == 0, !connection.isEnded else { return false }
            end(connection, current: &current)
            return true
        }
        if ends { connection.upstream.dispose() }
    }

    /// The source of `connection` has ended: later subscribers start another connection.
    func sourceEnded(_ connection: Connection<Value, Failure>) {
        current.withLock { current in
            if !connection.isEnded { end(connection, current: &current) }
        }
        connection.upstream.dispose()
    }

    /// Marks `connection` ended and, if it is the current one, clears it. Under the lock.
    private func end(_ connection: Connection<Value, Failure>, current: inout Connection<Value, Failure>?) {
        connection.isEnded = true
        if current === connection { current = nil }
    }
}

/// One connection of a ``Signal/share(replay:)`` signal: its subject, its subscribers' count and
/// the source's subscription.
private final class Connection<Value, Failure: Error>: @unchecked Sendable {
    let subject: Subject<Value, Failure>
    /// The source's subscription, which joins it before its first event: disposed when the last
    /// subscriber leaves (at once, if the source subscribes later), and after the source ends.
    let upstream = CompoundDisposable()
    /// How many subscribers joined and have not left; under the ``Shared/current`` lock.
    var count = 0
    /// Whether it has ended (its subscribers all left, or its source ended), so that no one joins
    /// it any more; under the ``Shared/current`` lock.
    var isEnded = false

    init(subject: Subject<Value, Failure>) {
        self.subject = subject
    }

}

/// What the source of a connection sends to: passes values on to the connection's subject, and
/// ends the connection before its subject sends the terminal event, so that a subscriber that
/// comes from inside that event, or after it, starts the next connection.
private final class ConnectionInput<Value, Failure: Error>: SubscriberProtocol, Sendable {
    let connection: Connection<Value, Failure>
    let shared: Shared<Value, Failure>

    init(connection: Connection<Value, Failure>, shared: Shared<Value, Failure>) {
        self.connection = connection
        self.shared = shared
    }

    func sendNext(_ value: Value) {
        connection.subject.sendNext(value)
    }

    func sendError(_ error: Failure) {
        shared.sourceEnded(connection)
        connection.subject.sendError(error)
    }

    func sendCompleted() {
        shared.sourceEnded(connection)
        connection.subject.sendCompleted()
    }

    func didSubscribe(with disposable: CompoundDisposable) {
        connection.upstream.add(disposable)
    }
}
