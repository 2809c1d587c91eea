import Disposables

/// A run of values that one thread sends to a ``Subscriber`` while it owns the subscriber's
/// delivery lock: what ``Subscriber/sendNexts(_:)`` hands its walk.
///
/// A `sendNext` takes the lock, reads the thread's ``DeliveryContext`` and lets go again for each
/// value, about 190 instructions. A producer that has many values to send in a row on one thread
/// (a list walked on ``Schedulers/Scheduler/immediate``) sends them through a burst instead: the
/// lock is taken once for up to 256 values, and each value costs what `deliverNext` does
/// as the owner, with the same checks (see ``send(from:)``). Between bursts the lock is let go
/// of, so a thread waiting to send or to settle gets in, and the work this thread put off is done.
///
/// When the lock is not to be taken here (this thread owns it further up its stack, or is inside
/// another delivery while another thread owns it), the walk is handed a burst of one value that
/// goes through ``Subscriber/sendNext(_:)``, queued or put off as any send is.
///
/// Only the walk it is lent may use a burst, and only while it runs: it is not copyable. Its
/// methods are inlinable, so a walk specialized for its values delivers with direct calls and no
/// metadata lookup, and ``send(from:)`` binds what it calls once per burst, so no value costs a
/// retain.
@usableFromInline
package struct Burst<Value, Failure: Error>: ~Copyable {
    /// The most values one burst that owns the lock delivers before it is let go of.
    static var capacity: Int { 256 }

    @usableFromInline let subscriber: Subscriber<Value, Failure>
    @usableFromInline let gate: SubscriberGate<Value, Failure>
    /// The sink below the gate, for a burst that owns the lock; `nil` for one that sends through
    /// the subscriber.
    @usableFromInline let receiver: Sink<Value, Failure>?
    /// The receiver's ``Sink/valueHandler()``, if it has one: called instead of the receiver.
    @usableFromInline let handler: ((Value) -> Void)?
    /// How many values this burst may send.
    @usableFromInline let length: Int

    @usableFromInline
    init(_ subscriber: Subscriber<Value, Failure>, _ gate: SubscriberGate<Value, Failure>, receiver: Sink<Value, Failure>?, length: Int) {
        self.subscriber = subscriber
        self.gate = gate
        self.receiver = receiver
        handler = receiver?.valueHandler()
        self.length = length
    }

    /// Sends the values `next` gives, until it gives `nil` or the burst is full or the
    /// subscription is disposed; returns whether `next` gave `nil`.
    ///
    /// Each value is computed only once the subscription is found open (the mark a `sendNext`
    /// checks first), so a subscription that a callback disposed computes nothing more, and a
    /// `dispose()` from another thread (which marks the subscription, then waits for the lock)
    /// stops the burst after the value under way. A value is delivered unless the gate has closed
    /// meanwhile (its own computation may have disposed it), then what a callback sent to the
    /// subscriber reentrantly, in order, before the next value, as `deliverNext` does.
    ///
    /// `next` must remember where it stopped: the walk is called again, with a new burst, for the
    /// rest.
    @inlinable @inline(__always)
    package func send(from next: () -> Value?) -> Bool {
        // Bound once for the burst, here and below: called through the burst's fields (an
        // optional closure above all), each call would retain and release what it calls, which
        // measured more than the rest of a value's way together.
        let subscription = subscriber.disposable
        let gate = gate
        guard let receiver else {
            // Not the owner: one value through the subscriber.
            if subscription.isDisposed { return false }
            guard let value = next() else { return true }
            subscriber.sendNext(value)
            return false
        }
        if let handler {
            return send(from: next, through: gate, subscription) { handler($0) }
        }
        return send(from: next, through: gate, subscription) { receiver.receive($0) }
    }

    @inlinable @inline(__always)
    func send(
        from next: () -> Value?,
        through gate: SubscriberGate<Value, Failure>,
        _ subscription: CompoundDisposable,
        to deliver: (Value) -> Void
    ) -> Bool {
        var room = length
        while room > 0, !subscription.isDisposed {
            guard let value = next() else { return true }
            room &-= 1
            if gate.isDisposed { return false }
            deliver(value)
            if gate.hasPending { gate.deliverPending() }
        }
        return false
    }
}

extension Subscriber {
    /// Sends the values `walk` gives, in bursts that take the delivery lock once for up to 256
    /// values (see ``Burst``).
    ///
    /// `walk` sends values with ``Burst/send(from:)`` and returns `true` once it has sent its last
    /// value. Until then it is called again, with a new burst, until the subscription ends; it
    /// must remember where it stopped.
    ///
    /// - Returns: `true` when `walk` returned `true`, `false` when the subscription ended first
    ///   (disposed, or a terminal event sent reentrantly). No terminal event is sent.
    @usableFromInline
    package func sendNexts(_ walk: (borrowing Burst<Value, Failure>) -> Bool) -> Bool {
        gate.sendBursts(from: self, walk)
    }
}
