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
    /// new order or booking), with the roll raised so that no segment is sealed while it is timed.
    static func run(_ options: BenchOptions) async -> Int32 {
        print("| sealed segments | events in them | CPU per appended event, no flush | p50 append latency, durable | p99, durable |")
        print("|---|---|---|---|---|")
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
                for durable in [false, true] {
                    // Rolls far enough away that no segment is sealed while appends are timed, whatever the flags.
                    let timed = options.segmentAppends * options.segmentBatch
                    var writing = FileEventStoreOptions(
                        segmentSize: max(64 << 20, timed * 2048), maxSegmentEvents: max(131_072, timed + 1), durability: durable ? .sync : .noSync)
                    writing.compactSealedSegments = false
                    let store = try FileEventStore.open(path: path, options: writing)
                    var latencies: [Double] = []
                    let cpu = Stopwatch.processCPU()
                    let batch = options.segmentBatch
                    for i in 0..<options.segmentAppends {
                        let entries = (0..<batch).map { k in
                            AppendRequest.Entry(stream: StreamID(unchecked: "new-\(durable ? 1 : 0)-\(i * batch + k)"), event: event())
                        }
                        let t = Stopwatch.now()
                        _ = try await store.append(AppendRequest(entries: entries))
                        latencies.append(Stopwatch.now() - t)
                    }
                    let cpuSeconds = Stopwatch.processCPU() - cpu
                    store.close()
                    if durable {
                        let l = LatencySummary(seconds: latencies)!
                        print(" \(Format.micros(l.p50Micros)) | \(Format.micros(l.p99Micros)) |")
                    } else {
                        let events = Double(options.segmentAppends * options.segmentBatch)
                        print(
                            "| \(count) | \(Format.grouped(Double(count * perSegment))) "
                                + "| \(String(format: "%.2f µs", cpuSeconds / events * 1e6)) |", terminator: "")
                    }
                }
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
            + "sealed segment), first without flushing (the CPU of the whole process per event), then durable on a reopened store; "
            + "no segment is sealed while appends are timed.")
        return 0
    }

    private static func stream(_ n: Int) -> StreamID { StreamID(unchecked: "pet-\(n)") }

    private static func event() -> ProposedEvent {
        ProposedEvent(type: "PetWeighed", data: Array("{\"grams\":\(Int.random(in: 1000...40000))}".utf8))
    }
}
