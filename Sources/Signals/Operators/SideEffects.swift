extension Signal {
    /// Calls `action` with each value just before the value is sent on.
    ///
    /// ```swift
    /// numbers.doNext { print("got", $0) }
    /// ```
    ///
    /// RAC 2.5: `-doNext:`.
    public func doNext(_ action: @escaping @Sendable (Value) -> Void) -> Signal {
        sideEffects(next: action).named(derivedName("-doNext:"))
    }

    /// Calls `action` with the error just before the error is sent on.
    ///
    /// RAC 2.5: `-doError:`.
    public func doError(_ action: @escaping @Sendable (Failure) -> Void) -> Signal {
        sideEffects(error: action).named(derivedName("-doError:"))
    }

    /// Calls `action` just before completion is sent on.
    ///
    /// RAC 2.5: `-doCompleted:`.
    public func doCompleted(_ action: @escaping @Sendable () -> Void) -> Signal {
        sideEffects(completed: action).named(derivedName("-doCompleted:"))
    }

    /// Calls `action` each time the result is subscribed to, just before this signal is
    /// subscribed to.
    ///
    /// ```swift
    /// fetch.initially { spinner.start() }.finally { spinner.stop() }
    /// ```
    ///
    /// **Departure:** RAC 2.5 builds it on `+defer:`, so on a thread with no current scheduler the
    /// action runs on a background scheduler. Here it runs on the subscribing thread, inside
    /// `subscribe`, like the other direct operators.
    ///
    /// RAC 2.5: `-initially:`.
    public func initially(_ action: @escaping @Sendable () -> Void) -> Signal {
        Signal(producer: { sink in
            action()
            return self.attachSink(sink)
        }).named(derivedName("-initially:"))
    }

    /// Calls `action` when this signal fails or completes, just before the error or completion
    /// is sent on.
    ///
    /// It is not called when the subscription is disposed before the signal ends.
    ///
    /// RAC 2.5: `-finally:`.
    public func finally(_ action: @escaping @Sendable () -> Void) -> Signal {
        sideEffects(error: { _ in action() }, completed: action).named(derivedName("-finally:"))
    }

    /// A signal that calls the given actions just before it sends each event on; unnamed.
    package func sideEffects(
        next: (@Sendable (Value) -> Void)? = nil,
        error: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) -> Signal {
        liftSink { SideEffectSink($0, next: next, error: error, completed: completed) }
    }
}

private final class SideEffectSink<Value, Failure: Error>: PassthroughSink<Value, Value, Failure>, @unchecked Sendable {
    private let next: (@Sendable (Value) -> Void)?
    private let error: (@Sendable (Failure) -> Void)?
    private let completed: (@Sendable () -> Void)?

    init(
        _ downstream: Sink<Value, Failure>,
        next: (@Sendable (Value) -> Void)?,
        error: (@Sendable (Failure) -> Void)?,
        completed: (@Sendable () -> Void)?
    ) {
        self.next = next
        self.error = error
        self.completed = completed
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        next?(value)
        downstream.receive(value)
    }

    package override func receive(error failure: Failure) {
        error?(failure)
        downstream.receive(error: failure)
    }

    package override func receiveCompleted() {
        completed?()
        downstream.receiveCompleted()
    }
}
