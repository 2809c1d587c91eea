import Disposables

extension Signal {
    /// A hot signal and the subscriber that drives it.
    ///
    /// Every subscriber of `signal` receives the events sent to `input` after it subscribed;
    /// `input` is thread-safe. Disposing one subscription detaches only that subscriber. After a
    /// terminal event, sends are ignored and a new subscriber receives the terminal event at once.
    /// Once nothing references `input` any more, the pipe lets go of its subscribers.
    ///
    /// ```swift
    /// let (signal, input) = Signal<Int, Never>.pipe()
    /// signal.subscribe(next: { print($0) })
    /// input.sendNext(1)        // prints 1
    /// input.sendCompleted()
    /// ```
    ///
    /// RAC 4: `Signal.pipe()`.
    public static func pipe() -> (signal: Signal, input: Subscriber<Value, Failure>) {
        let observers = PipeObservers<Value, Failure>()
        let input = Subscriber(observers)
        let lock: DeliveryLock = input.gate
        let signal = Signal(producer: { sink in observers.add(sink, deliveredUnder: lock) })
        return (signal, input)
    }
}

/// The subscribers of a pipe: a sink that forwards each event to all of them, called by the pipe
/// input's owner.
///
/// The subscribers are the members of a ``Broadcast``, which they reference strongly to leave it;
/// the cycle is broken when they leave, at the terminal event, or when this sink goes (the pipe's
/// signal and input are both gone). No weak reference: a weakly referenced object pays for it on
/// every retain.
private final class PipeObservers<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private let broadcast = Broadcast()
    /// The terminal event, once sent. Written by the sender before the broadcast ends; read by a
    /// subscriber the broadcast turned away, which its lock orders after that.
    private let terminal = Lock<Event<Value, Failure>?>(nil)

    deinit {
        // Nothing can send or subscribe any more: break the members' cycle with the broadcast.
        _ = broadcast.end()
    }

    /// Subscribes `sink`: attaches it first, then adds it, so no event reaches it unattached.
    func add(_ sink: Sink<Value, Failure>, deliveredUnder lock: DeliveryLock) -> Disposable? {
        let observer = PipeObserver(sink, lock: lock, in: broadcast)
        sink.attach(observer)
        if broadcast.join(observer) { return observer }
        // Not a member, so no other thread can reach it: deliver here.
        if let terminal = terminal.withLock({ $0 }) { observer.finish(terminal) }
        return nil
    }

    package override func receive(_ value: Value) {
        for member in broadcast.currentMembers() {
            member._withUnsafeGuaranteedRef { member in
                let observer = unsafeDowncast(member, to: PipeObserver<Value, Failure>.self)
                if !observer.isDisposed { observer.forward(value) }
            }
        }
    }

    package override func receive(error: Failure) {
        finish(.error(error))
    }

    package override func receiveCompleted() {
        finish(.completed)
    }

    private func finish(_ event: Event<Value, Failure>) {
        terminal.withLock { $0 = event }
        for member in broadcast.end() {
            let observer = unsafeDowncast(member, to: PipeObserver<Value, Failure>.self)
            if !observer.isDisposed { observer.finish(event) }
        }
    }
}

/// One subscription to a pipe. Its sink is touched only by the owner of the pipe input's lock, so
/// disposing it quiesces that lock before it cancels and lets go of the sink.
private final class PipeObserver<Value, Failure: Error>: BroadcastMember, @unchecked Sendable {
    @exclusivity(unchecked) private var sink: Retained<Sink<Value, Failure>>
    private let lock: DeliveryLock
    private let broadcast: Broadcast

    init(_ sink: Sink<Value, Failure>, lock: DeliveryLock, in broadcast: Broadcast) {
        self.sink = Retained(sink)
        self.lock = lock
        self.broadcast = broadcast
        super.init()
    }

    @inline(__always)
    func forward(_ value: Value) {
        sink.use { $0.receive(value) }
    }

    func finish(_ event: Event<Value, Failure>) {
        markEnded()
        sink.take(retiring: .current)?.send(event)
    }

    override func dispose() {
        guard markDisposed() else { return }
        broadcast.leave(self)
        lock.quiesce { [self] in sink.take(retiring: .current)?.cancel() }
    }
}
