#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Runs a program in a child process, started with `posix_spawn`, and waits for it: its standard
/// input is `/dev/null`, its standard output and standard error go to temporary files, read once
/// it has ended.
///
/// Not Foundation's `Process`: on Linux each `Process` object, with its environment and pipes,
/// stays allocated after the child has ended (swift-corelibs-foundation keeps it from a place
/// LeakSanitizer does not scan), which failed the AddressSanitizer run's leak check.
///
/// ```swift
/// let outcome = try runChildProcess("/usr/bin/env", arguments: ["true"], timeout: 10)
/// XCTAssertEqual(outcome.status, 0)
/// ```
///
/// - Parameters:
///   - executable: The program's path (not looked up in `PATH`); it is also the child's `argv[0]`.
///   - arguments: The arguments after `argv[0]`.
///   - environment: Variables added to this process's environment for the child, replacing those
///     of the same name.
///   - timeout: Seconds the child may take; then it is killed, and the outcome says so.
/// - Returns: How the child ended, and what it wrote.
/// - Throws: ``ChildProcessError`` when a temporary file cannot be made or the child cannot start.
public func runChildProcess(
    _ executable: String,
    arguments: [String],
    environment: [String: String] = [:],
    timeout: TimeInterval
) throws -> ChildProcessOutcome {
    let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        .map { "\($0.key)=\($0.value)" }
    let standardOutput = try TemporaryOutput()
    let standardError = try TemporaryOutput()

    #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t?
    #else
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, standardOutput.descriptor, 1)
    posix_spawn_file_actions_adddup2(&actions, standardError.descriptor, 2)

    var pid: pid_t = 0
    let result = withCStrings([executable] + arguments) { argv in
        withCStrings(variables) { envp in
            posix_spawn(&pid, executable, &actions, nil, argv, envp)
        }
    }
    guard result == 0 else {
        _ = standardOutput.finish()
        _ = standardError.finish()
        throw ChildProcessError.spawnFailed(executable: executable, errno: result)
    }

    let deadline = Date().addingTimeInterval(timeout)
    var timedOut = false
    var status: Int32 = 0
    while true {
        let ended = waitpid(pid, &status, WNOHANG)
        if ended == pid { break }
        if ended == -1 && errno != EINTR { break }
        if Date() >= deadline {
            timedOut = true
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            break
        }
        usleep(5_000)
    }
    // The wait status's layout is the same on Linux and Apple platforms: the low 7 bits are the
    // signal that ended the child (0 when it exited), the next byte its exit status.
    let signal = status & 0x7f
    return ChildProcessOutcome(
        timedOut: timedOut,
        signalled: signal != 0,
        status: signal != 0 ? signal : (status >> 8) & 0xff,
        standardError: standardError.finish(),
        standardOutput: standardOutput.finish()
    )
}

/// How a child run by ``runChildProcess(_:arguments:environment:timeout:)`` ended.
public struct ChildProcessOutcome: Sendable {
    /// Whether it ran past its timeout and was killed.
    public var timedOut: Bool
    /// Whether a signal ended it; ``status`` is then the signal's number, else the exit status.
    public var signalled: Bool
    public var status: Int32
    public var standardError: String
    public var standardOutput: String

    /// Whether it exited by itself with status 0.
    public var succeeded: Bool { !timedOut && !signalled && status == 0 }
}

/// Why ``runChildProcess(_:arguments:environment:timeout:)`` could not run the child.
public enum ChildProcessError: Error, CustomStringConvertible {
    case temporaryFile(errno: Int32)
    case spawnFailed(executable: String, errno: Int32)

    public var description: String {
        switch self {
        case let .temporaryFile(errno): "could not make a temporary file for the child's output (errno \(errno))"
        case let .spawnFailed(executable, errno): "could not start \(executable) (errno \(errno))"
        }
    }
}

/// Calls `body` with `strings` as a null-terminated array of C strings, valid during the call.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}

/// A temporary file that a child writes one of its outputs to; read and removed by `finish()`.
private struct TemporaryOutput {
    let descriptor: Int32
    private let path: String

    init() throws {
        var template = Array("\(NSTemporaryDirectory())/childProcess.XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw ChildProcessError.temporaryFile(errno: errno) }
        self.descriptor = descriptor
        self.path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What the child wrote; closes and removes the file.
    ///
    /// Read with `read(2)`, not `FileManager`: its `contents(atPath:)` leaked a buffer on Linux,
    /// which the AddressSanitizer run's leak check reports. The child's descriptor was a copy of
    /// this one, sharing its offset, which the child's writes left at the end.
    func finish() -> String {
        defer {
            close(descriptor)
            unlink(path)
        }
        lseek(descriptor, 0, SEEK_SET)
        return readToEnd(descriptor)
    }
}

/// What is left to read from the open file `descriptor`, as UTF-8 text, read with `read(2)` (not
/// Foundation, whose file APIs leaked buffers on Linux under the AddressSanitizer run's leak
/// check).
public func readToEnd(_ descriptor: Int32) -> String {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            bytes += chunk[..<count]
        } else if count == 0 || errno != EINTR {
            break
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}
