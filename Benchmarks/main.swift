// The Benchmarks executable: each scenario beside its hand-written baseline, in one run.
//
//   swift run -c release Benchmarks            a table: scenario, ns/op, baseline ns/op, ratio, peak RSS
//   swift run -c release Benchmarks --json     one JSON object per scenario and line
//   swift run Benchmarks --quick               every scenario once, small, to prove they run (CI)
//   swift run -c release Benchmarks compound   only the scenarios whose name contains "compound"
//
// reentrant.send-10k and reentrant.send-100k run the same burst of reentrant sends at two sizes:
// equal ns/op shows its cost linear in the burst.
//
// subject.flood-dispose times each dispose on its own: its ns/op is the median, and a second line
// gives the longest and the baseline's peak RSS. BENCHMARKS_FLOOD_CYCLES=40000 floods four times as
// long (its comment in Scenarios/SubjectScenarios.swift lists the other settings).
//
// Each scenario runs in a child process of its own (`--child NAME`), so that its peak resident
// memory is its own; the table also gives the peak's growth over the child's starting size.
//
// BENCHMARKS.md defines each baseline and the target ratios.

import Foundation

let arguments = CommandLine.arguments.dropFirst()
let json = arguments.contains("--json")
let quick = arguments.contains("--quick")
let child = arguments.firstIndex(of: "--child").map { arguments[arguments.index(after: $0)] }
let filters = arguments.filter { !$0.hasPrefix("--") && $0 != child }

let scenarios = disposableScenarios() + schedulerScenarios() + signalScenarios() + pipeScenarios() + hopScenarios() + subjectScenarios() + reentrantScenarios() + listScenarios() + commandScenarios() + asyncScenarios()
let selected = scenarios.filter { scenario in
    filters.isEmpty || filters.contains { scenario.name.contains($0) }
}
if selected.isEmpty {
    print("No scenario matches \(filters.joined(separator: ", ")); there are: \(scenarios.map(\.name).joined(separator: ", "))")
    exit(1)
}

if let child {
    guard let scenario = scenarios.first(where: { $0.name == child }) else {
        print("No scenario is named \(child)")
        exit(1)
    }
    Report.printJSON(scenario.measureItself?(quick) ?? measure(scenario, rounds: quick ? 1 : 9, scale: quick ? 0.01 : 1))
    exit(0)
}

if !json { Report.printTableHeader() }
for scenario in selected {
    let measurement = measureInChildProcess(scenario, quick: quick)
    if json { Report.printJSON(measurement) } else { Report.printRow(measurement) }
}
