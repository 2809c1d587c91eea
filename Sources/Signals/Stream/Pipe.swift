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
private final class PipeObservers<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private struct State {
        var observers = Bag<PipeObserver<Value, Failure>>()
        var terminal: Event<Value, Failure>?
    }

    private let state = Lock(State())

    /// Subscribes `sink`: attaches it first, then registers it, so no event reaches it unattached.
    func add(_ sink: Sink<Value, Failure>, deliveredUnder lock: DeliveryLock) -> Disposable? {
        let observer = PipeObserver(sink, lock: lock, in: self)
        sink.attach(observer)
        let terminal = state.withLock { state -> Event<Value, Failure>? in
            if state.terminal == nil { observer.token = state.observers.insert(observer) }
            return state.terminal
        }
        guard let terminal else { return observer }
        // Not registered, so no other thread can reach it: deliver here.
        observer.finish(terminal)
        return nil
    }

    func remove(_ observer: PipeObserver<Value, Failure>) {
        // The token was set under this lock; the observer is released after it.
        let removed = state.withLock { state in observer.token.flatMap { state.observers.remove($0) } }
        _ = removed
    }

    package override func receive(_ value: Value) {
        for observer in state.withLock({ $0.observers.elements }) where !observer.isDisposed {
            observer.forward(value)
        }
    }

    package override func receive(error: Failure) {
        finish(.error(error))
    }

    package override func receiveCompleted() {
        finish(.completed)
    }

    private func finish(_ event: Event<Value, Failure>) {
        let observers = state.withLock { state in
            state.terminal = event
            defer { state.observers.removeAll() }
            return state.observers.elements
        }
        for observer in observers where !observer.isDisposed {
            observer.finish(event)
        }
    }
}

/// One subscription to a pipe. Its sink is touched only by the owner of the pipe input's lock, so
/// disposing it quiesces that lock before it cancels and lets go of the sink.
private final class PipeObserver<Value, Failure: Error>: Disposable, @unchecked Sendable {
    private var sink: Sink<Value, Failure>?
    private let lock: DeliveryLock
    private weak var observers: PipeObservers<Value, Failure>?
    /// Where the observer sits among the pipe's; read and written under the pipe's lock only.
    var token: Bag<PipeObserver<Value, Failure>>.Token?

    init(_ sink: Sink<Value, Failure>, lock: DeliveryLock, in observers: PipeObservers<Value, Failure>) {
        self.sink = sink
        self.lock = lock
        self.observers = observers
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
        observers?.remove(self)
        lock.quiesce { [self] in sink.take()?.cancel() }
    }
}
