import Disposables

extension Signal {
    /// A signal whose subscriptions send what two subscriptions send through one ``Subscriber``,
    /// as ``serialized(_:)``'s do: `body` subscribes both, and keeps in `slot` (disposed with the
    /// output) the one it ends early or replaces: how the operators that switch over from one
    /// signal to another are built. `catch` keeps the source there, then the handler's signal;
    /// `take(untilReplacement:)` the source, until the replacement sends; `skip(until:)` the
    /// trigger, until it fires.
    ///
    /// `@inlinable`, as `catch` is: a client that catches with its own types then looks up none of
    /// the generic metadata (of `Signal` and `Subscriber`) that unspecialized code looks up for
    /// each subscription.
    @inlinable
    package static func switchingOver(_ body: @escaping @Sendable (Subscriber<Value, Failure>, SerialDisposable) -> Void) -> Signal {
        Signal(producer: { downstream in
            let output = Subscriber(downstream)
            downstream.attach(output.disposable)
            let slot = SerialDisposable()
            output.disposable.add(slot)
            body(output, slot)
            return output.disposable
        })
    }
}

/// A ``ForwardingSubscriberSink`` whose subscription is kept in the `slot` of
/// ``Signal/switchingOver(_:)`` rather than joining the output's disposable, so that the operator
/// can end it early, or put the next signal's subscription in its place.
package class SlottedForwardingSink<Value, Failure: Error>: ForwardingSubscriberSink<Value, Failure>, @unchecked Sendable {
    private let slot: SerialDisposable

    /// A sink sending through `output`, whose subscription goes into `slot`.
    package init(_ output: Subscriber<Value, Failure>, slot: SerialDisposable) {
        self.slot = slot
        super.init(output)
    }

    /// Puts the subscription in the slot, without disposing what was there: the subscription
    /// this one follows, which has ended, or nothing.
    package override final func attach(_ upstream: Disposable) {
        slot.disposable = upstream
    }
}
