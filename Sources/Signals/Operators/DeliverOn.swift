import Foundation
import Schedulers
import Synchronization

extension Signal where Value: Sendable {
    /// Sends every event on `scheduler`: each value, the error and completion is scheduled on it
    /// separately, in the order the source sent them.
    ///
    /// The source is subscribed where this signal is; only the delivery moves. Disposal cancels
    /// the events still waiting on `scheduler`, and reaches the source's subscription from its
    /// first event on, so disposing from a callback stops a source still sending synchronously.
    ///
    /// ```swift
    /// parsed.deliver(on: .main).subscribe(next: { label.text = $0 })
    /// ```
    ///
    /// On `Scheduler.main`, the main queue must run for the events to arrive: in an app it does; a
    /// command-line tool or a server runs the main run loop itself (see `Scheduler.main`).
    ///
    /// The sender never waits: the events the scheduler has not run yet are queued on it without a
    /// bound, as in RAC 2.5, so a source that outpaces the scheduler's work grows memory. Drop what
    /// cannot keep up first (``throttle(_:on:)``, ``rateLimit(_:on:latest:)``), or do the slow work
    /// in a `Subject`'s subscriber, whose senders wait at its bound.
    ///
    /// RAC 2.5: `-deliverOn:`.
    public func deliver(on scheduler: Scheduler) -> Signal {
        Signal.serialized { output in
            let pending = output.disposable
            self.forward(to: output) { send in pending.schedule(on: scheduler, send) }
        }.named(derivedName("-deliverOn: \(scheduler)"))
    }

    /// Sends every event on the main thread: at once when the source sends it on the main thread
    /// and no earlier event is still waiting to be delivered there, otherwise asynchronously on
    /// the main queue, in the order the source sent them.
    ///
    /// Unlike `deliver(on: .main)`, an event sent on the main thread is not put off to a later
    /// turn of the main queue. Disposal cancels the events still waiting.
    ///
    /// The main queue must run: in an app it does; a command-line tool or a server runs the main
    /// run loop (see `Scheduler.main`), or the events sent off the main thread never arrive. On
    /// Linux under `dispatchMain()` (or an `async` `main`), main-queue blocks run on a thread that
    /// is not the main thread, so there the events arrive on the main queue, one at a time, but not
    /// on the main thread.
    ///
    /// RAC 2.5: `-deliverOnMainThread`.
    public func deliverOnMainThread() -> Signal {
        Signal.serialized { output in
            let pending = output.disposable
            let queue = MainThreadQueue()
            let perform: @Sendable (@escaping @Sendable () -> Void) -> Void = { send in
                if queue.enter(), Thread.isMainThread {
                    send()
                    queue.leave()
                } else {
                    pending.schedule(on: Scheduler.main) {
                        send()
                        queue.leave()
                    }
                }
            }
            self.forward(to: output, through: perform)
        }.named(derivedName("-deliverOnMainThread"))
    }
}

/// How many events of a `deliverOnMainThread` subscription are being delivered or wait to be.
private final class MainThreadQueue: Sendable {
    private let length = Atomic<Int>(0)

    /// Counts one more event; `true` when no other is being delivered or waiting.
    func enter() -> Bool {
        length.add(1, ordering: .acquiringAndReleasing).newValue == 1
    }

    /// Counts one event less.
    func leave() {
        length.subtract(1, ordering: .acquiringAndReleasing)
    }
}
