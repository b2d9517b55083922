import Foundation

/// The command line: `reminders-bench [--quick] [--json] [--sizes N,N,…]
/// [--only PHASE,…] [--work DIR] [--keep]`, plus the hidden child modes the
/// run starts itself in (`--follower`, `--sync-once`, `--serve`,
/// `--first-frame`, `--memory`).
struct BenchOptions {
    enum Phase: String, CaseIterable {
        case sync, queries, incremental, app, memory, icalendar
    }

    var quick = false
    var json = false
    var sizes: [Int] = [1_000, 10_000, 100_000]
    var phases = Set(Phase.allCases)
    var workFolder: URL?
    var keep = false

    static let usage = """
        usage: reminders-bench [--quick] [--json] [--sizes N,N,...] [--only PHASE,...] [--work DIR] [--keep]

        Measures initial and incremental sync, the screens' queries, the app's first
        frame and memory, and prints a Markdown table of medians, spreads and goals.

          --quick          tiny sizes, one or two runs each: a smoke test (about 15 s)
          --json           print the results as JSON instead of the table
          --sizes N,...    reminders per world (default 1000,10000,100000)
          --only P,...     phases to run: sync, queries, incremental, app, memory, icalendar
                           (incremental runs the initial sync it starts from)
          --work DIR       where the databases go (default: a new folder in $TMPDIR)
          --keep           leave the databases there afterwards
        """

    static func parse(_ arguments: [String]) throws -> BenchOptions {
        var options = BenchOptions()
        var sizesGiven = false
        var index = 0
        func value(_ name: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw BenchError("\(name) needs a value\n\(usage)") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--quick": options.quick = true
            case "--json": options.json = true
            case "--keep": options.keep = true
            case "--work": options.workFolder = URL(fileURLWithPath: try value(argument))
            case "--sizes":
                let text = try value(argument)
                let sizes = text.split(separator: ",").compactMap { Int($0.replacingOccurrences(of: "_", with: "")) }
                guard !sizes.isEmpty, sizes.count == text.split(separator: ",").count, sizes.allSatisfy({ $0 >= 50 }) else {
                    throw BenchError("--sizes takes numbers of reminders of at least 50, e.g. 1000,10000")
                }
                options.sizes = sizes.sorted()
                sizesGiven = true
            case "--only":
                var phases = Set<Phase>()
                for name in try value(argument).split(separator: ",") {
                    guard let phase = Phase(rawValue: String(name)) else {
                        throw BenchError("unknown phase '\(name)'; phases are \(Phase.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    phases.insert(phase)
                }
                options.phases = phases
            case "--help", "-h":
                print(usage)
                exit(0)
            default:
                throw BenchError("unknown argument '\(argument)'\n\(usage)")
            }
            index += 1
        }
        if options.quick, !sizesGiven { options.sizes = [300] }
        return options
    }

    /// Initial-sync runs per size: fewer where one run takes long.
    func syncRuns(_ size: Int) -> Int {
        quick ? 1 : size >= 100_000 ? 1 : size >= 10_000 ? 3 : 5
    }

    /// Seconds one initial-sync run may take before it is stopped and
    /// reported as "more than": keeps a full run within about ten minutes.
    func syncBudget(_ size: Int) -> TimeInterval {
        quick ? 60 : size >= 100_000 ? 180 : 120
    }

    func queryRuns(_ size: Int) -> Int {
        quick ? 3 : size >= 100_000 ? 20 : 40
    }

    var edits: [IncrementalSyncBench.Mode: Int] {
        quick ? [.watch: 5, .poll: 2, .http: 5] : [.watch: 50, .poll: 50, .http: 50]
    }

    var appRuns: Int { quick ? 1 : 7 }

    /// The size the incremental sync and the app are measured at: 10,000,
    /// or the nearest below it.
    var focusSize: Int {
        sizes.last { $0 <= 10_000 } ?? sizes[0]
    }
}

/// Splits `--name value` pairs (and bare flags) for the hidden modes.
func keyedOptions(_ arguments: [String]) -> [String: String] {
    var options: [String: String] = [:]
    var index = 0
    while index < arguments.count {
        let key = arguments[index]
        if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") {
            options[key] = arguments[index + 1]
            index += 2
        } else {
            options[key] = ""
            index += 1
        }
    }
    return options
}
