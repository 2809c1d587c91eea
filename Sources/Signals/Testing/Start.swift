import Disposables
import Foundation
import Schedulers

extension TestScheduler {
    /// Makes a signal at virtual time `created`, subscribes to it at `subscribed`, disposes the
    /// subscription at `disposed`, runs the scheduler to `disposed`, and returns what it sent, each
    /// event with its absolute virtual time.
    ///
    /// The three times are seconds on this scheduler's clock (`TestScheduler.clock`,
    /// seconds since its `clockStart`), not from now, and so are the recorded times: a value sent at
    /// 210 is `.next(210, value)`, wherever the clock stood when this was called. The defaults are
    /// RxTest's 100, 200 and 1000, read as **seconds** of virtual time where RxTest counts ticks.
    ///
    /// The three steps are blocks of this scheduler, queued when this is called, so they run in
    /// order with the rest of its work: `make` runs at `created` with this scheduler as
    /// `Scheduler.current`, after the blocks already queued for that time; work that `make`
    /// schedules (the frames of a hot signal, a timer) runs at its time, before the subscription
    /// when it is due before `subscribed`, and after it when due at `subscribed` itself. A signal
    /// that ends before `disposed` was disposed by its terminal event: the disposal at `disposed`
    /// does nothing more (its ``TestSignal/subscriptions`` end at the terminal event). Blocks due
    /// after `disposed` stay queued, the clock reads `disposed` when this returns, and nothing is
    /// recorded after it.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let typed: TestSignal<String, Never> = scheduler.createHotSignal([.next(150, "r"), .next(210, "re"), .next(240, "rea"), .completed(300)])
    /// let recording = scheduler.start { typed.map { $0.uppercased() } }
    /// recording.events         // [.next(210, "RE"), .next(240, "REA"), .completed(300)]
    /// typed.subscriptions      // [(200.0 s, 300.0 s)]
    /// ```
    ///
    /// Compare ``SignalRecording/events`` with exact times (a failed `XCTAssertEqual` prints both
    /// lists, each event as `next(1) at 210.0 s`), or use
    /// ``SignalRecording/mismatch(expected:values:error:frame:)``, whose diagram then starts at
    /// time 0 of the clock.
    ///
    /// - Parameters:
    ///   - created: When `make` runs, in seconds on the clock; not before the clock's present.
    ///   - subscribed: When the recording subscribes; `created` or later.
    ///   - disposed: When the recording disposes its subscription and this stops running the
    ///     scheduler; `subscribed` or later.
    ///   - make: Makes the signal under test; it runs once, on the calling thread, inside this
    ///     call.
    /// - Returns: The recording, disposed, its times absolute (its ``SignalRecording/startDate``
    ///   is the scheduler's `clockStart`).
    ///
    /// A time that is NaN or infinite, times out of order, or a `created` the clock has passed
    /// stop the program with a message naming this function and the three times, in release
    /// builds too.
    ///
    /// RAC 2.5 has none; new, after RxTest's `TestScheduler.start(created:subscribed:disposed:create:)`.
    public func start<Value: Sendable, Failure>(
        created: TimeInterval = 100,
        subscribed: TimeInterval = 200,
        disposed: TimeInterval = 1000,
        _ make: @escaping () -> Signal<Value, Failure>
    ) -> SignalRecording<Value, Failure> {
        let function = "TestScheduler.start(created:subscribed:disposed:_:)"
        let times = "created \(created), subscribed \(subscribed), disposed \(disposed)"
        checkInput(created.isFinite && subscribed.isFinite && disposed.isFinite, "\(function) needs finite times, got \(times)")
        checkInput(created <= subscribed && subscribed <= disposed, "\(function) needs created <= subscribed <= disposed, got \(times)")
        let clock = clock
        checkInput(clock <= created, "\(function) needs times still to come on the clock, which reads \(clock) s, got \(times)")

        let recording = SignalRecording<Value, Failure>(timedFrom: clockStart, on: self)
        // `make` is not `Sendable`: it runs in a block of this scheduler, which runs on this
        // thread, inside the `advance(to:)` below.
        let maker = UncheckedSendable(make)
        let slot = MadeSignal<Value, Failure>()
        schedule(after: clockStart.addingTimeInterval(created)) {
            let signal = maker.value()
            slot.signal.withLock { $0 = signal }
        }
        schedule(after: clockStart.addingTimeInterval(subscribed)) {
            if let signal = slot.signal.withLock({ $0 }) { recording.subscribe(to: signal, on: self) }
        }
        schedule(after: clockStart.addingTimeInterval(disposed)) {
            recording.dispose()
        }
        advance(to: clockStart.addingTimeInterval(disposed))
        return recording
    }
}

/// The signal `make` returned, handed from the block at `created` to the one at `subscribed`.
private final class MadeSignal<Value: Sendable, Failure: Error>: Sendable {
    let signal = Lock<Signal<Value, Failure>?>(nil)
}
