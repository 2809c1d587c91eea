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
