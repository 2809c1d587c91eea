#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the test process runs under a sanitizer, for tests that scale their work down there
/// (a sanitizer makes each step several times slower).
public enum Sanitizers {
    /// Whether ThreadSanitizer or AddressSanitizer is on: their runtimes, linked into the process
    /// when it is built with `--sanitize=thread` or `--sanitize=address`, export these symbols.
    public static let areOn: Bool = ["__tsan_init", "__asan_init"].contains { (symbol: String) in
        dlsym(defaultHandle, symbol) != nil
    }

    /// `RTLD_DEFAULT`: every image loaded in the process (not imported into Swift as a constant).
    private static var defaultHandle: UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        UnsafeMutableRawPointer(bitPattern: -2)
        #else
        nil
        #endif
    }
}
