import Foundation
import Schedulers
import Signals

/// The name of the thread `subscribeFromAPlainThread` subscribes on.
private let plainThreadName = "plain subscriber"

/// Subscribes to `signal` from a new thread on which no scheduler is current, and waits until the
/// subscription terminates.
func subscribeFromAPlainThread<Value>(_ signal: Signal<Value, Never>, next: @escaping @Sendable (Value) -> Void = { _ in }) {
    let done = DispatchSemaphore(value: 0)
    Thread {
        Thread.current.name = plainThreadName
        signal.subscribe(next: next, completed: { done.signal() })
    }.start()
    done.wait()
}

/// Whether the caller runs on a scheduler, off the thread `subscribeFromAPlainThread` used.
var runsOnABackgroundScheduler: Bool {
    Thread.current.name != plainThreadName && Scheduler.current != nil
}
