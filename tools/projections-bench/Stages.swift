import EventLog
import EventLogFile
import Events
import Foundation
import Projections

/// `pawtrail-projections-bench stages`: where ours spends its time, stage by stage, in one process on a warm
/// page cache: each pass adds one stage to the one before, so the differences are the stages' costs.
enum Stages {
    static func run(_ options: Options, storePath: String, events: Int) async throws {
        let set = FoldSet(options.types)
        let filter: Set<String>? = options.types == .all ? nil : set.decodedTypes
        let pageSize = 16_384

        func pass(_ stage: Int) async throws -> Double {
            let fresh = FoldSet(options.types)
            let start = ContinuousClock.now
            let store = try FileEventStore.open(path: storePath)
            defer { store.close() }
            var sink: Int64 = 0
            try await store.forEachPage(.all, eventTypes: filter, pageSize: pageSize) { page in
                for recorded in page {
                    sink &+= Int64(recorded.data.count)
                    guard stage >= 1, let route = fresh.routes[recorded.type] else { continue }
                    let event = try route.type.decoded(from: recorded.data)
                    guard stage >= 2, !route.folds.isEmpty else { continue }
                    let projected = ProjectedEvent(
                        position: recorded.position, stream: recorded.stream, recordedAt: recorded.recordedAt,
                        metadata: recorded.metadata, event: event)
                    if stage >= 3 { sink &+= projected.occurredAt.microsecondsSinceEpoch & 1 }
                    for fold in route.folds { try fold.apply(projected) }
                }
                return true
            }
            if sink == 42 { print("") }
            return (ContinuousClock.now - start) / .seconds(1)
        }

        _ = try await pass(0)
        let names = [
            "open + read pages (forEachPage, RecordedEvent materialized)", "+ decode (EventCatalog types)",
            "+ ProjectedEvent and apply", "+ occurredAt read once per event (metadata scan + ISO-8601 parse)",
        ]
        print("stages of ours over \(events) events (`--types \(options.types.rawValue)`, \(set.routes.count) types decoded; fastest of 5 passes, the least disturbed by other load):")
        var previous = 0.0
        for stage in 0..<names.count {
            var times: [Double] = []
            for _ in 0..<5 { times.append(try await pass(stage)) }
            let t = times.min()!
            print(
                "  " + names[stage].padding(toLength: 66, withPad: " ", startingAt: 0)
                    + String(format: "%6.3f s  (stage %+6.3f s, %5.0f ns/event)  %9.0f events/s", t, t - previous, (t - previous) / Double(events) * 1e9, Double(events) / t))
            previous = t
        }
    }
}
