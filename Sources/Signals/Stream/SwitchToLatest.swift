import Disposables

extension Signal {
    /// Sends the values of the latest signal this signal sent, disposing the previous one's
    /// subscription each time a new signal arrives.
    ///
    /// This signal completing does not end the current inner signal: the result completes when
    /// both have completed. An error from this signal or the current inner signal ends it at once.
    ///
    /// RAC 2.5: `-switchToLatest`.
    public func switchToLatest<Inner>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        Signal<Inner, Failure>(producer: { downstream in
            let output = Subscriber(downstream)
            downstream.attach(output.disposable)
            _ = self.observe(SwitchSink(output))
            return output.disposable
        }).named(derivedName("-switchToLatest"))
    }
}

/// The source side of `switchToLatest`; it keeps the current inner subscription.
private final class SwitchSink<Value, Failure: Error>: Sink<Signal<Value, Failure>, Failure>, @unchecked Sendable {
    let output: Subscriber<Value, Failure>
    private let current = SerialDisposable()
    private let state = Lock(SwitchState())
    /// Looked up once: allocating through it costs no metadata lookup per inner signal.
    private let innerType = SwitchInner<Value, Failure>.self

    init(_ output: Subscriber<Value, Failure>) {
        self.output = output
        super.init()
        output.disposable.add(current)
    }

    package override func attach(_ upstream: Disposable) {
        output.disposable.add(upstream)
    }

    package override func receive(_ signal: Signal<Value, Failure>) {
        let inner = innerType.init(self)
        state.withLock { $0.latest = ObjectIdentifier(inner) }
        current.swap(inner)?.dispose()
        _ = signal.observe(inner)
    }

    package override func receive(error: Failure) {
        output.sendError(error)
    }

    package override func receiveCompleted() {
        let isDone = state.withLock { state in
            state.sourceIsDone = true
            return state.latest == nil
        }
        if isDone { output.sendCompleted() }
    }

    func innerCompleted(_ inner: SwitchInner<Value, Failure>) {
        let isDone = state.withLock { state -> Bool in
            guard state.latest == ObjectIdentifier(inner) else { return false }
            state.latest = nil
            return state.sourceIsDone
        }
        if isDone { output.sendCompleted() }
    }
}

/// What `switchToLatest` tracks between events. Not generic, so locking it in unspecialized code
/// costs no metadata lookup.
private struct SwitchState {
    /// The current inner signal's sink; an identity, so the state does not keep it alive.
    var latest: ObjectIdentifier?
    var sourceIsDone = false
}

/// The sink of one inner signal; once replaced (disposed), it forwards nothing.
private final class SwitchInner<Value, Failure: Error>: UpstreamSink<Value, Failure>, @unchecked Sendable {
    private let parent: SwitchSink<Value, Failure>

    required init(_ parent: SwitchSink<Value, Failure>) {
        self.parent = parent
        super.init()
    }

    package override func receive(_ value: Value) {
        if !isDisposed { parent.output.sendNext(value) }
    }

    package override func receive(error: Failure) {
        if !isDisposed { parent.output.sendError(error) }
    }

    package override func receiveCompleted() {
        if !isDisposed { parent.innerCompleted(self) }
    }
}
