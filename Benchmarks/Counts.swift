import Foundation

// `Benchmarks --instructions`: instructions and atomic operations per operation, counted by
// valgrind's callgrind, which repeat from run to run and from machine to machine where times do
// not. Each side of a scenario runs alone in a child process under callgrind (`--child NAME
// --side S --count N`), twice, on N and 2N operations: the costs are zeroed when the work starts
// (so preparing it, and the process's start-up, do not count), the process ends as soon as the
// work is done (so tearing down does not count), and the difference of the two runs, divided by
// N, leaves what one operation costs, whatever is done once per run.

/// What one side of a scenario costs per operation.
struct Counts {
    /// Instructions run (callgrind's `Ir`).
    var instructions: Double
    /// Atomic read-modify-writes (callgrind's `Ge`, global bus events: lock-prefixed instructions,
    /// each of which counts as one instruction and costs tens of cycles).
    var atomics: Double
}

/// Both sides of one scenario, counted.
struct CountMeasurement {
    var scenario: String
    var ours: Counts
    /// `nil` when only our side was counted (`--guards`).
    var baseline: Counts?
}

/// The work of one side, run where callgrind zeroes its costs (it is told to on entering the
/// function of this name, `--zero-before`, whichever specialized copy the optimizer makes).
@_silgen_name("benchmarks_counted_work")
@inline(never)
func countedWork(_ work: () -> Void) {
    work()
}

/// What `--child NAME --side S --count N` does: prepares and runs one side once, then ends the
/// process at once, before anything the work made is freed.
func runOneSideAndExit(_ scenario: Scenario, side: Options.Side, count: Int) -> Never {
    let work = side == .ours ? scenario.prepareOurs(count) : scenario.prepareBaseline(count)
    countedWork(work)
    exit(0)
}

/// The operations the smaller of the two counted runs does: a hundredth of the scenario's full
/// size with `--quick` (as `--quick` times it), a tenth without.
func countedOperations(_ scenario: Scenario, quick: Bool) -> Int {
    max(1, scenario.operations / (quick ? 100 : 10))
}

/// Counts our side of `scenario`, and the baseline's unless `oursOnly`, under callgrind, at
/// `operations` and twice as many.
func countInChildProcesses(_ scenario: Scenario, operations: Int, oursOnly: Bool) -> CountMeasurement {
    func perOperation(_ side: Options.Side) -> Counts {
        let small = callgrindTotals(scenario, side: side, count: operations)
        let large = callgrindTotals(scenario, side: side, count: 2 * operations)
        return Counts(
            instructions: Double(large.instructions - small.instructions) / Double(operations),
            atomics: Double(large.atomics - small.atomics) / Double(operations)
        )
    }
    return CountMeasurement(scenario: scenario.name, ours: perOperation(.ours), baseline: oursOnly ? nil : perOperation(.baseline))
}

/// Whether a scenario can be counted: one that times each operation itself cannot be split into
/// sides.
func isCountable(_ scenario: Scenario) -> Bool {
    scenario.measureItself == nil
}

/// Ends the process with a message when valgrind cannot be run.
func requireValgrind() {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["valgrind", "--version"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let found = (try? process.run()).map { process.waitUntilExit(); return process.terminationStatus == 0 } ?? false
    if !found {
        FileHandle.standardError.write(Data("""
            Benchmarks: --instructions runs valgrind, which is not on the PATH. Install it with the \
            system's package manager (Debian and Ubuntu: apt-get install valgrind).\n
            """.utf8))
        exit(1)
    }
}

/// The whole counts of one callgrind run of one side: what ran from the start of the work to
/// the end of the process.
private func callgrindTotals(_ scenario: Scenario, side: Options.Side, count: Int) -> (instructions: Int, atomics: Int) {
    let output = FileManager.default.temporaryDirectory
        .appendingPathComponent("benchmarks-callgrind-\(ProcessInfo.processInfo.processIdentifier)-\(scenario.name)-\(side)-\(count).out")
    defer { try? FileManager.default.removeItem(at: output) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "valgrind", "--tool=callgrind", "--collect-bus=yes",
        "--zero-before=*benchmarks_counted_work*",
        "--callgrind-out-file=\(output.path)",
        currentExecutable().path, "--child", scenario.name, "--side", side.rawValue, "--count", "\(count)",
    ]
    // Hashing seeded the same in every run, so that a dictionary's probes repeat.
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    do {
        try process.run()
    } catch {
        fatalError("Benchmarks: cannot start valgrind for \(scenario.name): \(error)")
    }
    let log = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
          let text = try? String(contentsOf: output, encoding: .utf8),
          let totals = parseTotals(text) else {
        fatalError("""
            Benchmarks: callgrind's run of \(scenario.name) (\(side), \(count) operations) failed \
            (status \(process.terminationStatus)): \(String(decoding: log.suffix(2_000), as: UTF8.self))
            """)
    }
    return totals
}

/// The `summary:` line of a callgrind output file made with `--collect-bus=yes`, whose events
/// are `Ir Ge`.
private func parseTotals(_ text: String) -> (instructions: Int, atomics: Int)? {
    var events: [Substring] = []
    for line in text.split(separator: "\n") {
        if line.hasPrefix("events:") { events = line.dropFirst("events:".count).split(separator: " ") }
        guard line.hasPrefix("summary:") || line.hasPrefix("totals:") else { continue }
        let figures = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        guard let ir = events.firstIndex(of: "Ir"), let ge = events.firstIndex(of: "Ge"),
              figures.count == events.count else { return nil }
        return (figures[ir], figures[ge])
    }
    return nil
}

/// A scenario's count guard: at most so many instructions and atomic operations per operation.
struct CountGuard {
    var instructions: Double
    var atomics: Double
}

/// Reads the count guards from the table in `path` whose header starts
/// `| scenario | instructions/op guard | atomics/op guard |` (Benchmarks/README.md): one row per
/// scenario, its name in code voice.
func readCountGuards(_ path: String) -> [String: CountGuard] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        usageError("--guards: cannot read \(path)")
    }
    var guards: [String: CountGuard] = [:]
    var inTable = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if !inTable {
            inTable = cells.count > 3 && cells[1] == "scenario" && cells[2] == "instructions/op guard"
                && cells[3] == "atomics/op guard"
            continue
        }
        guard line.hasPrefix("|") else { break }
        if cells[1].hasPrefix("---") { continue }
        let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        guard cells.count > 3,
              let instructions = Double(cells[2].replacingOccurrences(of: ",", with: "")),
              let atomics = Double(cells[3]) else {
            usageError("--guards: \(path) has a count-guard row that is not `name` | instructions | atomics: \(line)")
        }
        guards[name] = CountGuard(instructions: instructions, atomics: atomics)
    }
    if guards.isEmpty { usageError("--guards: \(path) has no count-guard table") }
    return guards
}

extension Report {
    static func printCountHeader(withGuards: Bool) {
        print(pad("scenario", 32) + pad("Ir/op", 10, right: true) + pad("Ge/op", 8, right: true)
            + pad("baseline Ir/op", 16, right: true) + pad("baseline Ge/op", 16, right: true)
            + (withGuards ? pad("guard Ir", 10, right: true) + pad("guard Ge", 10, right: true) : ""))
        print(String(repeating: "-", count: withGuards ? 102 : 82))
    }

    static func printCountRow(_ measurement: CountMeasurement, guard countGuard: CountGuard?, crossed: Bool) {
        print(pad(measurement.scenario, 32)
            + pad(format(measurement.ours.instructions), 10, right: true)
            + pad(format(measurement.ours.atomics), 8, right: true)
            + pad(measurement.baseline.map { format($0.instructions) } ?? "-", 16, right: true)
            + pad(measurement.baseline.map { format($0.atomics) } ?? "-", 16, right: true)
            + (countGuard.map { pad(format($0.instructions), 10, right: true) + pad(format($0.atomics), 10, right: true) } ?? "")
            + (crossed ? "  CROSSED" : ""))
    }

    static func printCountJSON(_ measurement: CountMeasurement, guard countGuard: CountGuard?, crossed: Bool) {
        var fields: [(String, String)] = [
            ("scenario", "\"\(measurement.scenario)\""),
            ("instructions_per_op", format(measurement.ours.instructions)),
            ("atomics_per_op", format(measurement.ours.atomics)),
            ("baseline_instructions_per_op", measurement.baseline.map { format($0.instructions) } ?? "null"),
            ("baseline_atomics_per_op", measurement.baseline.map { format($0.atomics) } ?? "null"),
        ]
        if let countGuard {
            fields += [
                ("guard_instructions_per_op", format(countGuard.instructions)),
                ("guard_atomics_per_op", format(countGuard.atomics)),
                ("crossed", "\(crossed)"),
            ]
        }
        print("{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    }
}

/// `--instructions`: counts each selected scenario, prints the table or JSON lines, and with
/// `--guards` ends with status 1 when a count crosses its guard, or a counted scenario has none. With `--guards` only our side is
/// counted: the baseline's counts do not bear on a guard, and skipping them halves CI's step.
func runCounts(_ selected: [Scenario], options: Options) -> Never {
    requireValgrind()
    let guards = options.guardsFile.map(readCountGuards)
    if !options.json { Report.printCountHeader(withGuards: guards != nil) }
    var crossings: [String] = []
    var unguarded: [String] = []
    for scenario in selected {
        guard isCountable(scenario) else {
            if !options.json { print(Report.pad(scenario.name, 32) + "  not counted: it times each operation itself") }
            continue
        }
        let measurement = countInChildProcesses(
            scenario, operations: countedOperations(scenario, quick: options.quick), oursOnly: guards != nil
        )
        let countGuard = guards?[scenario.name]
        let crossed = countGuard.map {
            measurement.ours.instructions > $0.instructions || measurement.ours.atomics > $0.atomics
        } ?? false
        if crossed { crossings.append(scenario.name) }
        if guards != nil, countGuard == nil { unguarded.append(scenario.name) }
        if options.json {
            Report.printCountJSON(measurement, guard: countGuard, crossed: crossed)
        } else {
            Report.printCountRow(measurement, guard: countGuard, crossed: crossed)
        }
        fflush(nil)
    }
    if !unguarded.isEmpty {
        // A new scenario gets its guard with it: its row in the table, from today's counts.
        FileHandle.standardError.write(Data("Benchmarks: no count guard in \(options.guardsFile ?? ""): \(unguarded.joined(separator: ", "))\n".utf8))
    }
    if !crossings.isEmpty {
        FileHandle.standardError.write(Data("Benchmarks: over their count guards: \(crossings.joined(separator: ", "))\n".utf8))
    }
    if !crossings.isEmpty || !unguarded.isEmpty { exit(1) }
    exit(0)
}
