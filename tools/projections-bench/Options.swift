/// The command line of `pawtrail-projections-bench`.
struct Options {
    enum Mode {
        /// Generate (or reuse) the workload, run both sides, compare, report.
        case run
        /// Only generate the workload.
        case generate
        /// Time ours stage by stage.
        case stages
        /// Check the workload against the domain's rules.
        case verify
        /// Time travel to random positions.
        case timetravel
        /// One side, in this process (the parent runs each side so): prints its result as JSON.
        case side(String)
        case help
    }

    var mode = Mode.run
    var seed: UInt64 = 42
    var events = 2_000_000
    var days = 365
    var directory = "./.scratch/projections-bench"
    var runs = 3
    var peerRuns = 1
    var types = TypeSelection.projections
    /// Which rebuilder is "ours" (see `oursRebuilders`).
    var ours = "engine"
    var json = false
    var regenerate = false
    /// `--side`: where to read and where to put the states.
    var store: String?
    var sqlite: String?
    var states: String?

    static let usage = """
        usage: pawtrail-projections-bench [--events N | --scale X] [--seed S] [--days D] [--dir DIR] [--runs N]
                                          [--peer-runs N] [--types projections|all] [--ours engine|direct]
                                          [--regenerate] [--json]
               pawtrail-projections-bench generate [--events N | --scale X] [--seed S] [--days D] [--dir DIR] [--regenerate]
               pawtrail-projections-bench stages [--events N | --scale X] [--seed S] [--days D] [--dir DIR] [--types T]
               pawtrail-projections-bench verify [--events N | --scale X] [--seed S] [--days D] [--dir DIR]
               pawtrail-projections-bench timetravel [--events N | --scale X] [--seed S] [--days D] [--dir DIR]

        Rebuilds every projection of the catalog from a seeded pet-care workload twice, side by side: ours from the
        file store (binary events), and a peer that keeps the same events as JSON in an SQLite table and decodes
        them with Foundation's JSONDecoder. Each side runs in its own child process, so its peak memory is its own.
        Both must end with byte-equal states for every projection, or the run fails (exit 1).
          --events N       workload size (default 2000000; the last command may overshoot by a few events)
          --scale X        multiply the default size (0.1 = 200,000 events, a quick run)
          --seed S         workload seed (default 42)
          --days D         simulated days the events spread over (default 365)
          --dir DIR        scratch directory (default ./.scratch/projections-bench); the workload is kept there
                           and reused by later runs with the same seed and size
          --runs N         rebuilds of ours, median reported (default 3)
          --peer-runs N    rebuilds of the peer (default 1; it is the slow one)
          --types T        projections: decode only the types some projection lists (a real rebuild, default);
                           all: decode every event type on both sides (the decode path at full load)
          --ours R         engine: ProjectionEngine.rebuild, as `projections rebuild --all` runs it (default);
                           direct: read pages, decode, apply on one thread, without writing states
          --regenerate     generate the workload even if a matching one exists
          --json           JSON on stdout, the table on stderr
        generate only writes the workload; stages times ours stage by stage in one process (read, decode, apply),
        for profiling; verify checks every event of the workload against the domain's rules (with the domain's
        stream states and checks) and exits 1 at the first violation.
        """

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var o = Options()
        var rest = arguments[...]
        if rest.first == "generate" {
            o.mode = .generate
            rest = rest.dropFirst()
        } else if rest.first == "stages" {
            o.mode = .stages
            rest = rest.dropFirst()
        } else if rest.first == "timetravel" {
            o.mode = .timetravel
            rest = rest.dropFirst()
        } else if rest.first == "verify" {
            o.mode = .verify
            rest = rest.dropFirst()
        }
        func value(_ name: String) throws(UsageError) -> String {
            guard let v = rest.popFirst() else { throw UsageError("\(name) needs a value") }
            return v
        }
        func positive(_ name: String, _ limit: Int = Int.max) throws(UsageError) -> Int {
            let v = try value(name)
            guard let n = Int(v), n > 0, n <= limit else { throw UsageError("\(name) takes an integer from 1 to \(limit), not '\(v)'") }
            return n
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help": o.mode = .help
            case "--events": o.events = try positive(argument, 50_000_000)
            case "--scale":
                let v = try value(argument)
                guard let x = Double(v), x > 0, x <= 25 else { throw UsageError("--scale takes a number in (0, 25], not '\(v)'") }
                o.events = max(1_000, Int(2_000_000 * x))
            case "--seed":
                let v = try value(argument)
                guard let n = UInt64(v) else { throw UsageError("--seed takes an unsigned integer, not '\(v)'") }
                o.seed = n
            case "--days": o.days = try positive(argument, 10_000)
            case "--dir": o.directory = try value(argument)
            case "--runs": o.runs = try positive(argument, 9)
            case "--peer-runs": o.peerRuns = try positive(argument, 9)
            case "--types":
                let v = try value(argument)
                guard let t = TypeSelection(rawValue: v) else { throw UsageError("--types takes projections or all, not '\(v)'") }
                o.types = t
            case "--ours": o.ours = try value(argument)
            case "--json": o.json = true
            case "--regenerate": o.regenerate = true
            case "--side":
                let v = try value(argument)
                guard v == "ours" || v == "peer" else { throw UsageError("--side takes ours or peer, not '\(v)'") }
                o.mode = .side(v)
            case "--store": o.store = try value(argument)
            case "--sqlite": o.sqlite = try value(argument)
            case "--states": o.states = try value(argument)
            default: throw UsageError("unknown argument '\(argument)'")
            }
        }
        return o
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
