#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What kind of build the tests run in, for tests that scale their work to it.
///
/// CI runs the suite in debug, release, ThreadSanitizer and AddressSanitizer builds (`.ci/run`);
/// the sanitizers slow every memory access (ThreadSanitizer by 5 to 15 times, more with many
/// threads), so a stress test runs fewer rounds there.
public enum BuildKind {
    /// Whether the test process runs under ThreadSanitizer or AddressSanitizer: their runtimes
    /// export `__tsan_init` and `__asan_init`, looked up once in the process's global symbols.
    public static let isSanitized: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(process) }
        let runtimes: [String] = ["__tsan_init", "__asan_init"]
        return runtimes.contains { dlsym(process, $0) != nil }
    }()

    /// Whether the test process runs under AddressSanitizer, whose runtime exports `__asan_init`.
    public static let isAddressSanitized: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(process) }
        return dlsym(process, "__asan_init") != nil
    }()

    /// The stack of a thread that shows some work does not recurse per element: `size`, or 4 MiB
    /// under a sanitizer, whose instrumented frames (AddressSanitizer's redzones above all) are
    /// several times larger, so that a bounded nesting that fits `size` in a plain build would
    /// not fit there. The optimized run checks `size` itself, at full depth.
    public static func smallStack(_ size: Int) -> Int {
        isSanitized ? max(size, 4 * 1024 * 1024) : size
    }

    /// `normal` rounds (or elements, or any count of work) in debug and release builds,
    /// `sanitized` under a sanitizer.
    public static func rounds(_ normal: Int, sanitized: Int) -> Int {
        isSanitized ? sanitized : normal
    }

    /// Whether the tests were compiled without optimization (`swift test`, and the sanitizer runs,
    /// which are debug builds too).
    public static var isDebug: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    /// For the races that the thread matrix and the stress tests run again and again:
    /// `optimized` rounds in the release run, whose fast code meets the most interleavings in a
    /// given time; `debug` in a plain debug run; `sanitized` under a sanitizer.
    public static func raceRounds(optimized: Int, debug: Int, sanitized: Int) -> Int {
        isSanitized ? sanitized : isDebug ? debug : optimized
    }
}
