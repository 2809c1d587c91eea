import Disposables

extension Signal {
    /// A hot signal and the subscriber that drives it.
    ///
    /// Every subscriber of `signal` receives the events sent to `input` after it subscribed;
    /// `input` is thread-safe. Disposing one subscription detaches only that subscriber. After a
    /// terminal event, sends are ignored and a new subscriber receives the terminal event at once.
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
        let signal = Signal(producer: { sink in observers.add(sink) })
        return (signal, Subscriber(observers))
    }
}

/// The subscribers of a pipe: a sink that forwards each event to all of them.
private final class PipeObservers<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private struct State {
        var observers = Bag<PipeObserver<Value, Failure>>()
        var terminal: Event<Value, Failure>?
    }

    private let state = Lock(State())

    func add(_ sink: Sink<Value, Failure>) -> Disposable? {
        let observer = PipeObserver(sink, in: self)
        let terminal = state.withLock { state -> Event<Value, Failure>? in
            if state.terminal == nil { observer.token = state.observers.insert(observer) }
            return state.terminal
        }
        if let terminal {
            sink.send(terminal)
            return nil
        }
        sink.attach(observer)
        return observer
    }

    func remove(_ observer: PipeObserver<Value, Failure>) {
        // The token was set under this lock; the observer is released after it.
        let removed = state.withLock { state in observer.token.flatMap { state.observers.remove($0) } }
        _ = removed
    }

    package override func receive(_ value: Value) {
        for observer in state.withLock({ $0.observers.elements }) {
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
        for observer in observers {
            observer.finish(event)
        }
    }
}

/// One subscription to a pipe; disposing it detaches and releases its sink.
private final class PipeObserver<Value, Failure: Error>: Disposable, @unchecked Sendable {
    private let sink: Lock<Sink<Value, Failure>?>
    private weak var observers: PipeObservers<Value, Failure>?
    /// Where the observer sits among the pipe's; read and written under the pipe's lock only.
    var token: Bag<PipeObserver<Value, Failure>>.Token?

    init(_ sink: Sink<Value, Failure>, in observers: PipeObservers<Value, Failure>) {
        self.sink = Lock(sink)
        self.observers = observers
        super.init()
    }

    func forward(_ value: Value) {
        sink.withLock { $0 }?.receive(value)
    }

    func finish(_ event: Event<Value, Failure>) {
        sink.withLock { sink in
            defer { sink = nil }
            return sink
        }?.send(event)
    }

    override func dispose() {
        guard markDisposed() else { return }
        let released = sink.withLock { sink in
            defer { sink = nil }
            return sink
        }
        _ = released
        observers?.remove(self)
    }
}
