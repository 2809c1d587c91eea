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
        let observers = BroadcastSink<Value, Failure>()
        let input = Subscriber(observers)
        let signal = Signal(producer: { sink in observers.add(sink) })
        return (signal, input)
    }
}
