// The Benchmarks executable: each scenario beside its hand-written baseline, in one run.
//
//   swift run -c release Benchmarks            a table: scenario, ns/op, baseline ns/op, ratio, peak RSS
//   swift run -c release Benchmarks --json     one JSON object per scenario and line
//   swift run Benchmarks --quick               every scenario once, small, to prove they run (CI)
//   swift run -c release Benchmarks compound   only the scenarios whose name contains "compound"
//
// BENCHMARKS.md defines each baseline and the target ratios.

import Foundation

let arguments = CommandLine.arguments.dropFirst()
let json = arguments.contains("--json")
let quick = arguments.contains("--quick")
let filters = arguments.filter { !$0.hasPrefix("--") }

let scenarios = disposableScenarios() + schedulerScenarios() + signalScenarios() + pipeScenarios()
let selected = scenarios.filter { scenario in
    filters.isEmpty || filters.contains { scenario.name.contains($0) }
}
if selected.isEmpty {
    print("No scenario matches \(filters.joined(separator: ", ")); there are: \(scenarios.map(\.name).joined(separator: ", "))")
    exit(1)
}

if !json { Report.printTableHeader() }
for scenario in selected {
    let measurement = measure(scenario, rounds: quick ? 1 : 9, scale: quick ? 0.01 : 1)
    if json { Report.printJSON(measurement) } else { Report.printRow(measurement) }
}
