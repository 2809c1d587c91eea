#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The toolchain that built the running tests, for tests that run its programs (`swiftc` to
/// type-check a user's code against the build's modules, `swift` to run a script of the
/// repository's), and the scratch files such a test writes.
///
/// ```swift
/// let swift = try XCTUnwrap(Toolchain.executable("swift"))
/// let outcome = try runChildProcess(swift, arguments: ["--version"], timeout: 60)
/// ```
public enum Toolchain {
    /// The program `name` of the toolchain: the one the first set variable of `variables` names,
    /// else the one beside the Swift runtime this process runs on (the toolchain that built it, on
    /// Linux), else the first on `PATH`.
    public static func executable(_ name: String, overriddenBy variables: [String] = []) -> String? {
        let environment = ProcessInfo.processInfo.environment
        for variable in variables {
            if let path = environment[variable], !path.isEmpty {
                return path
            }
        }
        if let runtime = swiftRuntimePath() {
            var directory = runtime
            for _ in 0..<5 {
                directory = (directory as NSString).deletingLastPathComponent
                let candidate = directory + "/bin/" + name
                if access(candidate, X_OK) == 0 { return candidate }
            }
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = String(directory) + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The file of the Swift runtime library this process has loaded.
    private static func swiftRuntimePath() -> String? {
        #if canImport(Darwin)
        guard let process = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(process) }
        guard let symbol = dlsym(process, "swift_retain") else { return nil }
        var info = Dl_info()
        guard dladdr(symbol, &info) != 0, let name = info.dli_fname else { return nil }
        return String(cString: name)
        #else
        // The Glibc module has no `dladdr`; the process's memory map names the library's file.
        let descriptor = open("/proc/self/maps", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let mapped = readToEnd(descriptor).split(separator: "\n")
        guard let line = mapped.first(where: { $0.hasSuffix("/libswiftCore.so") }),
              let path = line.firstIndex(of: "/") else { return nil }
        return String(line[path...])
        #endif
    }

    /// A new, empty directory under the temporary directory, its name starting with `prefix`; the
    /// caller removes it.
    public static func makeTemporaryDirectory(prefix: String) -> String? {
        var template = Array("\(NSTemporaryDirectory())/\(prefix).XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { return nil }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Writes `text` to `path`, with `write(2)`, not Foundation, whose file APIs leaked buffers on
    /// Linux under the AddressSanitizer run's leak check (see ``runChildProcess(_:arguments:environment:timeout:)``).
    public static func writeFile(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw CocoaError(.fileWriteUnknown) }
            written += count
        }
    }

    /// Removes `path` and everything under it.
    public static func removeTree(_ path: String) {
        _ = try? runChildProcess("/bin/rm", arguments: ["-rf", path], timeout: 60)
    }
}
