import Command
import CoreFoundation
import Dispatch
import Signals

/// A command's round trip through the main queue: 100,000 executions, one at a time, of a command
/// whose signal sends its input and completes, its values collected from `executionSignals` (each
/// execution's signal subscribed as it comes, with a closure that appends the value); each
/// execution waits, spinning the main run loop, until its value is collected (the execution has
/// then ended, in the same main-queue block, and the command is enabled again). The baseline does one `DispatchQueue.main.async` per execution, calling an opaque
/// closure that appends the value, and spins the main run loop the same way until it ran.
func commandScenarios() -> [Scenario] {
    [Scenario(name: "command.execute", operations: 100_000, ours: executeOurs, baseline: executeBaseline)]
}

/// Where both sides collect the values, and what the command's signals last said.
private final class Collected: @unchecked Sendable {
    var values: [Int] = []
    var isFinished = false
}

/// Runs the main run loop once, handling what is ready (the main queue's blocks among it) without
/// waiting: `CFRunLoopRunInMode` is cheaper per call than `RunLoop.run(mode:before:)` on Linux.
private func runMainRunLoopOnce() {
    _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0, true)
}

private func executeOurs(_ count: Int) {
    let collected = Collected()
    var command: Command<Int, Int, Never>? = Command { .return($0) }
    // Each execution's signal subscribed as it comes: the command's work, not `flatten`'s (which
    // `signal.flatten` measures).
    command!.executionSignals.subscribe(
        next: { execution in execution.subscribe(next: { collected.values.append($0) }) },
        completed: { collected.isFinished = true }
    )
    for value in 0..<count {
        command!.execute(value)
        // The main-queue block that sends the value also ends the execution, before it returns.
        while collected.values.count <= value { runMainRunLoopOnce() }
    }
    // Released, the command completes its signals on the main queue: wait for that here, so no
    // block of ours is left for the baseline's run loop.
    command = nil
    while !collected.isFinished { runMainRunLoopOnce() }
}

private func executeBaseline(_ count: Int) {
    let collected = Collected()
    let body: @Sendable (Int) -> Void = { collected.values.append($0) }
    let append = opaque(body)
    for value in 0..<count {
        DispatchQueue.main.async { append(value) }
        while collected.values.count <= value { runMainRunLoopOnce() }
    }
}
