import PawtrailDomain
import PawtrailJSON
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What one CLI process cost, for `--stats`: the time to open the store, and the work its domain commands did
/// reading streams. Printed as one line `Stats: {...}` on standard error when the process ends.
final class CommandStats: Sendable {
    private struct Counts {
        var openMicroseconds: Int64 = 0
        var opens = 0
        var commands = 0
        var load = LoadStats()
    }

    private let counts = Mutex(Counts())
    private let started = ContinuousClock.now

    /// Counts one opening of the store.
    func opened(after elapsed: Duration) {
        counts.withLock {
            $0.openMicroseconds += Self.microseconds(elapsed)
            $0.opens += 1
        }
    }

    /// Counts one domain command's loading.
    func handled(_ load: LoadStats) {
        counts.withLock {
            $0.commands += 1
            $0.load.add(load)
        }
    }

    static func microseconds(_ d: Duration) -> Int64 {
        d.components.seconds * 1_000_000 + d.components.attoseconds / 1_000_000_000_000
    }

    /// The line to print.
    var line: String {
        let c = counts.withLock { $0 }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let json = JSONValue.object([
            "totalMicroseconds": .int(Self.microseconds(ContinuousClock.now - started)),
            "openMicroseconds": .int(c.openMicroseconds), "opens": .int(Int64(c.opens)),
            "commands": .int(Int64(c.commands)), "streamsLoaded": .int(Int64(c.load.streams)),
            "eventsRead": .int(Int64(c.load.eventsRead)), "snapshotHits": .int(Int64(c.load.snapshotHits)),
            "cacheHits": .int(Int64(c.load.cacheHits)), "snapshotsPassedOver": .int(Int64(c.load.snapshotsPassedOver)),
            "maxResidentKilobytes": .int(Int64(usage.ru_maxrss)),
        ])
        return "Stats: " + json.serialized
    }
}
