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
/// The subscribers live in a ``PipeRegistry``, which they reference strongly to remove themselves;
/// the cycle is broken when they are removed, at the terminal event, or when this sink goes (the
/// pipe's signal and input are both gone). No weak reference: a weakly referenced object pays for
/// it on every retain, and this sink is retained on every send.
private final class PipeObservers<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private let registry = PipeRegistry()
    /// The terminal event, once sent; written and read under the registry's lock.
    private var terminal: Event<Value, Failure>?

    deinit {
        registry.removeAll()
    }

    /// Subscribes `sink`: attaches it first, then registers it, so no event reaches it unattached.
    func add(_ sink: Sink<Value, Failure>, deliveredUnder lock: DeliveryLock) -> Disposable? {
        let observer = PipeObserver(sink, lock: lock, in: registry)
        sink.attach(observer)
        let terminal = registry.state.withLock { state -> Event<Value, Failure>? in
            if !state.isTerminated { observer.token = state.observers.insert(observer) }
            return self.terminal
        }
        guard let terminal else { return observer }
        // Not registered, so no other thread can reach it: deliver here.
        observer.finish(terminal)
        return nil
    }

    package override func receive(_ value: Value) {
        for object in registry.state.withLock(annotated: registry.isAnnotated, { $0.observers.elements }) {
            let observer = unsafeBitCast(object, to: PipeObserver<Value, Failure>.self)
            if !observer.isDisposed { observer.forward(value) }
        }
    }

    package override func receive(error: Failure) {
        finish(.error(error))
    }

    package override func receiveCompleted() {
        finish(.completed)
    }

    private func finish(_ event: Event<Value, Failure>) {
        let observers = registry.state.withLock { state in
            self.terminal = event
            state.isTerminated = true
            defer { state.observers.removeAll() }
            return state.observers.elements
        }
        for object in observers {
            let observer = unsafeBitCast(object, to: PipeObserver<Value, Failure>.self)
            if !observer.isDisposed { observer.finish(event) }
        }
    }
}

/// A pipe's subscribers, as plain objects, under a lock. Not generic, so locking and walking it in
/// unspecialized code costs no metadata lookup per send.
private final class PipeRegistry: @unchecked Sendable {
    struct State {
        var observers = Bag<AnyObject>()
        var isTerminated = false
    }

    let state = Lock(State())
    /// Looked up once, so that a send costs no check of a lazy global.
    let isAnnotated = ThreadSanitizer.isActive

    /// Removes the observer whose token `token` reads, under the lock.
    func remove(_ token: () -> Bag<AnyObject>.Token?) {
        // The object is released after unlocking.
        let removed = state.withLock { state in token().flatMap { state.observers.remove($0) } }
        _ = removed
    }

    func removeAll() {
        let removed = state.withLock { state in
            defer { state.observers.removeAll() }
            return state.observers.elements
        }
        _ = removed
    }
}

/// One subscription to a pipe. Its sink is touched only by the owner of the pipe input's lock, so
/// disposing it quiesces that lock before it cancels and lets go of the sink.
private final class PipeObserver<Value, Failure: Error>: Disposable, @unchecked Sendable {
    private var sink: Sink<Value, Failure>?
    private let lock: DeliveryLock
    private let registry: PipeRegistry
    /// Where the observer sits among the pipe's; read and written under the registry's lock only.
    var token: Bag<AnyObject>.Token?

    init(_ sink: Sink<Value, Failure>, lock: DeliveryLock, in registry: PipeRegistry) {
        self.sink = sink
        self.lock = lock
        self.registry = registry
        super.init()
    }

    func forward(_ value: Value) {
        sink?.receive(value)
    }

    func finish(_ event: Event<Value, Failure>) {
        markEnded()
        sink.take()?.send(event)
    }

    override func dispose() {
        guard markDisposed() else { return }
        registry.remove { token }
        lock.quiesce { [self] in sink.take()?.cancel() }
    }
}
