import Disposables
import Foundation
import Signals

/// The error the tests send.
public enum TestError: Error, Equatable, Sendable {
    case first
    case second
}

/// Subscribes to a signal and records every event, in order.
public final class EventRecorder<Value: Sendable, Failure: Error & Sendable>: Sendable {
    private let recorder = Recorder<Event<Value, Failure>>()
    private let box = DisposableBox()

    public init(_ signal: Signal<Value, Failure>) {
        box.disposable = signal.subscribe(
            next: { [recorder] in recorder.record(.next($0)) },
            error: { [recorder] in recorder.record(.error($0)) },
            completed: { [recorder] in recorder.record(.completed) }
        )
    }

    /// Every event so far.
    public var events: [Event<Value, Failure>] { recorder.values }

    /// The values so far.
    public var values: [Value] { events.compactMap(\.value) }

    /// The subscription.
    public var disposable: Disposable { box.disposable! }

    public func dispose() { disposable.dispose() }
}

extension Signal where Value: Sendable, Failure: Sendable {
    /// Subscribes and records every event.
    public func record() -> EventRecorder<Value, Failure> {
        EventRecorder(self)
    }
}

/// A cold signal that sends `values` synchronously, then `end` (completion by default), and
/// counts how often its disposable was disposed.
public final class TestSource<Value: Sendable>: Sendable {
    public let disposals = Counter()
    public let subscriptions = Counter()
    public let signal: Signal<Value, TestError>

    public init(_ values: [Value], end: Event<Value, TestError>? = .completed) {
        let disposals = disposals
        let subscriptions = subscriptions
        signal = Signal { subscriber in
            subscriptions.increment()
            for value in values { subscriber.sendNext(value) }
            if let end { subscriber.sendEvent(end) }
            return Disposable { disposals.increment() }
        }
    }
}

/// A cold signal of `Int`s sent by hand through `input` (values, errors and completion); each
/// subscription counts itself in `subscriptions` once it has joined `input` (so what `input`
/// sends from then on reaches it), and its disposal in `disposals`, and runs `onDispose`.
public final class DrivenSource<Failure: Error & Sendable>: Sendable {
    public let subscriptions = Counter()
    public let disposals = Counter()
    public let signal: Signal<Int, Failure>
    public let input: Subscriber<Int, Failure>

    public init(onDispose: @escaping @Sendable () -> Void = {}) {
        let (pipe, input) = Signal<Int, Failure>.pipe()
        let subscriptions = subscriptions
        let disposals = disposals
        self.input = input
        signal = Signal { subscriber in
            let inner = pipe.subscribe(subscriber)
            subscriptions.increment()
            return Disposable {
                disposals.increment()
                onDispose()
                inner.dispose()
            }
        }
    }
}


/// A cold signal that sends `1` and completes, synchronously, so that its `repeat()` subscribes
/// again and again inside the subscribing call until something disposes it. It counts its
/// subscriptions and, from the `limit`-th on, sends its value without completing: a loop that
/// disposal fails to stop ends there, and the test fails instead of hanging.
public final class SelfLimitingSource: Sendable {
    public let subscriptions = Counter()
    public let signal: Signal<Int, TestError>

    public init(limit: Int = 1_000) {
        let subscriptions = subscriptions
        signal = Signal { subscriber in
            subscriptions.increment()
            subscriber.sendNext(1)
            if subscriptions.value < limit { subscriber.sendCompleted() }
            return nil
        }
    }
}

extension Signal {
    /// Subscribes with a subscriber that counts the values in `values` and disposes its own
    /// subscription from inside the first one, then runs `afterDisposing`.
    ///
    /// The subscriber knows its disposable before the signal sends anything, so this works for a
    /// signal that sends synchronously, inside this call, too.
    @discardableResult
    public func subscribeDisposingInFirstValue(
        counting values: Counter,
        afterDisposing: @escaping @Sendable () -> Void = {}
    ) -> Disposable {
        let box = DisposableBox()
        let subscriber = Subscriber<Value, Failure>(next: { _ in
            values.increment()
            guard values.value == 1 else { return }
            box.disposable?.dispose()
            afterDisposing()
        })
        box.disposable = subscriber.disposable
        subscribe(subscriber)
        return subscriber.disposable
    }
}
