import Disposables
import Synchronization

extension Signal {
    /// Drops this signal's values until `trigger` sends a value or completes, then sends the rest.
    ///
    /// `trigger` is subscribed first, so a trigger that fires at once lets every value through;
    /// once it has fired, its subscription is disposed. A `trigger` error is ignored: values go on
    /// being dropped. This signal's error and completion pass through at any time (completion
    /// disposes the trigger first), and disposal disposes both.
    ///
    /// ```swift
    /// keystrokes.skip(until: editorReady)
    /// ```
    ///
    /// RAC 2.5: none, the twin of `-takeUntil:` (the `-skipUntil:` the seed adds; RAC 4: `skip(until:)`).
    public func skip<U, F2>(until trigger: Signal<U, F2>) -> Signal {
        // The trigger and the source may send on different threads; the source's events meet
        // downstream at one subscriber, which disposal closes along with the trigger, whose
        // subscription the slot holds until it fires.
        Signal.switchingOver { output, slot in
            let gate = SkipGate(trigger: slot)
            _ = trigger.attachSink(SkipTriggerSink(gate))
            _ = self.attachSink(SkippingSink(output, gate))
        }.named(derivedName("-skipUntil: \(trigger.name ?? "")"))
    }
}

/// Whether the trigger of `skip(until:)` has fired, and the trigger's subscription.
private final class SkipGate: Sendable {
    private let opened = Atomic<Bool>(false)
    let trigger: SerialDisposable

    init(trigger: SerialDisposable) {
        self.trigger = trigger
    }

    var isOpen: Bool {
        opened.load(ordering: .acquiring)
    }

    /// Lets values through from now on, and ends the trigger's subscription.
    func open() {
        opened.store(true, ordering: .releasing)
        trigger.dispose()
    }
}

private final class SkipTriggerSink<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private let gate: SkipGate

    init(_ gate: SkipGate) {
        self.gate = gate
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        gate.trigger.disposable = upstream
    }

    package override func receive(_ value: Value) {
        gate.open()
    }

    package override func receiveCompleted() {
        gate.open()
    }

    // An error from the trigger is ignored, as in the seed: the gate stays shut.
}

private final class SkippingSink<Value, Failure: Error>: ForwardingSubscriberSink<Value, Failure>, @unchecked Sendable {
    private let gate: SkipGate

    init(_ output: Subscriber<Value, Failure>, _ gate: SkipGate) {
        self.gate = gate
        super.init(output)
    }

    package override func receive(_ value: Value) {
        if gate.isOpen { super.receive(value) }
    }
}
