import BenchSupport
import EventLog

/// Encodes workload events as JSON Lines in the CLI batch shape
/// `{"stream":...,"type":...,"data":{...},"eventId":...,"metadata":{...}}` (the input of
/// `pawtrail log append --batch`). The size of this form is the benchmark's "raw JSON bytes".
enum JSONLinesEncoder {
    /// One event as one line, newline included.
    ///
    /// - Parameters:
    ///   - e: The event.
    ///   - expectedVersion: When set, the line carries `"expectedVersion"` (`no-stream` or the version number):
    ///     the stream's version before its first event of the batch.
    static func line(_ e: WorkloadEvent, expectedVersion: ExpectedVersion? = nil) -> [UInt8] {
        var json = JSONBuffer(capacity: e.event.data.count + 200)
        json.openObject()
        json.field("stream", e.stream.rawValue)
        json.field("type", e.event.type)
        json.key("data")
        json.raw(e.event.data)
        json.field("eventId", e.event.id)
        json.key("metadata")
        json.openObject()
        for pair in e.event.metadata { json.field(pair.key, pair.value) }
        json.closeObject()
        switch expectedVersion {
        case .exact(let v)?: json.field("expectedVersion", Int(v))
        case let other?: json.field("expectedVersion", other.description)
        case nil: break
        }
        json.closeObject()
        var bytes = json.bytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// The total size of the JSON Lines form of the commits' events.
    static func size(of commits: [WorkloadCommit]) -> UInt64 {
        var total: UInt64 = 0
        for c in commits {
            for e in c.events { total += UInt64(line(e).count) }
        }
        return total
    }
}
