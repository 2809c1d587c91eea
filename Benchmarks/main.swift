// The Benchmarks executable: each scenario, in a child process of its own, beside a hand-written
// baseline doing the same work, in the same run. `Benchmarks --help` gives the options;
// Benchmarks/README.md says what each scenario and its baseline do and how to read the figures.

import Foundation

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
if options.help {
    print(usage)
    exit(0)
}

let scenarios = disposableScenarios() + schedulerScenarios() + signalScenarios()
    + pipeScenarios() + hopScenarios() + subjectScenarios() + reentrantScenarios()
    + listScenarios() + commandScenarios() + asyncScenarios() + propertyScenarios()
    + observationScenarios()
let names = scenarios.map(\.name)

if let child = options.child {
    guard let scenario = scenarios.first(where: { $0.name == child }) else {
        usageError("no scenario is named \(child)", scenarioNames: names)
    }
    let quick = options.quick
    if let side = options.side {
        guard isCountable(scenario) else { usageError("\(child) times each operation itself; --side does not apply") }
        runOneSideAndExit(scenario, side: side, count: options.count ?? countedOperations(scenario, quick: true))
    }
    Report.printJSON(
        scenario.measureItself?(quick)
            ?? measure(scenario, rounds: quick ? 1 : 9, scale: quick ? 0.01 : 1)
    )
    exit(0)
}

// A name that selects nothing is a mistake (a typo would otherwise silently run less).
for filter in options.filters where !names.contains(where: { $0.contains(filter) }) {
    usageError("no scenario's name contains \(filter)", scenarioNames: names)
}
let selected = scenarios.filter { scenario in
    options.filters.isEmpty || options.filters.contains { scenario.name.contains($0) }
}

if options.list {
    for scenario in selected { print(scenario.name) }
    exit(0)
}

if options.instructions { runCounts(selected, options: options) }

if !options.json { Report.printTableHeader() }
for scenario in selected {
    let measurement = measureInChildProcess(scenario, quick: options.quick)
    if options.json { Report.printJSON(measurement) } else { Report.printRow(measurement) }
}
