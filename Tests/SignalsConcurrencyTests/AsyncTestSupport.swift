import Disposables
import Foundation
import Signals
import TestSupport

/// A cold signal fed by hand through `input` (a pipe), which counts its subscriptions and the
/// disposals of its subscriptions, for the async bridges: they subscribe from a task, on
/// another thread, so a test waits for ``subscriptions`` before it sends.
final class HandFedSource<Failure: Error & Sendable>: Sendable {
    let subscriptions = Counter()
    let disposals = Counter()
    let signal: Signal<Int, Failure>
    let input: Subscriber<Int, Failure>
    /// Each subscription's disposable, and a token its disposal action holds.
    private let lifetimes = Recorder<WeakReference<AnyObject>>()

    init() {
        let (pipe, input) = Signal<Int, Failure>.pipe()
        let subscriptions = subscriptions
        let disposals = disposals
        let lifetimes = lifetimes
        signal = Signal { subscriber in
            let token = LifetimeToken()
            lifetimes.record(WeakReference<AnyObject>(token))
            lifetimes.record(WeakReference<AnyObject>(subscriber.disposable))
            let inner = pipe.subscribe(subscriber)
            subscriptions.increment()
            return Disposable {
                withExtendedLifetime(token) {}
                disposals.increment()
                inner.dispose()
            }
        }
        self.input = input
    }

    /// Whether every subscription so far has been let go of: its disposable and what its
    /// disposal action captured.
    var subscriptionsAreFreed: Bool {
        !lifetimes.values.contains { $0.isAlive }
    }
}

/// A synchronous signal that sends `values`, then `end`, from its create block, and counts the
/// disposals of its subscriptions.
func synchronousSignal<Failure: Error & Sendable>(
    _ values: [Int],
    end: Event<Int, Failure>? = .completed,
    disposals: Counter = Counter()
) -> Signal<Int, Failure> {
    Signal { subscriber in
        for value in values { subscriber.sendNext(value) }
        if let end { subscriber.sendEvent(end) }
        return Disposable { disposals.increment() }
    }
}

extension HandFedSource where Failure == TestError {
    /// Races every way a consumer can end, each from a thread of its own: the values 1 and 2,
    /// the error `.first`, completion, and `cancel` (the consuming task's cancellation).
    func raceEveryEnd(cancel: @escaping @Sendable () -> Void) {
        race(threads: 4) { thread in
            switch thread {
            case 0:
                self.input.sendNext(1)
                self.input.sendNext(2)
            case 1: self.input.sendError(.first)
            case 2: self.input.sendCompleted()
            default: cancel()
            }
        }
    }
}
