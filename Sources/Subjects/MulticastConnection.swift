import Disposables
import Signals
import Synchronization

/// A source signal shared through one subject: subscribers subscribe to ``signal`` (the subject),
/// and the source is subscribed once, to the subject, when ``connect()`` is first called.
///
/// ```swift
/// let shared = expensiveRequest.publish()
/// shared.signal.subscribe(next: { print("first", $0) })
/// shared.signal.subscribe(next: { print("second", $0) })
/// shared.connect()          // the request runs once; both subscribers get its values
/// ```
///
/// RAC 2.5: `RACMulticastConnection`.
public final class MulticastConnection<Value, Failure: Error>: Sendable {
    /// The subject the source sends to: subscribe here.
    ///
    /// RAC 2.5: `signal`.
    public let signal: Signal<Value, Failure>
    private let subject: Subject<Value, Failure>
    private let source: Signal<Value, Failure>
    private let connection = SerialDisposable()
    private let hasConnected = Atomic<Bool>(false)

    init(source: Signal<Value, Failure>, subject: Subject<Value, Failure>) {
        self.source = source
        self.subject = subject
        signal = subject
    }

    /// Subscribes the subject to the source, the first time it is called, from whichever thread
    /// calls first; later calls do nothing.
    ///
    /// - Returns: The connection's disposable, the same one every time: disposing it ends the
    ///   source subscription, without terminating the subject. Callers that lose a race to
    ///   connect may get it before the source subscription has joined it; disposing it then still
    ///   ends that subscription as soon as it does.
    ///
    /// RAC 2.5: `-connect`.
    @discardableResult
    public func connect() -> Disposable {
        if !hasConnected.load(ordering: .acquiring),
           hasConnected.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            connection.disposable = source.subscribe(subject)
        }
        return connection
    }

    /// A signal that connects on its first subscription, and disposes the connection when the
    /// last of its subscriptions ends (by disposal or by a terminal event).
    ///
    /// It does not connect again afterwards: `connect()` runs once. A subscriber that comes after
    /// the connection was disposed gets what the subject still gives: nothing from a `publish()`
    /// (the subject is not terminated), the kept values from a replaying subject, and the terminal
    /// event at once if the source had ended before.
    ///
    /// RAC 2.5: `-autoconnect`.
    public func autoconnect() -> Signal<Value, Failure> {
        subject.refCounted(connect: { [self] in connect() })
            .named(subject.derivedName("-autoconnect"))
    }
}

extension Signal {
    /// Shares this signal through `subject`: nothing is subscribed until the connection's
    /// `connect()`.
    ///
    /// RAC 2.5: `-multicast:`.
    public func multicast(_ subject: Subject<Value, Failure>) -> MulticastConnection<Value, Failure> {
        MulticastConnection(source: self, subject: subject)
    }

    /// Shares this signal through a plain ``Subject``: subscribers get the events sent after they
    /// subscribed, once the connection is connected.
    ///
    /// RAC 2.5: `-publish`.
    public func publish() -> MulticastConnection<Value, Failure> {
        multicast(Subject())
    }

    /// Subscribes to this signal now, once, and sends every subscriber all its values so far, then
    /// the live ones. The source subscription is never disposed.
    ///
    /// RAC 2.5: `-replay`.
    public func replay() -> Signal {
        let connection = multicast(ReplaySubject())
        connection.connect()
        return connection.signal.named(derivedName("-replay"))
    }

    /// Subscribes to this signal now, once, and sends every subscriber its latest value, then the
    /// live ones. The source subscription is never disposed.
    ///
    /// RAC 2.5: `-replayLast`.
    public func replayLast() -> Signal {
        let connection = multicast(ReplaySubject(capacity: 1))
        connection.connect()
        return connection.signal.named(derivedName("-replayLast"))
    }

    /// Subscribes to this signal once, on the result's first subscription, and sends every
    /// subscriber all its values so far, then the live ones. The source subscription is never
    /// disposed.
    ///
    /// RAC 2.5: `-replayLazily`.
    public func replayLazily() -> Signal {
        let connection = multicast(ReplaySubject())
        return Signal.defer {
            connection.connect()
            return connection.signal
        }.named(derivedName("-replayLazily"))
    }
}
