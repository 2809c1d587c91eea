import Disposables
import Foundation
import Schedulers

// What the time and threading operators share: a subscription that delivers through a
// `Subscriber` built around the downstream sink, scheduled work that ends with the subscription,
// and, for the operators that keep state between the source and their timers (throttle, buffer),
// a sink that both feed through one serialization point.

extension Signal {
    /// A signal whose subscriptions deliver through a ``Subscriber`` wrapped around the downstream
    /// sink, as `Signal { }` does, but that runs `body` at once, on the subscribing thread, rather
    /// than through ``Scheduler/subscription``: the operator's source, if any, goes through it
    /// itself. `body` adds what it starts to the subscriber's ``Subscriber/disposable``.
    package static func serialized(_ body: @escaping @Sendable (Subscriber<Value, Failure>) -> Void) -> Signal {
        Signal(producer: { downstream in
            let output = Subscriber(downstream)
            downstream.attach(output.disposable)
            body(output)
            return output.disposable
        })
    }

    /// Subscribes to this signal, forwarding each event to `output`, and ties the subscription to
    /// `output`'s disposable.
    ///
    /// The subscription joins `output`'s disposable when the source attaches it, before its first
    /// event, not when this returns: disposing `output` from inside a callback of a source that
    /// sends synchronously (a `repeat()` of a synchronous signal, which would otherwise run on)
    /// ends the source's work too.
    package func forward(to output: Subscriber<Value, Failure>) {
        output.disposable.add(attachSink(ForwardingSubscriberSink(output)))
    }

    /// Subscribes to this signal, handing each event to `perform` as a block that sends it to
    /// `output`, to run later or elsewhere; ties the subscription to `output`'s disposable as
    /// ``forward(to:)`` does, before the first event.
    ///
    /// - Parameter sendsErrorsAtOnce: Whether an error skips `perform` and is sent at once.
    package func forward(
        to output: Subscriber<Value, Failure>,
        sendsErrorsAtOnce: Bool = false,
        through perform: @escaping @Sendable (_ send: @escaping @Sendable () -> Void) -> Void
    ) {
        output.disposable.add(attachSink(RelaySink(output, sendsErrorsAtOnce: sendsErrorsAtOnce, through: perform)))
    }

    /// A signal whose subscriptions feed the source's events, and the firings of the timers the
    /// sink starts, through one ``Subscriber`` into the sink `makeSink` builds, so that the sink is
    /// called one event at a time, in order, and keeps its state without a lock.
    ///
    /// - Parameters:
    ///   - capturingCurrentScheduler: Whether each value carries ``Scheduler/current`` as it was
    ///     on the thread that sent it, for operators that schedule on it.
    ///   - holdingCompletion: Whether the source's completion reaches the sink as
    ///     ``TimedEvent/completed``, leaving the subscription and its timers running until the sink
    ///     calls ``TimerSink/complete()`` (`pace`, which completes once its backlog is sent), rather
    ///     than ending the subscription at once.
    package func timed<Output>(
        capturingCurrentScheduler: Bool,
        holdingCompletion: Bool = false,
        _ makeSink: @escaping (Sink<Output, Failure>) -> TimerSink<Value, Output, Failure>
    ) -> Signal<Output, Failure> {
        let makeSink = UncheckedSendable(makeSink)
        return Signal<Output, Failure>(producer: { downstream -> Disposable? in
            self.subscribeTimed(
                makeSink.value(downstream),
                capturingCurrentScheduler: capturingCurrentScheduler,
                holdingCompletion: holdingCompletion
            )
        })
    }

    /// ``timed(capturingCurrentScheduler:_:)`` for an operator whose timers run on `scheduler`,
    /// given by the user, for `interval` seconds: stops the program first, naming `operatorName`,
    /// unless `interval` is zero or more and `scheduler` is not ``Scheduler/immediate``.
    package func timed<Output>(
        waiting interval: TimeInterval,
        on scheduler: Scheduler,
        checkedAs operatorName: @autoclosure () -> String,
        holdingCompletion: Bool = false,
        _ makeSink: @escaping (Sink<Output, Failure>) -> TimerSink<Value, Output, Failure>
    ) -> Signal<Output, Failure> {
        checkInterval(interval, of: operatorName())
        checkScheduler(scheduler, of: operatorName())
        return timed(capturingCurrentScheduler: false, holdingCompletion: holdingCompletion, makeSink)
    }

    /// Subscribes `sink` as `timed(capturingCurrentScheduler:holdingCompletion:_:)` does.
    private func subscribeTimed<Output>(
        _ sink: TimerSink<Value, Output, Failure>,
        capturingCurrentScheduler: Bool,
        holdingCompletion: Bool
    ) -> Disposable {
        let input = Subscriber<TimedEvent<Value>, Failure>(sink)
        sink.input = input
        sink.attach(input.disposable)
        input.disposable.add(sink.timer)
        input.disposable.add(attachSink(TimedInputSink(
            input, capturingCurrentScheduler: capturingCurrentScheduler, holdingCompletion: holdingCompletion
        )))
        return input.disposable
    }
}

/// The input side of the operators that send each event on later or on another thread
/// (`deliver(on:)`, `deliverOnMainThread()`, `delay`): hands `perform` a block per event that
/// sends it to the output.
///
/// As a ``SubscriberSink``, it ties the source's subscription to the output's disposable when it
/// is attached, before the first event, so disposing the output from inside a callback that
/// `perform` runs at once (``Scheduler/immediate``, the main thread) ends a source that is still
/// sending synchronously.
private final class RelaySink<Value, Failure: Error>: PassthroughSubscriberSink<Value, Value, Failure>, @unchecked Sendable {
    private let perform: @Sendable (_ send: @escaping @Sendable () -> Void) -> Void
    private let sendsErrorsAtOnce: Bool

    init(
        _ output: Subscriber<Value, Failure>,
        sendsErrorsAtOnce: Bool,
        through perform: @escaping @Sendable (_ send: @escaping @Sendable () -> Void) -> Void
    ) {
        self.perform = perform
        self.sendsErrorsAtOnce = sendsErrorsAtOnce
        super.init(output)
    }

    override func receive(_ value: Value) {
        let output = output
        let value = UncheckedSendable(value)
        perform { output.sendNext(value.value) }
    }

    override func receive(error: Failure) {
        if sendsErrorsAtOnce {
            output.sendError(error)
            return
        }
        let output = output
        let error = UncheckedSendable(error)
        perform { output.sendError(error.value) }
    }

    override func receiveCompleted() {
        let output = output
        perform { output.sendCompleted() }
    }
}

/// The input side of ``Signal/timed(capturingCurrentScheduler:_:)``: wraps each value of the
/// source as a ``TimedEvent`` for the sink's subscriber, with the scheduler current where it was
/// sent when asked; the source's subscription joins that subscriber's disposable before the first
/// event, as ``RelaySink``'s does. With `holdingCompletion`, the source's completion goes to the
/// sink as an event like the others, ``TimedEvent/completed``, and the subscription runs on.
private final class TimedInputSink<Value, Failure: Error>: PassthroughSubscriberSink<Value, TimedEvent<Value>, Failure>, @unchecked Sendable {
    private let capturingCurrentScheduler: Bool
    private let holdingCompletion: Bool

    init(_ input: Subscriber<TimedEvent<Value>, Failure>, capturingCurrentScheduler: Bool, holdingCompletion: Bool) {
        self.capturingCurrentScheduler = capturingCurrentScheduler
        self.holdingCompletion = holdingCompletion
        super.init(input)
    }

    override func receive(_ value: Value) {
        output.sendNext(.value(value, capturingCurrentScheduler ? Scheduler.current : nil))
    }

    override func receiveCompleted() {
        guard holdingCompletion else { return super.receiveCompleted() }
        output.sendNext(.completed)
    }
}

/// What reaches a ``TimerSink``: a value of the source, with the scheduler current where it was
/// sent when the operator asked for it, the firing of one of the sink's timers, or, for an
/// operator that holds completion back (`timed(capturingCurrentScheduler:holdingCompletion:_:)`),
/// the source's completion.
package enum TimedEvent<Value> {
    case value(Value, Scheduler?)
    case timer(UInt64)
    case completed
}

/// The sink of an operator with state shared between its source and a timer (throttle, buffer).
///
/// Values and timer firings reach it through the same ``Subscriber``, so it is called one event
/// at a time and needs no lock. At most one timer runs at a time: starting one cancels the last,
/// and a firing that was already on its way when it was cancelled is ignored.
package class TimerSink<Value, Output, Failure: Error>: PassthroughSink<TimedEvent<Value>, Output, Failure>, @unchecked Sendable {
    /// Where the timers send their firings; set before the first event.
    weak var input: Subscriber<TimedEvent<Value>, Failure>?
    /// The running timer; disposed with the subscription.
    let timer = SerialDisposable()
    /// Which timer's firing counts: the last one started.
    private var generation: UInt64 = 0

    /// Starts a timer that fires `interval` seconds from now on `scheduler` (measured on its
    /// monotonic clock; never, for an infinite interval), replacing the one running, if any.
    final func startTimer(after interval: TimeInterval, on scheduler: Scheduler) {
        cancelTimer()
        guard let input else { return }
        let generation = self.generation
        timer.swap(scheduler.schedule(afterDelay: interval) { input.sendNext(.timer(generation)) })?.dispose()
    }

    /// Cancels the running timer; a firing already on its way is ignored.
    final func cancelTimer() {
        generation &+= 1
        timer.swap(nil)?.dispose()
    }

    /// Receives a value of the source, sent where `current` was the current scheduler (`nil`
    /// unless the operator asked for it).
    func receive(value: Value, current: Scheduler?) {}

    /// The timer started last has fired.
    func timerFired() {}

    /// The source has completed, and the operator holds completion back: the subscription and
    /// its timer run on until the sink calls ``complete()``. Here, completes at once.
    func sourceCompleted() {
        complete()
    }

    /// Ends the subscription with completion, after the event under way: disposes the source's
    /// subscription and the timer, then calls ``receiveCompleted()``.
    final func complete() {
        input?.sendCompleted()
    }

    /// Ends the subscription with `error`, after the event under way: disposes the source's
    /// subscription and the timer, then calls ``receive(error:)``.
    final func fail(_ error: Failure) {
        input?.sendError(error)
    }

    package final override func receive(_ event: TimedEvent<Value>) {
        switch event {
        case let .value(value, current):
            receive(value: value, current: current)
        case let .timer(generation):
            if generation == self.generation { timerFired() }
        case .completed:
            sourceCompleted()
        }
    }
}

/// A ``TimerSink`` that holds back at most one value of its source until its timer fires
/// (`throttle`, `rateLimit`): completion first sends the value held, if any; an error drops it.
package class HoldingTimerSink<Value, Failure: Error>: TimerSink<Value, Value, Failure>, @unchecked Sendable {
    /// How long each timer runs, in seconds.
    final let interval: TimeInterval
    /// The value held back until the timer fires, if any.
    final var held: Value?

    /// A sink calling `downstream`, whose timers run `interval` seconds.
    init(_ downstream: Sink<Value, Failure>, interval: TimeInterval) {
        self.interval = interval
        super.init(downstream)
    }

    /// Drops the value held, then passes the error on.
    package final override func receive(error: Failure) {
        held = nil
        super.receive(error: error)
    }

    /// Sends the value held, if any, then completion.
    package final override func receiveCompleted() {
        if let value = held.take() { downstream.receive(value) }
        super.receiveCompleted()
    }
}

/// The scheduler that operators without one use for work sent where no scheduler is current: one
/// background scheduler per subscription, made on first use, so that its blocks run one at a time.
final class FallbackScheduler: @unchecked Sendable {
    private let scheduler = Lock<Scheduler?>(nil)

    /// `current`, or the subscription's background scheduler when it is `nil`.
    func scheduler(or current: Scheduler?) -> Scheduler {
        if let current { return current }
        return scheduler.withLock { scheduler in
            if let scheduler { return scheduler }
            let made = Scheduler.background()
            scheduler = made
            return made
        }
    }
}

extension CompoundDisposable {
    /// Schedules `action` on `scheduler`, after `delay` seconds when given, as a child of this
    /// compound until it runs: disposing the compound cancels it and releases what it captured.
    func schedule(on scheduler: Scheduler, afterDelay delay: TimeInterval? = nil, _ action: @escaping @Sendable () -> Void) {
        let slot = SerialDisposable()
        add(slot)
        let work: @Sendable () -> Void = {
            self.remove(slot)
            action()
        }
        slot.disposable = delay.map { scheduler.schedule(afterDelay: $0, work) } ?? scheduler.schedule(work)
    }
}

/// Stops the program unless the interval a time operator was given is zero or more (infinity
/// will do: its wait never ends); NaN is not.
func checkInterval(_ interval: TimeInterval, of operatorName: @autoclosure () -> String) {
    checkInput(interval >= 0, "\(operatorName()) needs an interval of zero or more, got \(interval)")
}

/// Stops the program unless the interval a time operator was given is positive (infinity will
/// do); zero and NaN are not.
func checkPositiveInterval(_ interval: TimeInterval, of operatorName: @autoclosure () -> String) {
    checkInput(interval > 0, "\(operatorName()) needs a positive interval, got \(interval)")
}

/// Stops the program if a time operator was given ``Scheduler/immediate``, which can only wait by
/// blocking the thread that sends.
func checkScheduler(_ scheduler: Scheduler, of operatorName: @autoclosure () -> String) {
    checkInput(scheduler !== Scheduler.immediate, "\(operatorName()) cannot run on Scheduler.immediate, which can only wait by blocking; pass a scheduler that can run work later, got \(scheduler)")
}
