#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Ends the test process when a test hangs: a deadlock then fails the run instead of stalling it.
///
/// Start one at the top of a test and cancel it at its end. If it is not cancelled within
/// `seconds`, it prints the shape it guards (and where it was started) to the standard error and
/// ends the process with exit status 1, from a thread of its own, without running exit handlers
/// (which might wait for a thread that is stuck in the deadlock).
///
/// ```swift
/// let watchdog = Watchdog("dispose while another subscriber blocks")
/// defer { watchdog.cancel() }
/// ```
public final class Watchdog: Sendable {
    /// The seconds a test may take before its watchdog ends the process: several times
    /// ``defaultWaitSeconds``, so that a shape whose waits each run out reports its failures
    /// before the watchdog ends the process, and a loaded machine (a sanitizer build, both cores
    /// busy) never reaches it with a shape that holds.
    public static let defaultSeconds: Double = 60

    private let cancelled = Flag()
    private let wake = DispatchSemaphore(value: 0)

    /// Starts the watchdog of `shape`.
    public init(
        seconds: Double = Watchdog.defaultSeconds,
        _ shape: String,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let message = "Watchdog: \"\(shape)\" still hangs after \(seconds) s (started at \(file):\(line)); "
            + "a deadlock. Ending the test process.\n"
        let thread = Thread { [wake, cancelled] in
            if wake.wait(timeout: .now() + seconds) == .success { return }
            if cancelled.isSet { return }
            FileHandle.standardError.write(Data(message.utf8))
            Watchdog.printEveryThreadsStack()
            fflush(nil)
            _exit(1)
        }
        thread.name = "watchdog"
        thread.start()
    }

    /// Prints every thread's stack to the standard error with `gdb`, where it is installed, so
    /// that a deadlock in CI says where each thread waits; says so and does nothing where not.
    private static func printEveryThreadsStack() {
        let gdb = ["/usr/bin/gdb", "/usr/local/bin/gdb"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let gdb else {
            FileHandle.standardError.write(Data("Watchdog: no gdb installed, so no thread stacks.\n".utf8))
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gdb)
        process.arguments = ["-p", "\(getpid())", "-batch", "-nx", "-ex", "thread apply all bt 40"]
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            FileHandle.standardError.write(Data("Watchdog: gdb did not start (\(error)).\n".utf8))
        }
    }

    /// Stops the watchdog: the test ended in time.
    public func cancel() {
        cancelled.set()
        wake.signal()
    }
}

/// Runs `body` under a ``Watchdog`` of `shape`, cancelled when `body` returns.
public func withWatchdog<Result>(
    seconds: Double = Watchdog.defaultSeconds,
    _ shape: String,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: () throws -> Result
) rethrows -> Result {
    let watchdog = Watchdog(seconds: seconds, shape, file: file, line: line)
    defer { watchdog.cancel() }
    return try body()
}

/// A flag one thread sets and others read: for "this has happened" between threads, without a
/// semaphore.
public final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    public init() {}

    /// Whether it has been set.
    public var isSet: Bool { value.load(ordering: .acquiring) }

    /// Sets it.
    public func set() {
        value.store(true, ordering: .releasing)
    }
}

/// Starts `body` on a new thread, on which no scheduler is current, and returns at once; the
/// flag returned is set once `body` has returned.
@discardableResult
public func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) -> Flag {
    let finished = Flag()
    let thread = Thread {
        body()
        finished.set()
    }
    thread.name = name
    thread.start()
    return finished
}
