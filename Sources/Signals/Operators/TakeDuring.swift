import Disposables

extension Signal {
    /// Sends this signal's values until `lifetime` ends; then completes and disposes this
    /// signal's subscription.
    ///
    /// A lifetime that has ended already completes the result at once, without subscribing this
    /// signal. This signal's error and completion end the result as usual, and disposing the
    /// result disposes this signal's subscription and stops watching the lifetime (the lifetime
    /// lets go of it). The end arrives on the thread that releases the lifetime's token.
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
        take(until: lifetime.ended).named(derivedName("-takeDuring:"))
    }
}
