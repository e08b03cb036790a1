import BenchSupport
import EventLog
import EventLogFile
import Foundation

/// Runs the scenarios against our `FileEventStore`, with its default options (durability `.sync`: an append
/// returns after the fdatasync of its group commit).
enum FileStoreDriver {
    /// The options every scenario writes with: the defaults, plus creating the store.
    static var writeOptions: FileEventStoreOptions { FileEventStoreOptions(createIfMissing: true) }

    /// Appends the requests one after another on a fresh store, timing each append.
    static func appendSerial(path: String, requests: [AppendRequest], events: Int) async -> Measurement {
        do {
            try Scratch.remove(path)
            let store = try FileEventStore.open(path: path, options: writeOptions)
            var latencies: [Double] = []
            latencies.reserveCapacity(requests.count)
            let cpu = Stopwatch.processCPU()
            let start = Stopwatch.now()
            for request in requests {
                let t = Stopwatch.now()
                _ = try await store.append(request)
                latencies.append(Stopwatch.now() - t)
            }
            let seconds = Stopwatch.now() - start
            var result = Measurement(events: events, seconds: seconds, latency: LatencySummary(seconds: latencies))
            result.closeSeconds = Self.close(store)
            result.cpuSeconds = Stopwatch.processCPU() - cpu
            return result
        } catch {
            return Measurement(error: error)
        }
    }

    /// Appends from concurrent tasks on a fresh store: each writer's requests in order, all writers at once, so
    /// the store's group commit can put several writers' appends under one flush.
    static func appendConcurrent(path: String, writers: [[AppendRequest]], events: Int) async -> Measurement {
        do {
            try Scratch.remove(path)
            let store = try FileEventStore.open(path: path, options: writeOptions)
            let cpu = Stopwatch.processCPU()
            let start = Stopwatch.now()
            let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
                for requests in writers {
                    group.addTask {
                        var latencies: [Double] = []
                        latencies.reserveCapacity(requests.count)
                        for request in requests {
                            let t = Stopwatch.now()
                            _ = try await store.append(request)
                            latencies.append(Stopwatch.now() - t)
                        }
                        return latencies
                    }
                }
                var all: [Double] = []
                for try await part in group { all += part }
                return all
            }
            let seconds = Stopwatch.now() - start
            var result = Measurement(events: events, seconds: seconds, latency: LatencySummary(seconds: latencies))
            result.closeSeconds = Self.close(store)
            result.cpuSeconds = Stopwatch.processCPU() - cpu
            return result
        } catch {
            return Measurement(error: error)
        }
    }

    /// Closes a store that was just written, timing the wait for its background upkeep, so that none of it
    /// runs on into the SQLite peer's turn.
    private static func close(_ store: FileEventStore) -> Double {
        let t = Stopwatch.now()
        store.close()
        return Stopwatch.now() - t
    }

    /// Reads the whole log with `forEachPage(.all, pageSize: 4096)` on a freshly opened store, counting the
    /// events and touching each event's data (so no layer can skip the payload).
    static func readAll(path: String) async -> Measurement {
        do {
            let opening = Stopwatch.now()
            let store = try FileEventStore.open(path: path)
            let openSeconds = Stopwatch.now() - opening
            var count = 0
            var checksum: UInt64 = 0
            let start = Stopwatch.now()
            try await store.forEachPage(.all, pageSize: 4096) { events in
                count += events.count
                for e in events { checksum &+= UInt64(e.data.last ?? 0) &+ UInt64(e.data.count) }
                return true
            }
            let seconds = Stopwatch.now() - start
            Sink.consume(checksum)
            var result = Measurement(events: count, seconds: seconds)
            result.openSeconds = openSeconds
            return result
        } catch {
            return Measurement(error: error)
        }
    }

    /// The store's own size figures.
    static func stats(path: String) throws -> LogStats {
        try FileEventStore.open(path: path).stats()
    }
}
