import Foundation

/// What the command line asks for.
struct Options {
    /// `--json`: one JSON object per scenario and line instead of the table.
    var json = false
    /// `--quick`: each scenario once, at about a hundredth of its size.
    var quick = false
    /// `--list`: print the selected scenarios' names and run nothing.
    var list = false
    /// `--help` or `-h`: print the usage and run nothing.
    var help = false
    /// `--child NAME`: measure the scenario named exactly NAME in this process, print one JSON
    /// line. The parent passes it to each child process it starts.
    var child: String?
    /// `--instructions`: count each scenario's instructions and atomic operations per operation
    /// under callgrind instead of timing it (Counts.swift).
    var instructions = false
    /// `--guards FILE`: with `--instructions`, check the counts against the count guards that
    /// FILE's table states (Benchmarks/README.md), and exit 1 when any is crossed.
    var guardsFile: String?
    /// `--side ours|baseline`, with `--child`: run that side alone, once, on `--count` items,
    /// and end the process as soon as it is done: what `--instructions` runs under callgrind.
    var side: Side?
    /// `--count N`, with `--side`: how many operations.
    var count: Int?
    /// The other arguments: run only the scenarios whose name contains one of them.
    var filters: [String] = []

    enum Side: String {
        case ours, baseline
    }

    /// Reads the arguments (without the executable's path); ends the process with status 2 and the
    /// usage on stderr if they are not a command line this executable runs.
    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var remaining = arguments.makeIterator()
        while let argument = remaining.next() {
            switch argument {
            case "--json": options.json = true
            case "--quick": options.quick = true
            case "--list": options.list = true
            case "--help", "-h": options.help = true
            case "--child":
                guard options.child == nil else { usageError("--child is given twice") }
                guard let name = remaining.next(), !name.hasPrefix("-") else {
                    usageError("--child needs the name of a scenario")
                }
                options.child = name
            case "--instructions": options.instructions = true
            case "--guards":
                guard let path = remaining.next(), !path.hasPrefix("-") else {
                    usageError("--guards needs the path of a file with a count-guard table")
                }
                options.guardsFile = path
            case "--side":
                guard let text = remaining.next(), let side = Side(rawValue: text) else {
                    usageError("--side needs ours or baseline")
                }
                options.side = side
            case "--count":
                guard let text = remaining.next(), let count = Int(text), count > 0 else {
                    usageError("--count needs a positive whole number")
                }
                options.count = count
            default:
                if argument.hasPrefix("-") { usageError("unknown option \(argument)") }
                options.filters.append(argument)
            }
        }
        if let child = options.child, !options.help {
            if !options.filters.isEmpty {
                let extra = options.filters.joined(separator: " ")
                usageError("--child \(child) runs that one scenario; remove \(extra)")
            }
            if options.list { usageError("--child and --list do not go together") }
            if options.instructions { usageError("--child and --instructions do not go together") }
        }
        if options.child == nil, options.side != nil || options.count != nil {
            usageError("--side and --count go with --child")
        }
        if options.count != nil, options.side == nil { usageError("--count goes with --side") }
        if options.guardsFile != nil, !options.instructions { usageError("--guards goes with --instructions") }
        return options
    }
}

/// What `--help` prints, and every command-line error after its message.
let usage = """
    Usage: Benchmarks [--quick] [--json] [NAME...]
           Benchmarks --instructions [--quick] [--json] [--guards FILE] [NAME...]
           Benchmarks --list [NAME...]
           Benchmarks --child NAME [--quick | --side ours|baseline [--count N]]
           Benchmarks --help

    Runs each benchmark scenario in a child process of its own: the library's version and a
    hand-written baseline doing the same work, in the same run. Prints the library's ns/op, the
    baseline's, their ratio (lower is better; the ratio, not the ns, compares across machines)
    and the peak resident memory. Build with -c release for figures worth comparing.

      NAME          run only the scenarios whose name contains NAME; with several, those that
                    contain any of them
      --quick       each scenario once, at about a hundredth of its size: proves they run
      --json        one JSON object per scenario and line instead of the table
      --list        print the scenario names (those NAME selects), one per line, and exit
      --instructions
                    count instead of timing: run each side of each scenario under valgrind's
                    callgrind at two sizes and print the instructions (Ir) and atomic
                    operations (Ge, lock-prefixed instructions) per operation, which repeat
                    from run to run and machine to machine; needs valgrind on the PATH
      --guards FILE with --instructions: check our counts against the count guards in FILE's
                    table (Benchmarks/README.md) and exit 1 when any is crossed; counts our
                    side only
      --child NAME  measure the scenario named exactly NAME in this process and print one JSON
                    line: what the parent runs in each child process
      --side SIDE   with --child: run only our side or the baseline, once, on --count N
                    operations (default: the size --quick uses), and exit at once: what
                    --instructions runs under callgrind
      -h, --help    print this text and exit

    Settings (environment): BENCHMARKS_FLOOD_CYCLES, BENCHMARKS_FLOOD_TIME_LIMIT,
    BENCHMARKS_FLOOD_MEMORY_CAP_MB and BENCHMARKS_FLOOD_UNPINNED for subject.flood-dispose;
    BENCHMARKS_QUEUE_LENGTH for list.queue.

    Benchmarks/README.md says what each scenario and its baseline do, and how to read a ratio.
    """

/// Prints `message` and the usage to stderr, then the scenario names if given, and ends the
/// process with status 2: the command line was wrong, nothing ran.
func usageError(_ message: String, scenarioNames: [String]? = nil) -> Never {
    var text = "Benchmarks: \(message)\n\n\(usage)\n"
    if let scenarioNames {
        text += "\nScenarios:\n" + scenarioNames.map { "  \($0)\n" }.joined()
    }
    FileHandle.standardError.write(Data(text.utf8))
    exit(2)
}

/// The positive whole number in the environment variable `name`, or `nil` when it is not set; a
/// value that is set but is not a positive whole number is a usage error.
func environmentCount(_ name: String) -> Int? {
    guard let text = ProcessInfo.processInfo.environment[name] else { return nil }
    guard let value = Int(text), value > 0 else {
        usageError("\(name) needs a positive whole number, got \"\(text)\"")
    }
    return value
}
