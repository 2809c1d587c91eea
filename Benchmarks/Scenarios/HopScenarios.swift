import Dispatch
import Schedulers
import Signals

/// The hot path that hops schedulers: each value of a pipe delivered on a queue scheduler, beside
/// one `DispatchQueue.async` per value calling an opaque closure.
func hopScenarios() -> [Scenario] {
    [Scenario(name: "signal.deliver-on", operations: 100_000, ours: deliverOnOurs, baseline: deliverOnBaseline)]
}

private func deliverOnOurs(_ count: Int) {
    let sink = Sink()
    let done = DispatchSemaphore(value: 0)
    let (signal, input) = Signal<Int, Never>.pipe()
    signal.deliver(on: QueueScheduler(name: "benchmarks.deliver-on")).subscribe(next: { value in
        sink.value &+= value
        if value == count - 1 { done.signal() }
    })
    for value in 0..<count { input.sendNext(value) }
    done.wait()
}

private func deliverOnBaseline(_ count: Int) {
    let sink = Sink()
    let done = DispatchSemaphore(value: 0)
    let queue = DispatchQueue(label: "benchmarks.deliver-on.baseline")
    let body: @Sendable (Int) -> Void = { value in
        sink.value &+= value
        if value == count - 1 { done.signal() }
    }
    let deliver = opaque(body)
    for value in 0..<count { queue.async { deliver(value) } }
    done.wait()
}
