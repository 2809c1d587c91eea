import Schedulers

extension Signal where Value: Sendable {
    /// Subscribes to the source on `scheduler`: the source's work, such as a `Signal { }` block,
    /// runs there.
    ///
    /// Only the subscription moves: the events are sent wherever the source sends them (use
    /// ``deliver(on:)`` to move them), and disposal runs on the thread that disposes. Disposing
    /// before the subscription has run cancels it; disposing from inside a callback stops the
    /// source, also one still sending synchronously inside the scheduled block (a `repeat()` of a
    /// synchronous signal), because the source's subscription is tied to this one before its first
    /// event. The scheduled block is a sender on `scheduler` like any other: a synchronous source's
    /// values that a callback forwards into a busy `Subject` wait there at the subject's bound,
    /// where a `subscribe` made by the app never waits.
    ///
    /// ```swift
    /// expensiveSetup.subscribe(on: .background()).subscribe(next: { … })
    /// ```
    ///
    /// RAC 2.5: `-subscribeOn:`.
    public func subscribe(on scheduler: Scheduler) -> Signal {
        Signal.serialized { output in
            output.disposable.add(scheduler.schedule {
                DeliveryContext.subscribingWhereSendsMayWait { self.forward(to: output) }
            })
        }.named(derivedName("-subscribeOn: \(scheduler)"))
    }
}
