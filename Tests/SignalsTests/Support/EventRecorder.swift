import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport

/// The error the tests send.
enum TestError: Error, Equatable, Sendable {
    case first
    case second
}

/// Subscribes to a signal and records every event, in order.
final class EventRecorder<Value: Sendable, Failure: Error & Sendable>: Sendable {
    private let recorder = Recorder<Event<Value, Failure>>()
    private let box = DisposableBox()

    init(_ signal: Signal<Value, Failure>) {
        box.disposable = signal.subscribe(
            next: { [recorder] in recorder.record(.next($0)) },
            error: { [recorder] in recorder.record(.error($0)) },
            completed: { [recorder] in recorder.record(.completed) }
        )
    }

    /// Every event so far.
    var events: [Event<Value, Failure>] { recorder.values }

    /// The values so far.
    var values: [Value] { events.compactMap(\.value) }

    /// The subscription.
    var disposable: Disposable { box.disposable! }

    func dispose() { disposable.dispose() }
}

extension Signal where Value: Sendable, Failure: Sendable {
    /// Subscribes and records every event.
    func record() -> EventRecorder<Value, Failure> {
        EventRecorder(self)
    }
}

/// A cold signal that sends `values` synchronously, then `end` (completion by default), and
/// counts how often its disposable was disposed.
final class TestSource<Value: Sendable>: Sendable {
    let disposals = Counter()
    let subscriptions = Counter()
    let signal: Signal<Value, TestError>

    init(_ values: [Value], end: Event<Value, TestError>? = .completed) {
        let disposals = disposals
        let subscriptions = subscriptions
        signal = Signal { subscriber in
            subscriptions.increment()
            for value in values { subscriber.sendNext(value) }
            if let end { subscriber.send(end) }
            return Disposable { disposals.increment() }
        }
    }
}

/// A cold signal of `Int`s sent by hand through `input` (values, errors and completion); each
/// subscription counts its disposal in `disposals` and runs `onDispose`.
final class DrivenSource<Failure: Error & Sendable>: Sendable {
    let disposals = Counter()
    let signal: Signal<Int, Failure>
    let input: Subscriber<Int, Failure>

    init(onDispose: @escaping @Sendable () -> Void = {}) {
        let (pipe, input) = Signal<Int, Failure>.pipe()
        let disposals = disposals
        self.input = input
        signal = Signal { subscriber in
            let inner = pipe.subscribe(subscriber)
            return Disposable {
                disposals.increment()
                onDispose()
                inner.dispose()
            }
        }
    }
}

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
