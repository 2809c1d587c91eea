import Foundation

/// Runs the main run loop (so the main queue's blocks run) until `condition` holds or `timeout`
/// seconds pass; returns whether it holds. Call it on the main thread.
///
/// It sleeps in the run loop between checks rather than polling, in slices of at most 10 ms, so
/// that a condition set on another thread is seen soon.
@discardableResult
public func spinMainRunLoop(timeout: TimeInterval = defaultWaitSeconds, until condition: () -> Bool) -> Bool {
    precondition(Thread.isMainThread, "spinMainRunLoop runs the main run loop: call it on the main thread")
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !condition() {
        let now = Date()
        guard now < deadline else { return condition() }
        _ = RunLoop.main.run(mode: .default, before: min(deadline, now.addingTimeInterval(0.01)))
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
