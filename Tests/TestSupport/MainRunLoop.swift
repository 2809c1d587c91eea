#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Runs the main run loop (so the main queue's blocks run) until `condition` holds or `timeout`
/// seconds pass; returns whether it holds. Call it on the main thread.
///
/// A condition set on another thread does not wake the run loop, so the wait is sliced: for its
/// first millisecond it handles what the run loop has ready and yields the processor between
/// checks (the other thread usually answers within microseconds), then it sleeps in the run loop
/// a millisecond at a time. (Slices of 10 ms made every wait for another thread cost about 10 ms,
/// and a test that waits in each of a thousand rounds ten seconds.)
@discardableResult
public func spinMainRunLoop(timeout: TimeInterval = defaultWaitSeconds, until condition: () -> Bool) -> Bool {
    precondition(Thread.isMainThread, "spinMainRunLoop runs the main run loop: call it on the main thread")
    let start = Date()
    let deadline = start.addingTimeInterval(timeout)
    while !condition() {
        let now = Date()
        guard now < deadline else { return condition() }
        if now.timeIntervalSince(start) < 0.001 {
            _ = RunLoop.main.run(mode: .default, before: now)
            sched_yield()
        } else {
            _ = RunLoop.main.run(mode: .default, before: min(deadline, now.addingTimeInterval(0.001)))
        }
    }
    return true
}

/// Runs the main run loop until the main queue has run every block queued before this call (and
/// those they queued in turn, up to `rounds` deep). Call it on the main thread.
public func drainMainQueue(rounds: Int = 3) {
    for _ in 0..<rounds {
        let done = DoneFlag()
        DispatchQueue.main.async { done.set() }
        spinMainRunLoop { done.isSet }
    }
}

/// A flag the main queue sets.
private final class DoneFlag: @unchecked Sendable {
    private var value = false
    var isSet: Bool { value }
    func set() { value = true }
}
