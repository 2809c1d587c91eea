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
