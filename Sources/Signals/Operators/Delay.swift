import Disposables
import Foundation
import Schedulers

extension Signal {
    /// Sends each value, and completion, `interval` seconds after the source sent it, on
    /// `scheduler`; sends an error at once.
    ///
    /// Events keep the order the source sent them in and none is dropped, on any scheduler: when
    /// an event's time comes, the earlier ones still waiting are sent first. An error cancels the
    /// values still waiting, as disposal does.
    ///
    /// ```swift
    /// // 1 at 0 s, 2 at 1 s, completed at 1 s
    /// numbers.delay(2, on: scheduler)   // 1 at 2 s, 2 at 3 s, completed at 3 s
    /// ```
    ///
    /// The wait is measured on the scheduler's monotonic clock, so a wall clock set back does not
    /// cut it short. An infinite interval never sends a value or completion (they wait until the
    /// subscription is disposed); an error is still sent at once. A negative or NaN interval
    /// stops the program.
    ///
    /// RAC 2.5: `-delay:` (which waits on the current scheduler, or a background one; here the
    /// scheduler is given).
    public func delay(_ interval: TimeInterval, on scheduler: Scheduler) -> Signal {
        checkInterval(interval, of: "delay(_:on:)")
        return delayed(by: interval, on: scheduler).named(derivedName("-delay: \(interval) onScheduler: \(scheduler)"))
    }

    /// Sends each value, and completion, `interval` seconds after the source sent it, on the
    /// scheduler current where the source sent it, or on a background scheduler where none is;
    /// sends an error at once.
    ///
    /// Events keep the order the source sent them in and none is dropped, even when they wait on
    /// different schedulers: when an event's time comes, the earlier ones still waiting are sent
    /// first, on that event's scheduler. **Departure:** RAC 2.5 lets events waiting on different
    /// schedulers overtake one another, and a completion that overtakes a value drops it. An
    /// error cancels the values still waiting, as disposal does. The interval is taken as in
    /// ``delay(_:on:)``: measured on a monotonic clock, never ending when infinite, and stopping
    /// the program when negative or NaN.
    ///
    /// On the main thread the current scheduler is `Scheduler.main`, so events sent there wait on
    /// the main queue: a command-line tool or a server that does not run the main run loop never
    /// gets them (see `Scheduler.main`); give it a scheduler with ``delay(_:on:)`` instead.
    ///
    /// RAC 2.5: `-delay:`.
    public func delay(_ interval: TimeInterval) -> Signal {
        checkInterval(interval, of: "delay(_:)")
        return delayed(by: interval, on: nil).named(derivedName("-delay: \(interval)"))
    }

    /// `delay` on `scheduler`, or, when it is `nil`, on the scheduler current at each event.
    private func delayed(by interval: TimeInterval, on scheduler: Scheduler?) -> Signal {
        Signal.serialized { output in
            let pending = output.disposable
            let fallback = FallbackScheduler()
            let line = DelayLine()
            output.disposable.add(Disposable { line.removeAll() })
            let later: @Sendable (@escaping @Sendable () -> Void) -> Void = { send in
                let number = line.append(send)
                pending.schedule(on: scheduler ?? fallback.scheduler(or: Scheduler.current), afterDelay: interval) {
                    line.send(through: number)
                }
            }
            self.forward(to: output, sendsErrorsAtOnce: true, through: later)
        }
    }
}

/// The events of one `delay` subscription waiting for their time, in the order the source sent
/// them, each as the block that sends it on. The block scheduled for an event sends it and every
/// earlier one still waiting, so that no event overtakes another, whichever scheduler's block runs
/// first.
private final class DelayLine: @unchecked Sendable {
    private struct State {
        /// The blocks not run yet, oldest first.
        var waiting = Queue<@Sendable () -> Void>()
        /// The number of the first block in `waiting`; blocks are numbered from 0 as they come.
        var first: UInt64 = 0
        /// Blocks numbered below this may run: their time, or a later one's, has come.
        var due: UInt64 = 0
        /// Whether a thread is sending; the others leave their events to it, so that two threads
        /// never race to send.
        var sending = false

        /// The next block to run, or `nil`, which ends the sending.
        mutating func takeDue() -> (@Sendable () -> Void)? {
            guard first < due, let send = waiting.popFirst() else {
                sending = false
                return nil
            }
            first += 1
            sending = true
            return send
        }
    }

    private let state = Lock(State())

    /// Adds `send` to the line; returns its number.
    func append(_ send: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            state.waiting.append(send)
            return state.first + UInt64(state.waiting.count) - 1
        }
    }

    /// Runs, in order, every block up to the `number`-th still waiting, unless another thread is
    /// sending: that one runs them too.
    func send(through number: UInt64) {
        var next = state.withLock { state -> (@Sendable () -> Void)? in
            state.due = max(state.due, number + 1)
            return state.sending ? nil : state.takeDue()
        }
        while let send = next {
            send()
            next = state.withLock { $0.takeDue() }
        }
    }

    /// Lets go of the blocks waiting: the subscription has ended.
    func removeAll() {
        let released = state.withLock { state -> Queue<@Sendable () -> Void> in
            state.first += UInt64(state.waiting.count)
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        _ = released
    }
}
