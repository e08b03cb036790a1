import EventLog
import EventLogFile
import Foundation

/// `pawtrail-bench segments`: how the cost of an append grows with the number of sealed segments. Every new
/// event id is looked up in each sealed segment's id index (ids are unique across the store), and a stream not
/// written in the active segment is looked for in the sealed ones, newest first; this measures what that costs.
enum SegmentScaling {
    /// Builds, for each count, a store of that many sealed segments (small ones, so that many are quick to make;
    /// the lookups do not depend on a segment's size), then times appends to it of events with fresh ids to
    /// streams that exist nowhere (each lookup misses in every segment: the worst case, and the common one for a
    /// new order or booking), with the roll raised so that no segment is sealed while it is timed; with the index runs
/// the builder's upkeep made, and again without them.
    static func run(_ options: BenchOptions) async -> Int32 {
        print("| sealed segments | events in them | index runs | CPU per appended event, no flush, without runs | with runs | p50 append latency, durable, with runs | p99 |")
        print("|---|---|---|---|---|---|---|")
        for count in options.segmentCounts {
            do {
                let path = options.directory + "/segments-\(count)"
                try Scratch.remove(path)
                let perSegment = options.eventsPerSegment
                var building = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: perSegment, durability: .noSync)
                building.compactSealedSegments = false
                let builder = try FileEventStore.open(path: path, options: building)
                // One commit a segment, spread over 10,000 streams; the last commit leaves the active segment empty.
                for _ in 0..<count {
                    let entries = (0..<perSegment).map { _ in
                        AppendRequest.Entry(stream: stream(Int.random(in: 0..<10_000)), event: event())
                    }
                    _ = try await builder.append(AppendRequest(entries: entries))
                }
                builder.close()
                let runs = try builder.stats()
                // With the index runs the builder's upkeep made (every 16 sealed segments), then without them:
                // the runs are derived files, and a store whose options build none asks each segment.
                var cpuPerEvent: [Double] = []
                var durableLatency: LatencySummary?
                for (withRuns, durable) in [(true, false), (true, true), (false, false)] {
                    // Each pass on its own copy of the built store, so none appends after another's events.
                    let copy = path + "-timed"
                    try Scratch.remove(copy)
                    try FileManager.default.copyItem(atPath: path, toPath: copy)
                    defer { try? Scratch.remove(copy) }
                    if !withRuns { try Scratch.remove(copy + "/runs") }
                    // Rolls far enough away that no segment is sealed while appends are timed, whatever the flags.
                    let timed = options.segmentAppends * options.segmentBatch
                    var writing = FileEventStoreOptions(
                        segmentSize: max(64 << 20, timed * 2048), maxSegmentEvents: max(131_072, timed + 1), durability: durable ? .sync : .noSync)
                    writing.compactSealedSegments = false
                    writing.indexRunSegments = withRuns ? 16 : 0
                    let store = try FileEventStore.open(path: copy, options: writing)
                    var latencies: [Double] = []
                    let cpu = Stopwatch.processCPU()
                    let batch = options.segmentBatch
                    let tag = "\(withRuns ? 1 : 0)\(durable ? 1 : 0)"
                    for i in 0..<options.segmentAppends {
                        let entries = (0..<batch).map { k in
                            AppendRequest.Entry(stream: StreamID(unchecked: "new-\(tag)-\(i * batch + k)"), event: event())
                        }
                        let t = Stopwatch.now()
                        _ = try await store.append(AppendRequest(entries: entries))
                        latencies.append(Stopwatch.now() - t)
                    }
                    let cpuSeconds = Stopwatch.processCPU() - cpu
                    store.close()
                    if durable {
                        durableLatency = LatencySummary(seconds: latencies)
                    } else {
                        cpuPerEvent.append(cpuSeconds / Double(options.segmentAppends * options.segmentBatch) * 1e6)
                    }
                }
                let l = durableLatency!
                print(
                    "| \(count) | \(Format.grouped(Double(count * perSegment))) | \(runs.indexRuns) runs over \(runs.indexedSegments) "
                        + "| \(String(format: "%.2f µs", cpuPerEvent[1])) | \(String(format: "%.2f µs", cpuPerEvent[0])) "
                        + "| \(Format.micros(l.p50Micros)) | \(Format.micros(l.p99Micros)) |")
                if !options.keep { try? Scratch.remove(path) }
            } catch {
                Console.progress("pawtrail-bench segments: \(count) segments: \(error)")
                return 1
            }
        }
        print("")
        print("Command: `\(ProcessInfo.processInfo.environment["PAWTRAIL_BENCH_COMMAND"] ?? "pawtrail-bench segments")`. "
            + "Each store: sealed segments of \(options.eventsPerSegment) events (not compacted), then \(options.segmentAppends) "
            + "appends of \(options.segmentBatch) events with fresh ids to \(options.segmentBatch) new streams (every lookup misses in every "
            + "sealed segment and index run), first with the index runs the store's upkeep built (16 segments each): without flushing "
            + "(the CPU of the whole process per event), then durable; then without flushing with the runs "
            + "deleted, so that each sealed segment is asked. Each pass runs on a fresh copy of the built store; no segment is "
            + "sealed while appends are timed.")
        return 0
    }

    private static func stream(_ n: Int) -> StreamID { StreamID(unchecked: "pet-\(n)") }

    private static func event() -> ProposedEvent {
        ProposedEvent(type: "PetWeighed", data: Array("{\"grams\":\(Int.random(in: 1000...40000))}".utf8))
    }
}
