import Disposables
import Schedulers

extension Signal {
    /// A signal that sends `value`, then completes.
    ///
    /// Like every subscription, it goes through ``Scheduler/subscription``: at once when a
    /// scheduler is current, else on a background scheduler.
    ///
    /// RAC 2.5: `+return:`.
    public static func `return`(_ value: Value) -> Signal {
        ConstantSignal(.value(value))
    }

    /// A signal that completes at once without a value.
    ///
    /// RAC 2.5: `+empty`.
    public static var empty: Signal {
        ConstantSignal(.empty)
    }

    /// A signal that fails at once with `error`.
    ///
    /// RAC 2.5: `+error:`.
    public static func error(_ error: Failure) -> Signal {
        ConstantSignal(.error(error))
    }

    /// A signal that never sends anything.
    ///
    /// RAC 2.5: `+never`.
    public static var never: Signal {
        Signal(producer: { sink in
            let subscription = Disposable()
            sink.attach(subscription)
            return subscription
        })
    }

    /// A signal that calls `makeSignal` for each subscription and subscribes to what it returns.
    ///
    /// Use it to postpone work, or to make a fresh signal (or subject) per subscriber.
    ///
    /// RAC 2.5: `+defer:`.
    public static func `defer`(_ makeSignal: @escaping @Sendable () -> Signal) -> Signal {
        Signal(producer: { sink in makeSignal().observe(sink) })
    }
}

/// `return`, `empty` and `error`: what they send is known when they are made.
private final class ConstantSignal<Value, Failure: Error>: Signal<Value, Failure>, @unchecked Sendable {
    enum Content {
        case value(Value)
        case empty
        case error(Failure)
    }

    private let content: Content

    init(_ content: Content) {
        self.content = content
        super.init()
    }

    override func observe(_ sink: Sink<Value, Failure>) -> Disposable? {
        guard Scheduler.current != nil else {
            let subscription = SerialDisposable()
            sink.attach(subscription)
            subscription.disposable = Scheduler.subscription.schedule { self.send(to: sink) }
            return subscription
        }
        send(to: sink)
        return nil
    }

    private func send(to sink: Sink<Value, Failure>) {
        switch content {
        case let .value(value):
            sink.receive(value)
            sink.receiveCompleted()
        case .empty:
            sink.receiveCompleted()
        case let .error(error):
            sink.receive(error: error)
        }
    }
}
