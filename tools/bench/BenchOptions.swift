/// The command line of `pawtrail-bench`.
struct BenchOptions {
    /// What to do.
    enum Mode {
        /// Run the benchmark.
        case run
        /// Write the workload as JSON Lines to standard output.
        case generate
        /// Measure append cost against the number of sealed segments.
        case segments
        /// Measure compacted blocks laid out by columns against blocks of rows.
        case layout
        /// Print usage.
        case help
    }

    var mode = Mode.run
    /// The workload seed.
    var seed: UInt64 = 42
    /// Multiplies every scenario's event count (0.1 for a smoke run).
    var scale = 1.0
    /// The scratch directory; each scenario gets fresh subdirectories there.
    var directory = "./.scratch/bench"
    /// Print the results as JSON on standard output (and the markdown on standard error).
    var json = false
    /// Also run the optional 8-thread SQLite writer scenario.
    var sqliteThreads = true
    /// The Zipf exponent of stream popularity (0: uniform).
    var skew = Workload.defaultSkew
    /// Runs per scenario; the median is reported (with the range).
    var runs = 3
    /// Run only these scenarios (`nil`: all); for profiling one at a time.
    var only: Set<String>?
    /// Keep the scratch files after the run.
    var keep = false
    /// `generate`: how many events.
    var events = 10_000
    /// `generate`: events per commit (they share a correlation id).
    var perCommit = 1
    /// `generate`: write each stream's exact expected version on its first line of each commit.
    var expectedVersions = false
    /// `layout`: the zstd level of the blocks (compaction's is `FileEventStoreOptions.blockCompressionLevel`).
    var level: Int32 = 6
    /// `layout`: bytes of rows a block holds at least (compaction's is `FileEventStoreOptions.blockSize`).
    var blockSize = 1 << 20
    /// `segments`: the sealed-segment counts to measure.
    var segmentCounts = [0, 10, 100, 300, 1000]
    /// `segments`: events per sealed segment.
    var eventsPerSegment = 1000
    /// `segments`: appends timed per store.
    var segmentAppends = 500
    /// `segments`: events per timed append.
    var segmentBatch = 100

    static let usage = """
        usage: pawtrail-bench [--seed S] [--skew E] [--scale X] [--runs N] [--dir DIR] [--json] [--no-sqlite-threads] [--keep]
                             [--only append-1,append-100,append-1000,writers-8,read-all,size]
               pawtrail-bench generate --events N [--seed S] [--skew E] [--per-commit K] [--expected-versions] > workload.jsonl
               pawtrail-bench segments [--counts 0,10,100,300,1000] [--per-segment N] [--appends N] [--batch K] [--dir DIR] [--keep]
               pawtrail-bench layout [--events N] [--per-commit K] [--seed S] [--skew E] [--level L] [--block-size BYTES]

        Runs the Pawtrail file store and an SQLite event table side by side on the same seeded pet-care
        workload and prints a markdown table (with --json: JSON on stdout, the table on stderr).
          --seed S            workload seed (default 42)
          --skew E            Zipf exponent of stream popularity inside a category (default 0.9; 0: uniform)
          --scale X           multiply the event counts (default 1; 0.1 for a quick smoke run)
          --runs N            run each scenario N times, report the median (min..max) (default 3)
          --dir DIR           scratch directory, on the disk to measure (default ./.scratch/bench; not /tmp)
          --no-sqlite-threads skip the optional 8-thread SQLite writers
          --keep              keep the stores after the run
          --only LIST         run only these scenarios (read-all and size also run append-1000)
        generate writes the workload as JSON Lines in the `pawtrail log append --batch` shape. Each K lines
        (--per-commit) are one commit; with --expected-versions, each stream's first line in a commit carries
        its exact expected version, so `split -l K` files appended in order with --batch all succeed.
        segments times appends of K events (default 100) to stores of more and more sealed segments (each new id
        is looked up in every sealed segment's id index), and prints a markdown table.
        layout lays the workload (default 100,000 events in commits of 1,000) out in 1 MiB blocks (--block-size), as
        compaction does, by rows and by columns, and prints their compressed sizes (zstd level 6: --level), where
        the columns' bytes go, and the CPU of each step an event (one core, best of 5).
        """

    /// Parses arguments (without the program name).
    ///
    /// - Throws: A message for an unknown or malformed argument.
    static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
        var options = BenchOptions()
        var rest = arguments[...]
        if rest.first == "generate" {
            options.mode = .generate
            rest = rest.dropFirst()
        } else if rest.first == "segments" {
            options.mode = .segments
            rest = rest.dropFirst()
        } else if rest.first == "layout" {
            options.mode = .layout
            options.events = 100_000
            options.perCommit = 1000
            rest = rest.dropFirst()
        } else if rest.first == "run" {
            rest = rest.dropFirst()
        }
        func value(_ name: String) throws(UsageError) -> String {
            guard let v = rest.popFirst() else { throw UsageError("\(name) needs a value") }
            return v
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help": options.mode = .help
            case "--seed":
                let v = try value(argument)
                guard let n = UInt64(v) else { throw UsageError("--seed takes an unsigned integer, not '\(v)'") }
                options.seed = n
            case "--scale":
                let v = try value(argument)
                guard let x = Double(v), x > 0, x <= 100 else { throw UsageError("--scale takes a number in (0, 100], not '\(v)'") }
                options.scale = x
            case "--skew":
                let v = try value(argument)
                guard let x = Double(v), x >= 0, x <= 3 else { throw UsageError("--skew takes a number in [0, 3], not '\(v)'") }
                options.skew = x
            case "--dir": options.directory = try value(argument)
            case "--json": options.json = true
            case "--no-sqlite-threads": options.sqliteThreads = false
            case "--keep": options.keep = true
            case "--expected-versions": options.expectedVersions = true
            case "--runs":
                let v = try value(argument)
                guard let n = Int(v), (1...9).contains(n) else { throw UsageError("--runs takes 1...9, not '\(v)'") }
                options.runs = n
            case "--only":
                let keys = Set(try value(argument).split(separator: ",").map(String.init))
                let known: Set = ["append-1", "append-100", "append-1000", "writers-8", "read-all", "size"]
                guard keys.isSubset(of: known) else {
                    throw UsageError("--only takes a comma-separated list of \(known.sorted().joined(separator: ", "))")
                }
                options.only = keys
            case "--events":
                let v = try value(argument)
                guard let n = Int(v), n > 0 else { throw UsageError("--events takes a positive integer, not '\(v)'") }
                options.events = n
            case "--per-commit":
                let v = try value(argument)
                guard let n = Int(v), n > 0, n <= 10_000 else { throw UsageError("--per-commit takes 1...10000, not '\(v)'") }
                options.perCommit = n
            case "--counts":
                let v = try value(argument)
                let counts = v.split(separator: ",").compactMap { Int($0) }
                guard !counts.isEmpty, counts.count == v.split(separator: ",").count, counts.allSatisfy({ (0...100_000).contains($0) }) else {
                    throw UsageError("--counts takes a comma-separated list of segment counts (0...100000), not '\(v)'")
                }
                options.segmentCounts = counts
            case "--batch":
                let v = try value(argument)
                guard let n = Int(v), (1...10_000).contains(n) else { throw UsageError("--batch takes 1...10000, not '\(v)'") }
                options.segmentBatch = n
            case "--per-segment":
                let v = try value(argument)
                guard let n = Int(v), (1...10_000).contains(n) else { throw UsageError("--per-segment takes 1...10000, not '\(v)'") }
                options.eventsPerSegment = n
            case "--appends":
                let v = try value(argument)
                guard let n = Int(v), (1...1_000_000).contains(n) else { throw UsageError("--appends takes 1...1000000, not '\(v)'") }
                options.segmentAppends = n
            case "--level":
                let v = try value(argument)
                guard let n = Int32(v), (1...19).contains(n) else { throw UsageError("--level takes 1...19, not '\(v)'") }
                options.level = n
            case "--block-size":
                let v = try value(argument)
                guard let n = Int(v), (4096...(64 << 20)).contains(n) else { throw UsageError("--block-size takes 4096...67108864, not '\(v)'") }
                options.blockSize = n
            default: throw UsageError("unknown argument '\(argument)'")
            }
        }
        return options
    }
}
