import BenchSupport
import EventLog
import Foundation

/// Runs the scenarios against the SQLite peer (``SQLiteEventTable``).
enum SQLiteDriver {
    /// Appends the commits one after another to a fresh database, timing each commit.
    static func appendSerial(path: String, commits: [WorkloadCommit], events: Int) -> Measurement {
        do {
            let table = try SQLiteEventTable(path: path, create: true)
            var latencies: [Double] = []
            latencies.reserveCapacity(commits.count)
            let cpu = Stopwatch.processCPU()
            let start = Stopwatch.now()
            for commit in commits {
                let t = Stopwatch.now()
                try table.append(commit)
                latencies.append(Stopwatch.now() - t)
            }
            let seconds = Stopwatch.now() - start
            var result = Measurement(events: events, seconds: seconds, latency: LatencySummary(seconds: latencies))
            result.cpuSeconds = Stopwatch.processCPU() - cpu
            return result
        } catch {
            return Measurement(error: error)
        }
    }

    /// Appends from one thread per writer, each with its own connection and a busy timeout, to a fresh
    /// database: how an application would use SQLite from several threads. Timing starts once every thread has
    /// opened its connection.
    static func appendThreads(path: String, writers: [[WorkloadCommit]], events: Int) -> Measurement {
        do {
            _ = try SQLiteEventTable(path: path, create: true)
        } catch {
            return Measurement(error: error)
        }
        let results = ThreadResults()
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        for commits in writers {
            let thread = Thread {
                defer { done.signal() }
                let table: SQLiteEventTable
                do {
                    table = try SQLiteEventTable(path: path, create: false, busyTimeoutMilliseconds: 60_000)
                } catch {
                    results.fail(error)
                    ready.signal()
                    return
                }
                ready.signal()
                go.wait()
                var latencies: [Double] = []
                latencies.reserveCapacity(commits.count)
                do {
                    for commit in commits {
                        let t = Stopwatch.now()
                        try table.append(commit)
                        latencies.append(Stopwatch.now() - t)
                    }
                } catch {
                    results.fail(error)
                }
                results.add(latencies)
            }
            thread.start()
        }
        for _ in writers { ready.wait() }
        let cpu = Stopwatch.processCPU()
        let start = Stopwatch.now()
        for _ in writers { go.signal() }
        for _ in writers { done.wait() }
        let seconds = Stopwatch.now() - start
        if let error = results.firstError { return Measurement(error: error) }
        var result = Measurement(events: events, seconds: seconds, latency: LatencySummary(seconds: results.latencies))
        result.cpuSeconds = Stopwatch.processCPU() - cpu
        return result
    }

    /// Reads every event on a fresh connection, materializing `RecordedEvent`s and touching each one's data.
    static func readAll(path: String) -> Measurement {
        do {
            let opening = Stopwatch.now()
            let table = try SQLiteEventTable(path: path, create: false)
            let openSeconds = Stopwatch.now() - opening
            var checksum: UInt64 = 0
            let start = Stopwatch.now()
            let count = try table.readAll { e in checksum &+= UInt64(e.data.last ?? 0) &+ UInt64(e.data.count) }
            let seconds = Stopwatch.now() - start
            Sink.consume(checksum)
            var result = Measurement(events: count, seconds: seconds)
            result.openSeconds = openSeconds
            return result
        } catch {
            return Measurement(error: error)
        }
    }

    /// Checkpoints the WAL into the database (TRUNCATE) and returns the size of the database plus WAL files.
    static func size(path: String) throws -> DiskUsage {
        try SQLiteEventTable(path: path, create: false).checkpoint()
        return DiskUsage.of([path, path + "-wal"])
    }
}
