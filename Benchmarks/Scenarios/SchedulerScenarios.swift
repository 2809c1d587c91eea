import Dispatch
import Foundation
import Schedulers
import Signals
import Synchronization

func schedulerScenarios() -> [Scenario] { [
    Scenario(
        name: "scheduler.recursive",
        operations: 1_000_000,
        ours: { count in
            let sink = Sink()
            Scheduler.immediate.scheduleRecursive { reschedule in
                sink.value += 1
                if sink.value < count { reschedule() }
            }
            precondition(sink.value == count)
        },
        baseline: { count in
            // A loop that calls the action, handing it a closure that asks for one more turn.
            let sink = Sink()
            let remaining = Sink()
            remaining.value = 1
            let reschedule: () -> Void = opaque { remaining.value += 1 }
            let action: (() -> Void) -> Void = opaque { reschedule in
                sink.value += 1
                if sink.value < count { reschedule() }
            }
            while remaining.value > 0 {
                remaining.value -= 1
                action(reschedule)
            }
            precondition(sink.value == count)
        }
    ),
    Scenario(
        name: "scheduler.queue",
        operations: 100_000,
        ours: { count in
            let sink = Sink()
            let scheduler = QueueScheduler(name: "benchmarks.queue")
            let done = DispatchSemaphore(value: 0)
            for _ in 0..<count {
                scheduler.schedule {
                    sink.value += 1
                    if sink.value == count { done.signal() }
                }
            }
            done.wait()
        },
        baseline: { count in
            let sink = Sink()
            let queue = DispatchQueue(label: "benchmarks.queue.baseline")
            let done = DispatchSemaphore(value: 0)
            for _ in 0..<count {
                queue.async {
                    sink.value += 1
                    if sink.value == count { done.signal() }
                }
            }
            done.wait()
        }
    ),
    Scenario(name: "scheduler.dated", operations: 100_000, ours: datedOurs, baseline: datedBaseline),
    Scenario(name: "signal.throttle", operations: 100_000, ours: throttleOurs, baseline: throttleBaseline),
    Scenario(name: "signal.pace", operations: 100_000, ours: paceOurs, baseline: paceBaseline),
] }

/// Blocks for a date already come: each goes through the queue of dated blocks, reading the
/// clocks, and runs from a drain of its own; beside `asyncAfter(deadline: .now())` on a serial
/// queue.
private func datedOurs(_ count: Int) {
    let sink = Sink()
    let scheduler = QueueScheduler(name: "benchmarks.dated")
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<count {
        scheduler.schedule(afterDelay: 0) {
            sink.value += 1
            if sink.value == count { done.signal() }
        }
    }
    done.wait()
}

private func datedBaseline(_ count: Int) {
    let sink = Sink()
    let queue = DispatchQueue(label: "benchmarks.dated.baseline")
    let done = DispatchSemaphore(value: 0)
    let body: @Sendable () -> Void = {
        sink.value += 1
        if sink.value == count { done.signal() }
    }
    let run = opaque(body)
    for _ in 0..<count {
        queue.asyncAfter(deadline: .now(), execute: run)
    }
    done.wait()
}

/// Values of a pipe through `throttle` on a queue scheduler: each value cancels the wait of the
/// one before and starts its own, a dated block disposed and another scheduled per value.
private func throttleOurs(_ count: Int) {
    let done = DispatchSemaphore(value: 0)
    let last = Sink()
    let (signal, input) = Signal<Int, Never>.pipe()
    signal.throttle(60, on: QueueScheduler(name: "benchmarks.throttle")).subscribe(
        next: { last.value = $0 },
        completed: { done.signal() }
    )
    for value in 0..<count { input.sendNext(value) }
    input.sendCompleted()
    done.wait()
    precondition(last.value == count - 1)
}

/// A hand-written debounce: the value waiting under a lock, and one dispatch timer set again for
/// each value.
private func throttleBaseline(_ count: Int) {
    let queue = DispatchQueue(label: "benchmarks.throttle.baseline")
    let pending = Mutex<Int?>(nil)
    let last = Sink()
    let body: @Sendable (Int) -> Void = { last.value = $0 }
    let send = opaque(body)
    let takePending: @Sendable () -> Int? = {
        pending.withLock { slot -> Int? in
            defer { slot = nil }
            return slot
        }
    }
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.setEventHandler {
        if let value = takePending() { send(value) }
    }
    timer.resume()
    for value in 0..<count {
        pending.withLock { $0 = value }
        timer.schedule(deadline: .now() + 60)
    }
    queue.sync {
        timer.cancel()
        if let value = takePending() { send(value) }
    }
    precondition(last.value == count - 1)
}

/// Values of a pipe through `pace(0, on: QueueScheduler)`, then completion: the first value leaves
/// at once, the others wait in the queue and leave one per turn of the scheduler, each firing of
/// the interval's dated block sending one and scheduling the next. A zero interval makes each
/// interval one turn of the queue, so what is timed is the operator's cost per value (its queue,
/// the dated block, the hop through its serialization point), not a clock's.
private func paceOurs(_ count: Int) {
    let done = DispatchSemaphore(value: 0)
    let received = Sink()
    let (signal, input) = Signal<Int, Never>.pipe()
    signal.pace(0, on: QueueScheduler(name: "benchmarks.pace")).subscribe(
        next: { _ in received.value += 1 },
        completed: { done.signal() }
    )
    for value in 0..<count { input.sendNext(value) }
    input.sendCompleted()
    done.wait()
    precondition(received.value == count)
}

/// A hand-written pacer: a FIFO of the values waiting and whether an interval runs, under a
/// `Mutex`; a value that finds no interval running is delivered at once and starts one, an
/// `asyncAfter(deadline: .now() + 0)` on a serial queue, whose block delivers the oldest value
/// waiting and starts the next, or ends the interval; completion waits for the FIFO to empty.
private func paceBaseline(_ count: Int) {
    let done = DispatchSemaphore(value: 0)
    let received = Sink()
    let body: @Sendable (Int) -> Void = { _ in received.value += 1 }
    let end: @Sendable () -> Void = { done.signal() }
    let pacer = BaselinePacer(interval: 0, deliver: opaque(body), finish: opaque(end))
    for value in 0..<count { pacer.send(value) }
    pacer.complete()
    done.wait()
    precondition(received.value == count)
}

/// The baseline of `signal.pace`.
private final class BaselinePacer: @unchecked Sendable {
    private struct State {
        /// The values waiting, read from `head`; compacted when the read part reaches half.
        var backlog: [Int] = []
        var head = 0
        var isSpacing = false
        var completionWaits = false

        var isEmpty: Bool { head == backlog.count }

        mutating func popFirst() -> Int {
            let value = backlog[head]
            head += 1
            if head == backlog.count {
                backlog.removeAll(keepingCapacity: true)
                head = 0
            } else if head * 2 >= backlog.count {
                backlog.removeFirst(head)
                head = 0
            }
            return value
        }
    }

    /// What a firing of the interval's block does.
    private enum Next {
        case deliver(Int, last: Bool)
        case idle
    }

    private let queue = DispatchQueue(label: "benchmarks.pace.baseline")
    private let state = Mutex(State())
    private let interval: Double
    private let deliver: @Sendable (Int) -> Void
    private let finish: @Sendable () -> Void

    init(interval: Double, deliver: @escaping @Sendable (Int) -> Void, finish: @escaping @Sendable () -> Void) {
        self.interval = interval
        self.deliver = deliver
        self.finish = finish
    }

    func send(_ value: Int) {
        let atOnce = state.withLock { state -> Bool in
            if state.isSpacing {
                state.backlog.append(value)
                return false
            }
            state.isSpacing = true
            return true
        }
        guard atOnce else { return }
        // Delivered before the interval's block is scheduled, so that the block's delivery cannot
        // overlap this one.
        deliver(value)
        startInterval()
    }

    func complete() {
        let now = state.withLock { state -> Bool in
            if state.isEmpty { return true }
            state.completionWaits = true
            return false
        }
        if now { finish() }
    }

    private func startInterval() {
        queue.asyncAfter(deadline: .now() + interval) { self.intervalEnded() }
    }

    private func intervalEnded() {
        let next = state.withLock { state -> Next in
            if state.isEmpty {
                state.isSpacing = false
                return .idle
            }
            let value = state.popFirst()
            return .deliver(value, last: state.isEmpty && state.completionWaits)
        }
        guard case let .deliver(value, last) = next else { return }
        deliver(value)
        if last { finish() } else { startInterval() }
    }
}
