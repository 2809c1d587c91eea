import Disposables
import Synchronization

/// The state of one `scheduleRecursive` call on a scheduler other than ``Scheduler/immediate``.
///
/// Each turn is scheduled as a step whose disposable sits in `disposable` until the step starts.
/// Reschedules requested while the action runs are counted and scheduled after it returns, as in
/// RAC 2.5. Scheduling goes through a per-thread trampoline: when a scheduler runs the step inline
/// (the subscription scheduler does, when a scheduler is current), the next step is queued on the
/// frame already looping on this thread instead of nesting another call, so the stack stays flat.
final class RecursiveSchedule: @unchecked Sendable {
    private let scheduler: Scheduler
    private let action: @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
    private let disposable = CompoundDisposable()

    init(scheduler: Scheduler, action: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void) {
        self.scheduler = scheduler
        self.action = action
    }

    func start() -> Disposable {
        reschedule()
        return disposable
    }

    /// Schedules one more turn, or queues it on this thread's frame when one is looping already.
    private func reschedule() {
        if disposable.isDisposed { return }
        if let frame = TrampolineFrame.current, frame.owner === self {
            frame.pending += 1
            return
        }
        let frame = TrampolineFrame(owner: self, previous: TrampolineFrame.current)
        TrampolineFrame.current = frame
        defer { TrampolineFrame.current = frame.previous }
        scheduleStep()
        while frame.pending > 0, !disposable.isDisposed {
            frame.pending -= 1
            scheduleStep()
        }
    }

    private func scheduleStep() {
        // The step is in `disposable` before it is scheduled, so it can always be removed when it
        // starts, even when it starts on another thread before `schedule` returns.
        let step = SerialDisposable()
        disposable.add(step)
        step.disposable = scheduler.schedule { [self] in
            disposable.remove(step)
            runTurn()
        }
    }

    private func runTurn() {
        if disposable.isDisposed { return }
        let synchronous = RescheduleCounter(0)
        action { [self] in
            if !synchronous.addOne() { reschedule() }
        }
        for _ in 0..<synchronous.close() {
            reschedule()
        }
    }
}

/// One `reschedule` loop running on this thread, for one recursive schedule.
private final class TrampolineFrame {
    let owner: AnyObject
    let previous: TrampolineFrame?
    /// Steps requested while the loop was scheduling one; only this thread touches it.
    var pending = 0

    init(owner: AnyObject, previous: TrampolineFrame?) {
        self.owner = owner
        self.previous = previous
    }

    private static let slot = ThreadLocalReference<TrampolineFrame>()

    /// The innermost frame on this thread; the frame's `reschedule` call keeps it alive.
    static var current: TrampolineFrame? {
        get { slot.value }
        set { slot.value = newValue }
    }
}

/// A count of reschedules that can be closed: once closed, `addOne()` refuses.
final class RescheduleCounter: Sendable {
    private static let closed = -1
    private let count: Atomic<Int>

    init(_ initial: Int) {
        count = Atomic(initial)
    }

    /// Adds one unless closed; `false` when closed.
    func addOne() -> Bool {
        var current = count.load(ordering: .relaxed)
        while current != Self.closed {
            let (exchanged, original) = count.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Takes one away if there is one; `false` when there was none (or it is closed).
    func takeOne() -> Bool {
        var current = count.load(ordering: .relaxed)
        while current > 0 {
            let (exchanged, original) = count.compareExchange(
                expected: current, desired: current - 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Closes the counter and returns what it had counted.
    func close() -> Int {
        max(0, count.exchange(Self.closed, ordering: .acquiringAndReleasing))
    }
}
