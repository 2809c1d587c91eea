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
        // `ended` completes at once for a lifetime that has ended (so this signal is never
        // subscribed), and take(until:)'s trigger never waits for a delivery: a token released
        // on a thread that a callback waits for cannot deadlock with it.
        take(until: lifetime.ended).named(derivedName("-takeDuring:"))
    }
}
