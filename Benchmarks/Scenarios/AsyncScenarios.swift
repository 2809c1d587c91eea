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
    // Both sides buffer every value, synchronously, then drain the buffer in the same
    // `for await` loop in a task: the signal is subscribed on the immediate scheduler, so it
    // sends all its values inside the first `next`; the stream is fed by its continuation before
    // the loop. This measures each side's cost per buffered value, without thread hand-offs.
    Scenario(
        name: "signal.async",
        operations: 1_000_000,
        prepareOurs: { count in
            let sink = Sink()
            let values = Signal<Int, Never> { subscriber in
                for value in 0..<count { subscriber.sendNext(value) }
                subscriber.sendCompleted()
                return nil
            }.subscribe(on: .immediate).values
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
                    for value in 0..<count { continuation.yield(value) }
                    continuation.finish()
                    for await value in stream { sink.value &+= value }
                }
            }
        }
    ),
] }
