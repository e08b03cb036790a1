import BenchSupport
import EventLog

/// `pawtrail-bench generate`: the workload as JSON Lines on standard output, for `pawtrail log append --batch`.
enum WorkloadGeneratorCommand {
    /// Writes `options.events` events, streaming commit by commit so any size fits in memory.
    static func run(_ options: BenchOptions) {
        var workload = Workload(seed: options.seed, skew: options.skew)
        var left = options.events
        var bytes: UInt64 = 0
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        while left > 0 {
            let commit = workload.nextCommit(size: min(options.perCommit, left))
            left -= commit.events.count
            var seen = Set<Int>()
            for e in commit.events {
                // A batch takes one expectation per stream: on the stream's first line in this commit.
                let expected: ExpectedVersion? =
                    options.expectedVersions && seen.insert(e.streamIndex).inserted
                    ? (e.versionBefore.map { .exact($0) } ?? .noStream) : nil
                let line = JSONLinesEncoder.line(e, expectedVersion: expected)
                bytes += UInt64(line.count)
                out.append(contentsOf: line)
            }
            if out.count >= 1 << 20 {
                Console.write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        Console.write(out)
        Console.progress("generated \(options.events) events, \(bytes) bytes of JSON Lines (seed \(options.seed))")
    }
}
