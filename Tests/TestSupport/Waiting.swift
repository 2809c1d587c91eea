#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

// Every wait of the test suite for another thread, queue or task: each looks at its condition
// until it holds or a generous deadline passes, and tells which. A test never waits for a count
// of yields, spins or sleeps, which a loaded machine (a sanitizer build, both cores busy with
// other builds) can outlast; nor for a short timeout it expects to succeed. A short wait is
// right only where nothing should happen, and virtual time (`TestScheduler`) is better there.

/// How long a test waits for something another thread, queue or task does before it gives up:
/// far beyond what a loaded machine needs, so that only a hang or a bug runs it out.
public let defaultWaitSeconds: TimeInterval = 10

/// Checks `condition` until it holds or `timeout` seconds pass; returns whether it holds.
///
/// On the main thread it runs the main run loop between checks (``spinMainRunLoop(timeout:until:)``),
/// so blocks queued on the main queue run meanwhile; elsewhere it is
/// ``pollWithoutRunningTheMainQueue(timeout:_:)``. In an async context the async overload,
/// ``eventually(timeout:isolation:_:)``, is chosen instead: it suspends rather than blocking a
/// thread of the concurrency runtime.
@discardableResult
public func eventually(timeout: TimeInterval = defaultWaitSeconds, _ condition: () -> Bool) -> Bool {
    if Thread.isMainThread { return spinMainRunLoop(timeout: timeout, until: condition) }
    return pollWithoutRunningTheMainQueue(timeout: timeout, condition)
}

/// Checks `condition` until it holds or `timeout` seconds pass; returns whether it holds. Unlike
/// ``eventually(timeout:_:)`` it never runs the main run loop, so on the main thread a worker's
/// `DispatchQueue.main.sync` stays blocked meanwhile.
///
/// It yields the processor between the checks of its first millisecond (the other thread usually
/// answers within microseconds), then sleeps 100 µs between checks, leaving the processor to the
/// threads it waits for on a busy machine.
@discardableResult
public func pollWithoutRunningTheMainQueue(timeout: TimeInterval = defaultWaitSeconds, _ condition: () -> Bool) -> Bool {
    let start = DispatchTime.now().uptimeNanoseconds
    let deadline = start + UInt64(timeout * 1e9)
    while !condition() {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now < deadline else { return condition() }
        if now - start < 1_000_000 {
            sched_yield()
        } else {
            usleep(100)
        }
    }
    return true
}

/// Checks `condition` until it holds or `timeout` seconds pass, suspending a millisecond between
/// checks; returns whether it holds. The async overload of ``eventually(timeout:_:)``, which
/// Swift chooses in async contexts, so that the wait suspends rather than blocking a thread of
/// the concurrency runtime.
///
/// It runs on the caller's actor (`isolation`), so `condition` may read that actor's state (a
/// view model's, on the main actor). On the main actor the suspensions let the main queue run.
@discardableResult
public func eventually(
    timeout: TimeInterval = defaultWaitSeconds,
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () -> Bool
) async -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !condition() {
        guard Date() < deadline else { return condition() }
        // Cancellation makes this return at once; the deadline still ends the loop.
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return true
}

/// The async `eventually` for a condition that awaits, such as one
/// that reads another actor's state:
///
/// ```swift
/// let failed = await eventually { await !log.failures.isEmpty }
/// ```
@discardableResult
public func eventually(
    timeout: TimeInterval = defaultWaitSeconds,
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () async -> Bool
) async -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while await !condition() {
        guard Date() < deadline else { return await condition() }
        // Cancellation makes this return at once; the deadline still ends the loop.
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return true
}

extension DispatchSemaphore {
    /// Waits for a signal for at most `timeout` seconds; whether it came (and was taken).
    ///
    /// For a wait on what another thread does: the caller fails the test, or goes on, rather
    /// than hanging the run when it never comes.
    public func waitForSignal(timeout: TimeInterval = defaultWaitSeconds) -> Bool {
        wait(timeout: .now() + timeout) == .success
    }
}

extension DispatchGroup {
    /// Waits for at most `timeout` seconds until every block of the group has left it; whether
    /// they all had.
    public func waitForAll(timeout: TimeInterval = defaultWaitSeconds) -> Bool {
        wait(timeout: .now() + timeout) == .success
    }
}

/// Runs the main run loop until `flags` are all set: for waiting on the main thread for threads
/// the test started, whose work may need the main queue. The deadline is beyond the watchdog's:
/// a thread that never ends is the watchdog's to report.
public func spinMainRunLoop(untilAllSet flags: Flag...) {
    spinMainRunLoop(timeout: 2 * Watchdog.defaultSeconds) { flags.allSatisfy(\.isSet) }
}

/// `operation`'s result, or `nil` when it takes longer than `seconds`: for an await that a bug
/// could leave suspended for ever. The operation goes on in a task of its own after a timeout
/// (a hang under test), so it must not need the caller.
public func withTimeout<T: Sendable>(
    seconds: TimeInterval = defaultWaitSeconds,
    _ operation: @escaping @Sendable () async -> T
) async -> T? {
    let result = Recorder<T>()
    Task { result.record(await operation()) }
    let done = await eventually(timeout: seconds, isolation: nil) { !result.values.isEmpty }
    return done ? result.values.first : nil
}
