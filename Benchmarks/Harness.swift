import Dispatch
import Foundation

/// One benchmark: the library's way and the hand-written baseline, doing the same work.
struct Scenario {
    /// The name printed and used in `--json`, such as `compound.add-dispose`.
    var name: String
    /// How many operations one run does at full size; `ns/op` divides by it.
    var operations: Int
    /// Prepares the library's version of the work on `count` items (untimed) and returns the
    /// work to time.
    var prepareOurs: (_ count: Int) -> () -> Void
    /// Prepares the plain-Swift version of the same work and returns it.
    var prepareBaseline: (_ count: Int) -> () -> Void
    /// For a scenario that times each operation on its own (`subject.flood-dispose`): runs both
    /// versions and measures them itself, given whether the run is `--quick`; `measure` and the
    /// two `prepare` closures are not used.
    var measureItself: ((_ quick: Bool) -> Measurement)?

    init(name: String, operations: Int, prepareOurs: @escaping (Int) -> () -> Void, prepareBaseline: @escaping (Int) -> () -> Void) {
        self.name = name
        self.operations = operations
        self.prepareOurs = prepareOurs
        self.prepareBaseline = prepareBaseline
    }

    /// A scenario that measures itself: `measuring` runs ours and the baseline and returns what
    /// they did, with the figures beyond ns/op in ``Measurement/spread``.
    init(name: String, operations: Int, measuring: @escaping (_ quick: Bool) -> Measurement) {
        let unused: (Int) -> () -> Void = { _ in fatalError("\(name) measures itself") }
        self.init(name: name, operations: operations, prepareOurs: unused, prepareBaseline: unused)
        measureItself = measuring
    }

    /// A scenario with nothing to prepare.
    init(name: String, operations: Int, ours: @escaping (Int) -> Void, baseline: @escaping (Int) -> Void) {
        self.init(name: name, operations: operations, prepareOurs: { count in { ours(count) } }, prepareBaseline: { count in { baseline(count) } })
    }
}

/// What one scenario measured.
struct Measurement {
    var scenario: String
    var nanosecondsPerOperation: Double
    var baselineNanosecondsPerOperation: Double
    var peakResidentKilobytes: Int
    /// The process's resident size before the scenario ran; the peak's growth over it is the
    /// scenario's own memory.
    var startResidentKilobytes: Int
    /// For a scenario timing each operation on its own: its longest operations, the baseline's
    /// memory, and whether it was cut short. (`nanosecondsPerOperation` is then the median.)
    var spread: Spread? = nil

    var ratio: Double { nanosecondsPerOperation / baselineNanosecondsPerOperation }
}

/// What a scenario that times each operation on its own measured beyond the median of each side.
struct Spread {
    /// The longest single operation of ours, and of the baseline, in ns (one still under way when
    /// given up on counts with the time it had taken by then).
    var longestNanoseconds: Double
    var baselineLongestNanoseconds: Double
    /// The baseline's peak resident size during its run, and its resident size before, in KiB.
    var baselinePeakResidentKilobytes: Int
    var baselineStartResidentKilobytes: Int
    /// How the peaks were read: `VmHWM` (reset before each side's run) or `VmRSS sampled`.
    var peakSource: String
    /// The operations asked for, and those each side did before it finished or was stopped.
    var requestedOperations: Int
    var completedOperations: Int
    var baselineCompletedOperations: Int
    /// How much else each side did meanwhile (for `subject.flood-dispose`, the values sent), so
    /// that a side cannot look fast by starving the rest.
    var backgroundOperations: Int
    var baselineBackgroundOperations: Int
    /// Why a side stopped early (`time limit 40 s`, `memory cap 8388608 KiB`), or `nil`.
    var stopReason: String?
    var baselineStopReason: String?
    /// Whether a side's longest operation was still under way when it was given up on: the
    /// process ends with it still running, and its time is a lower bound.
    var longestUnfinished: Bool
    var baselineLongestUnfinished: Bool
}

/// Runs a scenario's two versions in alternating order, keeping the fastest round of each.
///
/// Timings on a shared machine only ever get slower than the truth, so the minimum over rounds is
/// the most repeatable figure.
func measure(_ scenario: Scenario, rounds: Int, scale: Double) -> Measurement {
    let count = max(1, Int(Double(scenario.operations) * scale))
    var best = (ours: UInt64.max, baseline: UInt64.max)
    var peak = 0
    let start = PeakMemory.residentKilobytes()
    for round in 0..<rounds {
        let runBaseline = {
            let work = scenario.prepareBaseline(count)
            best.baseline = min(best.baseline, time(work))
        }
        let runOurs = {
            let work = scenario.prepareOurs(count)
            PeakMemory.reset()
            best.ours = min(best.ours, time(work))
            peak = max(peak, PeakMemory.kilobytes())
        }
        if round.isMultiple(of: 2) {
            runBaseline()
            runOurs()
        } else {
            runOurs()
            runBaseline()
        }
    }
    return Measurement(
        scenario: scenario.name,
        nanosecondsPerOperation: Double(best.ours) / Double(count),
        baselineNanosecondsPerOperation: Double(best.baseline) / Double(count),
        peakResidentKilobytes: peak,
        startResidentKilobytes: start
    )
}

private func time(_ body: () -> Void) -> UInt64 {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return DispatchTime.now().uptimeNanoseconds - start
}

/// The process's peak resident memory, reset before each measured run where Linux allows it.
enum PeakMemory {
    /// Resets the high-water mark to the present resident size (Linux: `/proc/self/clear_refs`).
    static func reset() {
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            try? handle.write(contentsOf: Data("5".utf8))
            try? handle.close()
        }
    }

    /// The high-water mark in KiB: `VmHWM` on Linux, else the process's maximum resident size.
    static func kilobytes() -> Int {
        if let value = status("VmHWM:") { return value }
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        #if canImport(Darwin)
        return usage.ru_maxrss / 1024
        #else
        return usage.ru_maxrss
        #endif
    }

    /// The resident size now in KiB (`VmRSS` on Linux; elsewhere the high-water mark so far).
    static func residentKilobytes() -> Int {
        status("VmRSS:") ?? kilobytes()
    }

    /// A figure in KiB from `/proc/self/status`, on Linux.
    private static func status(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
}

/// The table for people and the JSON lines for tools.
enum Report {
    static func printTableHeader() {
        print(pad("scenario", 32) + pad("ns/op", 12, right: true) + pad("baseline ns/op", 16, right: true)
            + pad("ratio", 9, right: true) + pad("peak RSS KiB", 14, right: true) + pad("growth KiB", 12, right: true))
        print(String(repeating: "-", count: 95))
    }

    static func printRow(_ measurement: Measurement) {
        print(pad(measurement.scenario, 32)
            + pad(format(measurement.nanosecondsPerOperation), 12, right: true)
            + pad(format(measurement.baselineNanosecondsPerOperation), 16, right: true)
            + pad(format(measurement.ratio), 9, right: true)
            + pad("\(measurement.peakResidentKilobytes)", 14, right: true)
            + pad("\(measurement.peakResidentKilobytes - measurement.startResidentKilobytes)", 12, right: true))
        if let spread = measurement.spread { printSpread(spread) }
    }

    /// The extra line of a scenario that times each operation on its own.
    private static func printSpread(_ spread: Spread) {
        func longest(_ nanoseconds: Double, unfinished: Bool) -> String {
            (unfinished ? ">= " : "") + format(nanoseconds)
        }
        func ending(_ completed: Int, _ reason: String?) -> String {
            reason.map { "stopped at \($0) after \(completed)/\(spread.requestedOperations)" }
                ?? "\(completed)/\(spread.requestedOperations)"
        }
        print("  (ns/op: the median) longest ns: " + longest(spread.longestNanoseconds, unfinished: spread.longestUnfinished)
            + " (baseline " + longest(spread.baselineLongestNanoseconds, unfinished: spread.baselineLongestUnfinished) + ")"
            + "; baseline peak RSS KiB: \(spread.baselinePeakResidentKilobytes)"
            + " (growth \(spread.baselinePeakResidentKilobytes - spread.baselineStartResidentKilobytes))"
            + "; peaks from \(spread.peakSource)")
        print("  operations: ours " + ending(spread.completedOperations, spread.stopReason)
            + " (\(spread.backgroundOperations) alongside)"
            + ", baseline " + ending(spread.baselineCompletedOperations, spread.baselineStopReason)
            + " (\(spread.baselineBackgroundOperations) alongside)")
    }

    static func printJSON(_ measurement: Measurement) {
        let object: [(String, String)] = [
            ("scenario", "\"\(measurement.scenario)\""),
            ("ns_per_op", number(measurement.nanosecondsPerOperation)),
            ("baseline_ns_per_op", number(measurement.baselineNanosecondsPerOperation)),
            ("ratio", number(measurement.ratio)),
            ("peak_rss_kb", "\(measurement.peakResidentKilobytes)"),
            ("start_rss_kb", "\(measurement.startResidentKilobytes)"),
            ("rss_growth_kb", "\(measurement.peakResidentKilobytes - measurement.startResidentKilobytes)"),
        ] + (measurement.spread.map(spreadFields) ?? [])
        print("{" + object.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    }

    private static func spreadFields(_ spread: Spread) -> [(String, String)] {
        func string(_ text: String?) -> String {
            text.map { "\"\($0)\"" } ?? "null"
        }
        return [
            ("longest_ns", number(spread.longestNanoseconds)),
            ("baseline_longest_ns", number(spread.baselineLongestNanoseconds)),
            ("longest_unfinished", "\(spread.longestUnfinished)"),
            ("baseline_longest_unfinished", "\(spread.baselineLongestUnfinished)"),
            ("baseline_peak_rss_kb", "\(spread.baselinePeakResidentKilobytes)"),
            ("baseline_start_rss_kb", "\(spread.baselineStartResidentKilobytes)"),
            ("baseline_rss_growth_kb", "\(spread.baselinePeakResidentKilobytes - spread.baselineStartResidentKilobytes)"),
            ("peak_rss_source", string(spread.peakSource)),
            ("requested_ops", "\(spread.requestedOperations)"),
            ("completed_ops", "\(spread.completedOperations)"),
            ("baseline_completed_ops", "\(spread.baselineCompletedOperations)"),
            ("background_ops", "\(spread.backgroundOperations)"),
            ("baseline_background_ops", "\(spread.baselineBackgroundOperations)"),
            ("stop_reason", string(spread.stopReason)),
            ("baseline_stop_reason", string(spread.baselineStopReason)),
        ]
    }

    /// Reads back the fields `spreadFields` wrote, if there are any.
    private static func parseSpread(_ object: [String: Any]) -> Spread? {
        func double(_ key: String) -> Double? { figure(object[key]) }
        func int(_ key: String) -> Int? { (object[key] as? NSNumber)?.intValue }
        func bool(_ key: String) -> Bool? { (object[key] as? NSNumber)?.boolValue }
        guard let longest = double("longest_ns"), let baselineLongest = double("baseline_longest_ns"),
              let unfinished = bool("longest_unfinished"), let baselineUnfinished = bool("baseline_longest_unfinished"),
              let baselinePeak = int("baseline_peak_rss_kb"), let baselineStart = int("baseline_start_rss_kb"),
              let source = object["peak_rss_source"] as? String, let requested = int("requested_ops"),
              let completed = int("completed_ops"), let baselineCompleted = int("baseline_completed_ops"),
              let background = int("background_ops"), let baselineBackground = int("baseline_background_ops") else { return nil }
        return Spread(
            longestNanoseconds: longest, baselineLongestNanoseconds: baselineLongest,
            baselinePeakResidentKilobytes: baselinePeak, baselineStartResidentKilobytes: baselineStart,
            peakSource: source, requestedOperations: requested, completedOperations: completed,
            baselineCompletedOperations: baselineCompleted,
            backgroundOperations: background, baselineBackgroundOperations: baselineBackground,
            stopReason: object["stop_reason"] as? String, baselineStopReason: object["baseline_stop_reason"] as? String,
            longestUnfinished: unfinished, baselineLongestUnfinished: baselineUnfinished
        )
    }

    /// Reads back a line `printJSON` wrote.
    static func parseJSON(_ line: String) -> Measurement? {
        guard let data = line.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let scenario = object["scenario"] as? String,
              let ours = figure(object["ns_per_op"]),
              let baseline = figure(object["baseline_ns_per_op"]),
              let peak = (object["peak_rss_kb"] as? NSNumber)?.intValue,
              let start = (object["start_rss_kb"] as? NSNumber)?.intValue else { return nil }
        return Measurement(
            scenario: scenario, nanosecondsPerOperation: ours, baselineNanosecondsPerOperation: baseline,
            peakResidentKilobytes: peak, startResidentKilobytes: start, spread: parseSpread(object)
        )
    }

    /// `format(value)` for JSON, where a figure that could not be measured (no operation finished:
    /// not a number) is `null`.
    private static func number(_ value: Double) -> String {
        value.isFinite ? format(value) : "null"
    }

    /// A figure `number` wrote: `null` is not a number.
    private static func figure(_ value: Any?) -> Double? {
        value is NSNull ? .nan : (value as? NSNumber)?.doubleValue
    }

    static func format(_ value: Double) -> String {
        String(format: value < 10 ? "%.3f" : "%.1f", value)
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        // A right-aligned figure too wide for its column still keeps a space before it.
        let padding = String(repeating: " ", count: max(right ? 1 : 0, width - text.count))
        return right ? padding + text : text + padding
    }
}

/// Runs one scenario in a child process of its own (this executable, with `--child NAME`), so that
/// its peak memory is its own and not the high-water mark of the scenarios before it.
func measureInChildProcess(_ scenario: Scenario, quick: Bool) -> Measurement {
    let process = Process()
    process.executableURL = currentExecutable()
    process.arguments = ["--child", scenario.name] + (quick ? ["--quick"] : [])
    let output = Pipe()
    process.standardOutput = output
    do {
        try process.run()
    } catch {
        fatalError("Benchmarks: cannot start a child process for \(scenario.name): \(error)")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0,
          let line = text.split(separator: "\n").last,
          let measurement = Report.parseJSON(String(line)) else {
        fatalError("Benchmarks: the child process for \(scenario.name) failed (status \(process.terminationStatus)): \(text)")
    }
    return measurement
}

/// This executable's path.
func currentExecutable() -> URL {
    #if os(Linux)
    return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    #else
    return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    #endif
}
