import Disposables

extension Signal {
    /// Sends this signal's values until `lifetime` ends; then completes and disposes this
    /// signal's subscription.
    ///
    /// A lifetime that has ended already completes the result at once, without subscribing this
    /// signal. This signal's error and completion end the result as usual, and disposing the
    /// result disposes this signal's subscription and stops watching the lifetime (the lifetime
    /// lets go of it). A source let go of without ending it (a pipe's input released, never
    /// completed) leaves the subscription to the lifetime's end, or to its disposal.
    ///
    /// The end arrives on the thread that releases the lifetime's token; when another thread is
    /// delivering a value of this signal then, that thread sends the completion as soon as the
    /// value has been delivered, and releasing the token does not wait for it (a deinit never
    /// waits: a callback that waits for the releasing thread cannot deadlock with it).
    /// A value the releasing thread sent this signal before, put off because it was inside a
    /// delivery of its own, still arrives first.
    ///
    /// ```swift
    /// final class Clock {
    ///     private let token: Lifetime.Token
    ///     init(ticks: Signal<Int, Never>) {
    ///         let lifetime: Lifetime
    ///         (lifetime, token) = Lifetime.make()
    ///         ticks.take(during: lifetime).subscribeNext { print($0) }   // ends when the clock goes
    ///     }
    /// }
    /// ```
    ///
    /// Other libraries: ReactiveSwift's `take(during:)`; RxSwift's
    /// `take(until: owner.rx.deallocated)` or `disposed(by: bag)` with a bag the owner keeps;
    /// Combine's `store(in: &cancellables)` with a set the owner keeps.
    ///
    /// RAC 2.5: `-takeUntil:` with `-rac_willDeallocSignal`.
    public func take(during lifetime: Lifetime) -> Signal {
        Signal(producer: { downstream in
            let junction = Junction<Value, Failure>(downstream)
            // Not `take(until: lifetime.ended)`: its trigger, sent from a token's deinit outside any
            // delivery, waits for another thread's delivery to end, and a callback that waits for
            // the thread releasing the token then deadlocks with it. The end is handed to the
            // delivering thread instead, as a disposal is.
            let watcher = LifetimeWatcher(junction)
            let watching = lifetime.observeEnded { watcher.end() }
            if let watching { junction.subscription?.add(watching) }
            if !junction.isClosed {
                _ = self.attachSink(PassingInput(junction))
            }
            return junction.handOverSubscription()
        }).named(derivedName("-takeDuring:"))
    }
}

/// What `take(during:)` hands the lifetime: an input of the junction, so that the junction keeps
/// the subscriber downstream while the lifetime may still end it, even once the source has let go
/// of its own input.
private final class LifetimeWatcher<Value, Failure: Error>: Sendable {
    private let junction: Junction<Value, Failure>

    init(_ junction: Junction<Value, Failure>) {
        self.junction = junction
        junction.inputMade()
    }

    /// The lifetime has ended: completes, now when nobody delivers, else by the delivering thread
    /// as its event ends, without waiting, and never before what the releasing thread put off
    /// earlier inside a delivery (see ``Junction/completeWithoutWaiting(puttingOffAs:)``).
    func end() {
        junction.completeWithoutWaiting(puttingOffAs: self)
    }

    deinit {
        junction.inputGone()
    }
}
