import Disposables
import Observation
import Schedulers
import Signals

extension Observable where Self: AnyObject & SendableMetatype {
    /// The value of one property of this `@Observable` object, then each change to it; completes
    /// when the object goes.
    ///
    /// ```swift
    /// @Observable @MainActor final class SearchModel {
    ///     var query = ""
    /// }
    ///
    /// model.signal(for: \.query)           // "", then "s", "sw", "swift" as they are typed
    ///     .throttle(0.3)
    ///     .subscribe(next: { print("search for", $0) })
    /// ```
    ///
    /// - `scheduler` is where the object lives: the property is read there, and the values are
    ///   sent there. Its changes must be made there too: the main thread (the default) for a
    ///   `@MainActor` model or one a SwiftUI view shows. It must run its blocks one at a time, as
    ///   `Scheduler.main`, a `QueueScheduler`, an `ActorScheduler` or a `TestScheduler` do;
    ///   `Scheduler.immediate` stops the program, since it would read the value before the change
    ///   is stored.
    /// - Subscribing on the scheduler (on the main thread, for the default) sends the current value
    ///   at once, as `RACObserve` does; from anywhere else it is sent in a block on the scheduler.
    /// - How changes arrive: Observation tells of a change before it is stored, so each change
    ///   schedules a block on the scheduler that reads the value then. Changes made within one
    ///   block of the scheduler (one turn of the main run loop, say) arrive as one value, the
    ///   last, as Swift's `Observations` and SwiftUI coalesce them. Setting an `Equatable` property
    ///   to an equal value is no change (the `@Observable` macro tells of none), but a change and
    ///   its undoing within one block send the value again: add `distinctUntilChanged()` for
    ///   changes only.
    /// - How the object's going is seen: the object's observation registrar goes with it and
    ///   lets go of the pending tracking without calling it; the signal then completes in a block
    ///   on the scheduler. Nothing is polled, and the signal does not keep the object alive.
    /// - Disposing stops the tracking: nothing more is sent, and the subscriber is let go of at
    ///   once. Observation keeps its pending registration (a small object, not the subscriber)
    ///   until the next change or until the object goes.
    /// - A property Observation does not track (`@ObservationIgnored`, a `let`) sends its value,
    ///   then completes in a block on the scheduler: no change to it, nor the object's going, can
    ///   be seen, so a subscription waiting for them would be kept for ever.
    /// - A key path through another `@Observable` object (`\.account.name`) follows both, and
    ///   both registrars keep the tracking: if the other object is kept elsewhere, the signal
    ///   completes at its next change after this object went, not at once. Follow such a
    ///   property from the object that holds it, or end the subscription with its owner
    ///   (`take(during:)`).
    ///
    /// Other libraries: ReactiveSwift's `reactive.producer(for:)` (KVO), RxSwift's
    /// `rx.observe(_:)`, Combine's `publisher(for:)` (KVO); Swift's `Observations` (macOS 26, iOS
    /// 26), of which this is the scheduler-driven counterpart, on every platform the package runs.
    ///
    /// RAC 2.5: `RACObserve(object, keyPath)`, over KVO, which Swift on Linux does not have.
    public func signal<Value>(
        for keyPath: KeyPath<Self, Value>,
        on scheduler: Scheduler = .main
    ) -> Signal<Value, Never> {
        checkTrackingScheduler(scheduler, "signal(for:on:)")
        let source = UncheckedSendable((object: WeakReference(self), keyPath: keyPath))
        return Signal { subscriber in
            // The object may have gone since the signal was made: such a subscription completes.
            guard let object = source.value.object.object else {
                subscriber.sendCompleted()
                return nil
            }
            let tracker = PropertyTracker(
                object, source.value.keyPath, on: scheduler, endsWhenUntracked: true,
                onValue: { subscriber.sendNext($0) },
                onEnd: { subscriber.sendCompleted() }
            )
            let start = tracker.start()
            return Disposable {
                start?.dispose()
                tracker.stop()
            }
        }
    }

    /// A two-way binding to one property of this `@Observable` object: subscribing to the terminal
    /// gets the property's value, then each change; a value sent into it sets the property.
    ///
    /// ```swift
    /// let field = ObservableValue("")
    /// let query = model.channel(for: \.query)
    /// query.subscribe(field.channel)       // the field follows the model
    /// field.channel.subscribe(query)       // and the model the field
    /// ```
    ///
    /// The property is read and set on `scheduler`, and its changes are seen there, as with
    /// `signal(for:on:)` (which says how they arrive and coalesce): a value sent into the
    /// terminal from another thread sets the property in a block on the scheduler. A value that
    /// came in through the terminal is not sent back out of it (unless another change to the
    /// property was still to be read when it came), so two sides bound to each other converge
    /// instead of bouncing a value forever. The terminal completes when the object goes; its
    /// subscribers then complete.
    ///
    /// The tracking starts when the terminal is made, and lasts while the object lives. A property
    /// Observation does not track (`@ObservationIgnored`) sends its value once; values sent in
    /// still set it, and the terminal lives while it is held, but it never completes.
    ///
    /// Other libraries: ReactiveSwift's `BindingTarget` and `<~` on both sides, RxSwift's
    /// `ControlProperty` bound both ways, Combine's `assign(to:)` one way.
    ///
    /// RAC 2.5: `RACChannelTo(object, keyPath)` (`RACKVOChannel`).
    public func channel<Value>(
        for keyPath: ReferenceWritableKeyPath<Self, Value>,
        on scheduler: Scheduler = .main
    ) -> ChannelTerminal<Value> {
        checkTrackingScheduler(scheduler, "channel(for:on:)")
        let channel = Channel<Value>()
        let leading = channel.leadingTerminal
        let tracker = PropertyTracker(
            self, keyPath, on: scheduler,
            onValue: { leading.sendNext($0) },
            onEnd: { leading.sendCompleted() }
        )
        _ = tracker.start()
        let writableKeyPath = UncheckedSendable(keyPath)
        leading.subscribe(next: { value in
            let value = UncheckedSendable(value)
            if Scheduler.current === scheduler {
                tracker.set(value.value, through: writableKeyPath.value)
            } else {
                scheduler.schedule { tracker.set(value.value, through: writableKeyPath.value) }
            }
        })
        return channel.followingTerminal
    }
}

/// Stops the program when `scheduler` cannot track a property: one that runs a block inline runs
/// the re-read before the change is stored.
private func checkTrackingScheduler(_ scheduler: Scheduler, _ operation: String) {
    checkInput(
        scheduler !== Scheduler.immediate,
        "\(operation) needs a scheduler that runs blocks later, one at a time (the main thread, a QueueScheduler, an ActorScheduler), got Scheduler.immediate, which would read the property before each change is stored"
    )
}

/// A weak reference, for capturing an object that may go.
private struct WeakReference<Object: AnyObject> {
    weak var object: Object?

    init(_ object: Object) {
        self.object = object
    }
}
