/// The rounds of the stress tests (`<Module>StressTests`), each round a race of 8 threads.
///
/// 1,000 rounds in the release run, 400 in a debug run, 200 under a sanitizer, which slows
/// thread-heavy code ten times or more: all the stress tests together then take about 25 s under
/// ThreadSanitizer and 20 s under AddressSanitizer on two busy cores (300 rounds took 42 s and
/// 30 s), within what CI's sanitizer runs can spare. The release run, whose fast code meets the
/// most interleavings in a given time, races the most.
public enum Stress {
    /// How many rounds each stress test runs.
    public static let rounds = BuildKind.raceRounds(optimized: 1_000, debug: 400, sanitized: 200)

    /// How long one round may take before its watchdog ends the process: longer than the waits
    /// a round makes for other threads (``Watchdog/defaultSeconds`` each), so that a value that
    /// never comes fails its assertion, and only a round stuck for good (a deadlock) ends the run.
    public static let roundSeconds = 3 * Watchdog.defaultSeconds

    /// Runs `body` with each round's number in turn, each round under a ``Watchdog`` of `shape`.
    public static func forEachRound(
        _ shape: String,
        file: StaticString = #filePath,
        line: UInt = #line,
        _ body: (_ round: Int) -> Void
    ) {
        for round in 0..<rounds {
            withWatchdog(seconds: roundSeconds, "\(shape), round \(round)", file: file, line: line) {
                body(round)
            }
        }
    }
}
