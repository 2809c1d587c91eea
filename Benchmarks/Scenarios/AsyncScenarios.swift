import Dispatch
import Signals

/// Runs `loop` in a task and blocks the (synchronous) harness until it returns.
private func runInATask(_ loop: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await loop()
        done.signal()
    }
    done.wait()
}

func asyncScenarios() -> [Scenario] { [
    // Both sides send every value from a thread of their own while the same `for await` loop in
    // a task drains them, buffering what the loop has not caught up with. No scheduler is
    // current in a task, so the signal's subscription (and with it its synchronous sends) runs
    // on the background subscription scheduler (`subscribe(on: .immediate)` would not change
    // that, only add a second subscriber per value); the stream's continuation is fed from a
    // global queue likewise, so that neither side gets the second core to itself.
    Scenario(
        name: "signal.async",
        operations: 1_000_000,
        prepareOurs: { count in
            let sink = Sink()
            let values = Signal<Int, Never> { subscriber in
                for value in 0..<count { subscriber.sendNext(value) }
                subscriber.sendCompleted()
                return nil
            }.values
            return {
                runInATask {
                    for await value in values { sink.value &+= value }
                }
            }
        },
        prepareBaseline: { count in
            let sink = Sink()
            return {
                runInATask {
                    let (stream, continuation) = AsyncStream<Int>.makeStream()
                    DispatchQueue.global().async {
                        for value in 0..<count { continuation.yield(value) }
                        continuation.finish()
                    }
                    for await value in stream { sink.value &+= value }
                }
            }
        }
    ),
] }
