import Disposables
import Schedulers

extension Signal {
    /// A signal that sends `value`, then completes.
    ///
    /// Like every subscription, it goes through `Scheduler.subscription`: at once when a
    /// scheduler is current, else on a background scheduler.
    ///
    /// RAC 2.5: `+return:`.
    @inlinable
    public static func `return`(_ value: Value) -> Signal {
        ReturnSignal(value)
    }

    /// A signal that completes at once without a value.
    ///
    /// RAC 2.5: `+empty`.
    @inlinable
    public static var empty: Signal {
        EmptySignal()
    }

    /// A signal that fails at once with `error`.
    ///
    /// RAC 2.5: `+error:`.
    @inlinable
    public static func error(_ error: Failure) -> Signal {
        ErrorSignal(error)
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
    /// Use it to postpone work, or to make a fresh signal (or subject) per subscriber. Like a
    /// created signal's block, `makeSignal` runs through `Scheduler.subscription`: at once when
    /// a scheduler is current, else on a background scheduler.
    ///
    /// RAC 2.5: `+defer:`.
    public static func `defer`(_ makeSignal: @escaping @Sendable () -> Signal) -> Signal {
        Signal(producer: { sink in
            guard Scheduler.current == nil else { return makeSignal().attachSink(sink) }
            return Subscriber.subscribe(sink) { subscriber in
                // Joins the subscriber's disposable before the first event, so a callback that
                // disposes it ends a made signal that is still sending synchronously.
                DeliveryContext.subscribingWhereSendsMayWait { makeSignal().attachSink(ForwardingSubscriberSink(subscriber)) }
            }
        })
    }
}

/// `return`, `empty` and `error`: what they send is known when they are made, so a subscription
/// sends it at once when a scheduler is current, and from the subscription scheduler otherwise.
///
/// Each keeps its content in a field of its own generic type (not in an enum), so an
/// unspecialized subscription or deinit needs no metadata lookup.
@usableFromInline
package class ConstantSignal<Value, Failure: Error>: Signal<Value, Failure>, @unchecked Sendable {
    @usableFromInline
    package override init() {
        super.init()
    }

    package override func attachSink(_ sink: Sink<Value, Failure>) -> Disposable? {
        // One level of a chain's subscription, checked as every other is: an inner signal of
        // `flatMap` subscribed during a delivery nests the delivery one level deeper; and the
        // outermost marks the thread as subscribing, so that what the sink's callbacks send
        // settles no debt at a subject's bound inside `subscribe`. For small values the same
        // thread-local lookup tells whether a scheduler is current.
        guard let level = StackCheck.beginConstantLevel(valueSize: MemoryLayout<Value>.size) else {
            return attachOnTheGeneralPath(sink)
        }
        send(to: sink)
        StackCheck.endConstantLevel(level)
        return nil
    }

    /// The subscription of a large value, of a level past the chain's share (which stops with
    /// the message), or where no scheduler is set on this thread (the main thread, before
    /// anything asked for `Scheduler.current` there, or a thread with none): now, as a general
    /// checked level, when `Scheduler.current` says a scheduler is current, else later, on a
    /// background scheduler.
    @inline(never)
    private func attachOnTheGeneralPath(_ sink: Sink<Value, Failure>) -> Disposable? {
        guard Scheduler.current != nil else {
            // Through a subscriber, like any created signal.
            return Subscriber.subscribe(sink) { subscriber in
                self.send(to: ForwardingSink(target: subscriber))
                return nil
            }
        }
        return subscribingLevel(sink) {
            send(to: sink)
            return nil
        }
    }

    /// Sends the content to `sink`: the subscriber's own sink, synchronously, or a sink into the
    /// subscriber of a subscription made later.
    package func send(to sink: Sink<Value, Failure>) {}
}

@usableFromInline
package final class ReturnSignal<Value, Failure: Error>: ConstantSignal<Value, Failure>, @unchecked Sendable {
    private let value: Value

    @usableFromInline
    package init(_ value: Value) {
        self.value = value
        super.init()
    }

    package override func send(to sink: Sink<Value, Failure>) {
        sink.receive(value)
        sink.receiveCompleted()
    }
}

@usableFromInline
package final class EmptySignal<Value, Failure: Error>: ConstantSignal<Value, Failure>, @unchecked Sendable {
    @usableFromInline
    package override init() {
        super.init()
    }

    package override func send(to sink: Sink<Value, Failure>) {
        sink.receiveCompleted()
    }
}

@usableFromInline
package final class ErrorSignal<Value, Failure: Error>: ConstantSignal<Value, Failure>, @unchecked Sendable {
    private let error: Failure

    @usableFromInline
    package init(_ error: Failure) {
        self.error = error
        super.init()
    }

    package override func send(to sink: Sink<Value, Failure>) {
        sink.receive(error: error)
    }
}
