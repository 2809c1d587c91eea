import Dispatch
import Schedulers

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
] }
