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

/// How long `body` takes, in seconds.
public func secondsTaken(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
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
/// Each size runs twice, alternately, and the faster run counts: a busy machine only ever makes
/// a run slower, so the minimum is the steadiest figure.
public func timeGrowth(quadrupling size: Int, _ work: (Int) -> Double) -> TimeGrowth {
    _ = work(max(1, size / 4))
    var growth = TimeGrowth(small: .infinity, large: .infinity)
    for _ in 0..<2 {
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
