import Disposables

/// The disposable a subscription made with closures returns: disposing it marks it (what its
/// ``ClosureSink`` checks before each callback), then disposes the upstream subscription on the
/// calling thread, without waiting for anything. A terminal event marks it too, so it reports
/// `isDisposed` once the subscription has ended either way.
///
/// It holds the upstream subscription, not the sink: the closures go with the chain, whoever
/// keeps this disposable.
@usableFromInline
package final class SubscriptionDisposable: Disposable, @unchecked Sendable {
    /// The upstream subscription, as attached and as returned by the signal. Under a lock: the
    /// terminal event may let go of it on another thread while `subscribe` is still keeping what
    /// the signal returned.
    private let upstream = Lock(Upstream())

    @usableFromInline
    package override init() {
        super.init()
    }

    /// Keeps `subscription`, to dispose it with this one, unless this one has ended (then
    /// disposes it, unless it has ended too).
    ///
    /// - Parameter isAttached: Whether the sink was attached to it (else the signal returned it;
    ///   a producer that ended at once may have attached nothing).
    package func keep(_ subscription: Disposable, attached isAttached: Bool) {
        let accepted = upstream.withLock { upstream -> Bool in
            // `dispose()` and `dropUpstream()` mark before they lock, so a mark they have not
            // yet seen reads true here.
            if isDisposed { return false }
            if isAttached {
                upstream.attached = subscription
            } else if upstream.attached !== subscription {
                upstream.returned = subscription
            }
            return true
        }
        if !accepted, !subscription.isDisposed { subscription.dispose() }
    }

    /// Keeps what subscribing returned (see ``keep(_:attached:)``).
    @usableFromInline
    package func adopt(_ subscription: Disposable?) {
        guard let subscription else { return }
        keep(subscription, attached: false)
    }

    /// Lets go of the upstream subscription without disposing it: for the terminal event, by the
    /// caller that won `markDisposed()`.
    package func dropUpstream() {
        let dropped = upstream.withLock { upstream in
            defer { upstream = Upstream() }
            return upstream
        }
        // Released outside the lock: a deinit may run user code.
        withExtendedLifetime(dropped) {}
    }

    /// Ends the subscription: no callback starts after this returns; the upstream subscription is
    /// disposed on this thread.
    package override func dispose() {
        guard markDisposed() else { return }
        let taken = upstream.withLock { upstream in
            defer { upstream = Upstream() }
            return upstream
        }
        // Directly, not through `Trampoline`: however deeply subscriptions nest (a signal that
        // subscribes to itself once per page), a compound disposable (a `Subscriber`'s, a
        // merge's) or a serial one lies between each level and the next, and those bound the depth.
        taken.attached?.dispose()
        taken.returned?.dispose()
    }
}

/// The upstream subscription of a ``SubscriptionDisposable``. Not generic, so that locking it costs
/// no metadata lookup.
private struct Upstream {
    var attached: Disposable?
    var returned: Disposable?
}
