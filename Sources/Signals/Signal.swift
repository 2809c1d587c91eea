import Disposables
import Schedulers

/// A cold stream of values over time: each subscription runs the signal's work anew.
///
/// A signal sends any number of values, then at most one terminal event, `error` or `completed`:
/// `next* (error | completed)?`. Nothing arrives after the terminal event or once disposing the
/// subscription has returned, and a subscriber is never called concurrently with itself.
///
/// ```swift
/// let signal = Signal<Int, Never> { subscriber in
///     subscriber.sendNext(1)
///     subscriber.sendNext(2)
///     subscriber.sendCompleted()
///     return nil
/// }
/// signal.map { $0 * 10 }.subscribe(next: { print($0) })   // prints 10, 20
/// ```
///
/// Subscription goes through `Scheduler.subscription`: the create block runs at once when a
/// scheduler is current (or on the main thread), else on a background scheduler, as in RAC 2.5.
/// Operators such as `map` and `filter` are direct: a value reaches the subscriber on the thread
/// that sent it.
///
/// Every subscription, whatever the signal and its operators, keeps these promises:
///
/// - Its callbacks are called one at a time, in order, `next* (error | completed)?`.
/// - As RAC 2.5's `-subscribe:` does, `subscribe(next:error:completed:)` returns a disposable of
///   the subscription's own, not the ``Subscriber/disposable`` that a terminal event disposes.
///   Its `dispose()` never waits, on any thread, inside a callback or outside one: it runs the
///   subscription's disposal actions on the calling thread and returns.
/// - Once that `dispose()` has returned, no callback starts, terminal events included: each
///   callback is checked right before its closure runs. A callback already past that check on
///   another thread may finish (see `Disposable`).
/// - Everything the subscription captured, the closures given to `subscribe` included, is
///   released on disposal, or, while another thread delivers an event through it, by that thread
///   as the event ends, even while the disposable itself is kept.
/// - Once the subscription has ended, by a terminal event or by disposal, that disposable reports
///   `isDisposed`.
///
/// `Signal` is open so that subjects can subclass it.
///
/// RAC 2.5: `RACSignal`, `RACDynamicSignal`.
open class Signal<Value, Failure: Error>: @unchecked Sendable {
    /// Written only by the initializers and taken out by the deinit.
    @exclusivity(unchecked)
    private var producer: (@Sendable (Sink<Value, Failure>) -> Disposable?)?

    /// A signal that runs `didSubscribe` for each subscription.
    ///
    /// `didSubscribe` sends events to the ``Subscriber`` it is given and returns a disposable that
    /// ends its work (or `nil`). That disposable is disposed when the subscription is disposed or
    /// when the subscriber is sent a terminal event, before the event reaches it.
    ///
    /// RAC 2.5: `+createSignal:`.
    public init(_ didSubscribe: @escaping @Sendable (Subscriber<Value, Failure>) -> Disposable?) {
        producer = Signal.checkingLargeValues { receiver in Subscriber.subscribe(receiver, didSubscribe) }
    }

    /// A signal whose subscriptions attach sinks directly, for the library's own operators.
    ///
    /// `producer` keeps the rules of ``Sink``: it attaches the sink to the disposable it returns
    /// before it can send anything, sends through a ``DeliveryLock`` whenever events can come from
    /// another thread or from more than one upstream subscription, cancels the sink when that
    /// disposable is disposed before the end, and returns `nil` only when the subscription has
    /// already ended. The disposable it returns reports `isDisposed` once the subscription ends.
    @_disfavoredOverload @usableFromInline
    package init(producer: @escaping @Sendable (Sink<Value, Failure>) -> Disposable?) {
        self.producer = Signal.checkingLargeValues(producer)
    }

    /// `producer`, or, for values larger than `StackCheck.smallValueSize`, which take more stack
    /// to deliver than to subscribe, `producer` checked as one more level of the chain's
    /// subscription, with a share of the stack scaled to their size. In the producer, not in
    /// ``attachSink(_:)``: a level's frame grew by 16 bytes (32 in a debug build) for every
    /// signal when its subscription looked at the values' size.
    private static func checkingLargeValues(
        _ producer: @escaping @Sendable (Sink<Value, Failure>) -> Disposable?
    ) -> @Sendable (Sink<Value, Failure>) -> Disposable? {
        guard MemoryLayout<Value>.size > StackCheck.smallValueSize else { return producer }
        return { sink in
            let level = StackCheck.beginSubscriptionLevel(valueSize: MemoryLayout<Value>.size)
            if level.isTooDeep { chainTooDeep(sink, name: nil) }
            defer { StackCheck.endSubscriptionLevel(level) }
            return producer(sink)
        }
    }

    /// Releases the producer through `Trampoline.release(_:)`: an operator's producer holds
    /// its source, whose producer holds its own, so letting go of a chain built in a loop (a
    /// hundred thousand `map`s, never subscribed) would release one nested deinit per operator,
    /// overflowing the stack. Past a few levels, the trampoline releases them in a loop.
    deinit {
        SignalDebug.forget(self)
        if producer != nil { Trampoline.release { producer.take() } }
    }

    /// For subclasses that override ``attachSink(_:)``.
    @usableFromInline
    package init() {
        producer = nil
    }

    /// Subscribes `sink`; the package-level `subscribe`.
    ///
    /// - Returns: The subscription's disposable, or `nil` when it has already ended.
    ///
    /// Each operator subscribes its source from inside its own subscription, so a chain `n`
    /// operators deep subscribes `n` levels deep, and what follows on the same thread (the
    /// disposable passed down, a value sent at once) nests `n` levels again on top of that. Past
    /// its share of the thread's stack (`StackCheck.isInnerSubscriptionLevelWithinShare()`:
    /// three eighths of what was left where the chain's outermost subscription started, less for
    /// values larger than 8 bytes, which take more stack to deliver), a subscription stops the program
    /// with a message naming the operator, instead of the bare crash an overflow would be. One
    /// check per operator per subscription; none per value.
    ///
    /// While the outermost level runs, this thread is *subscribing*: a send made meanwhile (a
    /// synchronous signal's values, forwarded by a callback into a busy subject) settles no debt
    /// at a subject's bound (see `DeliveryContext.runDeferred(afterASend:)`), as a subscription
    /// never waits. An override that sends through a delivery lock inside its subscription marks
    /// it too (``subscribingLevel(_:_:)``).
    @usableFromInline
    package func attachSink(_ sink: Sink<Value, Failure>) -> Disposable? {
        guard let producer else {
            preconditionFailure("\(type(of: self)) must override Signal.attachSink(_:) or pass a producer")
        }
        if _fastPath(StackCheck.isInnerSubscriptionLevelWithinShare()) {
            return producer(sink)
        }
        return attachOutermost(sink)
    }

    /// The outermost level of ``attachSink(_:)``, or one past the chain's share of the stack: out
    /// of line, so that the frame each inner level adds to the stack stays small.
    @inline(never)
    private func attachOutermost(_ sink: Sink<Value, Failure>) -> Disposable? {
        // Not passed in: a closure argument made each inner level's frame 16 bytes larger.
        subscribingLevel(sink) { producer!(sink) }
    }

    /// Runs `body`, an override's subscription of `sink`, as one level of a chain's subscription:
    /// checked for the stack it has left and, when outermost, marking this thread as subscribing,
    /// as ``attachSink(_:)`` does.
    @inline(__always)
    package final func subscribingLevel(_ sink: Sink<Value, Failure>, _ body: () -> Disposable?) -> Disposable? {
        let level = StackCheck.beginSubscriptionLevel(valueSize: MemoryLayout<Value>.size)
        if level.isTooDeep { Signal.chainTooDeep(sink, name: name) }
        defer { StackCheck.endSubscriptionLevel(level) }
        return body()
    }

    /// Stops the program: subscribing `sink` nests more deeply than this thread's stack allows.
    @inline(never)
    package static func chainTooDeep(_ sink: Sink<Value, Failure>, name: String?) -> Never {
        let named = name.map { " (\($0))" } ?? ""
        badInput(
            "Signal: subscribing a signal chain nests more deeply than this thread's stack allows, "
                + "at the operator whose sink is \(type(of: sink))\(named) "
                + "(\(StackCheck.chainUsageDescription(valueSize: MemoryLayout<Value>.size)), so that what passes through the chain fits in the rest). "
                + "Each operator of a chain subscribes its source inside its own subscription: a chain built in a loop "
                + "(s = s.map { ... } thousands of times) nests once per operator. Build it without the loop "
                + "(one map composing the functions, scan, merge or concat of an array of signals), "
                + "or subscribe on a thread with a larger stack"
        )
    }

    /// Subscribes `subscriber`: its `didSubscribe(with:)` receives the subscription's disposable,
    /// then the events.
    ///
    /// A subscriber that has already terminated still makes the signal run its work, but the
    /// subscription is disposed at once, as in RAC 2.5.
    ///
    /// - Parameters:
    ///   - subscriber: What receives the disposable, then the events.
    ///   - file: Where the subscription is made, for ``SignalDiagnostics/liveSubscriptions``;
    ///     leave it to its default.
    ///   - line: The line of `file`; leave it to its default.
    /// - Returns: A disposable that ends the subscription.
    ///
    /// RAC 2.5: `-subscribe:`.
    @discardableResult
    public final func subscribe<Target: SubscriberProtocol>(
        _ subscriber: Target,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable
    where Target.Value == Value, Target.Failure == Failure {
        let subscription = CompoundDisposable()
        subscriber.didSubscribe(with: subscription)
        // Tracked, the subscription's compound carries its record: let go of when it is disposed
        // (a terminal event disposes a `Subscriber`'s) or freed.
        if SubscriptionTracking.mayRecord, let record = SubscriptionTracking.record(of: self, file: file, line: line) {
            subscription.add(Disposable { withExtendedLifetime(record) {} })
        }
        // The sink adds the upstream subscription when it is attached, before any event; adding
        // what `attachSink` returns too covers a producer that ended without attaching (adding the
        // same disposable twice only disposes it twice, which does nothing the second time).
        // `Subscriber` is final: comparing the types finds it more cheaply than a cast.
        let direct = ObjectIdentifier(type(of: subscriber)) == ObjectIdentifier(Subscriber<Value, Failure>.self)
            ? unsafeDowncast(subscriber, to: Subscriber<Value, Failure>.self)
            : nil
        subscription.add(attachSink(ForwardingSink(target: subscriber, subscription: subscription, subscriber: direct)))
        return subscription
    }

    /// Subscribes with closures for values, the error and completion; each is optional.
    ///
    /// The closures run on the thread that sends each event. For closures that touch a
    /// `@MainActor` object or other main-actor state, use
    /// ``subscribeOnMainActor(next:error:completed:file:line:)``: it delivers on the main actor, and its
    /// closures are isolated to it. The compiler cannot point there itself: given such a closure,
    /// it reports main-actor state used from a `@Sendable` closure, not this method's name.
    ///
    /// - Parameters:
    ///   - next: Called with each value.
    ///   - error: Called with the error; nothing follows it.
    ///   - completed: Called when the signal completes; nothing follows it.
    ///   - file: Where the subscription is made, for ``SignalDiagnostics/liveSubscriptions``;
    ///     leave it to its default.
    ///   - line: The line of `file`; leave it to its default.
    /// - Returns: A disposable that ends the subscription; nothing is called after it is disposed.
    ///
    /// RAC 2.5: `-subscribeNext:error:completed:` and its shorter forms.
    @inlinable @discardableResult
    public final func subscribe(
        next: (@Sendable (Value) -> Void)? = nil,
        error: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable {
        // The subscription's own disposable (see ``ClosureSink``): it disposes the upstream
        // subscription, or stands for one that ended while it was made.
        // Untracked, the sink is built as it always was: the site is passed only once the flag
        // says tracking may be on.
        let sink = SubscriptionTracking.mayRecord
            ? ClosureSink(next: next, error: error, completed: completed, subscribedTo: self, file: file, line: line)
            : ClosureSink(next: next, error: error, completed: completed)
        return sink.subscription(returned: attachSink(sink))
    }

    /// Subscribes with a closure for values.
    ///
    /// The closure runs on the thread that sends each value. For a closure that touches a
    /// `@MainActor` object or other main-actor state, use ``subscribeNextOnMainActor(_:file:line:)``: it
    /// delivers on the main actor, and its closure is isolated to it. The compiler cannot point
    /// there itself: given such a closure, it reports main-actor state used from a `@Sendable`
    /// closure, not this method's name.
    ///
    /// `file` and `line` say where the subscription is made, for
    /// ``SignalDiagnostics/liveSubscriptions``: leave them to their defaults.
    ///
    /// RAC 2.5: `-subscribeNext:`.
    @discardableResult
    public final func subscribeNext(
        _ next: @escaping @Sendable (Value) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable {
        subscribe(next: next, file: file, line: line)
    }

    /// Subscribes with a closure for the error.
    ///
    /// `file` and `line` say where the subscription is made, for
    /// ``SignalDiagnostics/liveSubscriptions``: leave them to their defaults.
    ///
    /// RAC 2.5: `-subscribeError:`.
    @discardableResult
    public final func subscribeError(
        _ error: @escaping @Sendable (Failure) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable {
        subscribe(error: error, file: file, line: line)
    }

    /// Subscribes with a closure for completion.
    ///
    /// `file` and `line` say where the subscription is made, for
    /// ``SignalDiagnostics/liveSubscriptions``: leave them to their defaults.
    ///
    /// RAC 2.5: `-subscribeCompleted:`.
    @discardableResult
    public final func subscribeCompleted(
        _ completed: @escaping @Sendable () -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable {
        subscribe(completed: completed, file: file, line: line)
    }

    /// The name given with ``named(_:)`` while debugging was on, else `nil`.
    ///
    /// RAC 2.5: `name`.
    public var name: String? {
        SignalDebug.name(of: self)
    }

    /// Names the signal for debugging and returns it.
    ///
    /// The name is built only when ``SignalDebug/isEnabled`` is on (or the
    /// `RAC_DEBUG_SIGNAL_NAMES` environment variable is set), or while
    /// ``SignalDiagnostics/isTrackingSubscriptions`` is on, which lists live subscriptions by their
    /// signals' names; otherwise this costs one check.
    ///
    /// RAC 2.5: `-setNameWithFormat:`.
    @discardableResult
    public func named(_ name: @autoclosure () -> String) -> Self {
        if SignalDebug.keepsNames { SignalDebug.setName(name(), of: self) }
        return self
    }

    /// The name an operator gives what it makes from this signal, as RAC does:
    /// `[source name] -selector`.
    @usableFromInline
    package func derivedName(_ selector: String) -> String {
        "[\(name ?? "")] \(selector)"
    }
}
