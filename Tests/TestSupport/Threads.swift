#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Runs `body` on a new thread, on which no scheduler is current, and waits until it returns.
///
/// - Parameter stackSize: The thread's stack size in bytes, or `nil` for the default; a small
///   stack makes unbounded recursion fail fast.
public func onAPlainThread(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    if let stackSize { thread.stackSize = stackSize }
    thread.start()
    done.wait()
}

/// How much processor time the calling thread spends in `body`, in seconds; for work that runs on
/// the calling thread alone.
///
/// Not the wall time: on a loaded machine (a sanitizer build, both cores busy with other builds)
/// another process may hold the processor for milliseconds in the middle of `body`, which made a
/// linear removal of 64,000 items look 200 times slower than one of 4,000. The thread's own
/// processor time leaves that out.
public func secondsTaken(_ body: () -> Void) -> Double {
    let start = threadProcessorSeconds()
    body()
    return threadProcessorSeconds() - start
}

/// The processor time the calling thread has used so far, in seconds.
private func threadProcessorSeconds() -> Double {
    var time = timespec()
    guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else {
        fatalError("clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed: errno \(errno)")
    }
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// How much longer some work takes on four times the items.
public struct TimeGrowth: CustomStringConvertible {
    /// Seconds on `size` items, then on four times as many.
    public var small, large: Double
    /// `large / small`: about 4 when the work is linear, about 16 when it is quadratic.
    public var ratio: Double { large / small }

    public var description: String {
        "four times the items took \(ratio) times as long (\(small) s, then \(large) s)"
    }
}

/// Times `work` on `size` items and on four times as many, after a warm-up on a quarter of
/// `size`; `work` returns the seconds its part to measure took.
///
/// Each size runs three times, alternately, and the fastest run counts: a busy machine only ever
/// makes a run slower (its caches shared, its processor taken away; `secondsTaken` leaves out the
/// time the processor was away), so the minimum is the steadiest figure.
public func timeGrowth(quadrupling size: Int, _ work: (Int) -> Double) -> TimeGrowth {
    _ = work(max(1, size / 4))
    var growth = TimeGrowth(small: .infinity, large: .infinity)
    for _ in 0..<3 {
        growth.small = min(growth.small, work(size))
        growth.large = min(growth.large, work(size * 4))
    }
    return growth
}

/// The stack size of Apple's secondary threads and of Dispatch's worker threads: 512 KiB. Work
/// that recurses per element overflows it after a few thousand levels.
public let secondaryThreadStackSize = 512 * 1024

/// Runs `body` on a new thread with a stack of `stackSize` bytes, on which no scheduler is
/// current, and waits until it returns or `timeout` seconds pass; returns whether it returned.
@discardableResult
public func onAThread(
    stackSize: Int = secondaryThreadStackSize,
    timeout: TimeInterval = 60,
    _ body: @escaping @Sendable () -> Void
) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    return done.wait(timeout: .now() + timeout) == .success
}
