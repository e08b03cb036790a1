import PawtrailJSON
import EventLog
import EventLogFile

/// `pawtrail log inspect SEGMENT`: one segment's header, frames, footer and index counts.
enum LogInspectCommand {
    static let spec = CommandSpec(
        name: "inspect",
        abstract: "Lay open one segment: header, frames, footer and index.",
        options: [.flag("json", help: "Print the inspection as JSON.")],
        positionals: [PositionalSpec(name: "segment", help: "The segment's file name (as verify names it), or a position it holds.")],
        run: run)

    /// The inspection as JSON, mirroring ``SegmentInspection``.
    static func json(_ s: SegmentInspection) -> JSONValue {
        .object([
            "name": .string(s.name),
            "formatVersion": .int(Int64(s.formatVersion)),
            "minimumReaderVersion": .int(Int64(s.minimumReaderVersion)),
            "state": .string(s.state),
            "firstPosition": .uint(s.firstPosition),
            "createdAt": .string(s.createdAt.iso8601),
            "fileBytes": .uint(s.fileBytes),
            "frames": .array(
                s.frames.map { f in
                    .object([
                        "offset": .uint(f.offset),
                        "length": .uint(f.length),
                        "kind": .string(f.kind),
                        "firstPosition": .uint(f.firstPosition),
                        "events": .int(Int64(f.events)),
                        "commits": .int(Int64(f.commits)),
                        "codec": .string(f.codec),
                        "rawLength": .int(Int64(f.rawLength)),
                        "firstRecordedAt": .string(f.firstRecordedAt.iso8601),
                        "lastRecordedAt": .string(f.lastRecordedAt.iso8601),
                        "checksumOK": .bool(f.checksumOK),
                    ])
                }),
            "footerEvents": .uint(s.footerEvents),
            "footerLastPosition": .uint(s.footerLastPosition),
            "footerChecksum": s.footerChecksum.map { .uint(UInt64($0)) } ?? .null,
            "footerChecksumOK": s.footerChecksumOK.map { .bool($0) } ?? .null,
            "indexStreams": .int(Int64(s.indexStreams)),
            "indexEventIDs": .int(Int64(s.indexEventIDs)),
            "timeIndexEntries": .int(Int64(s.timeIndexEntries)),
            "checkpointEvents": .uint(s.checkpointEvents),
            "checkpointEnd": .uint(s.checkpointEnd),
        ])
    }

    /// The inspection as text: header lines, a frames table, the footer and index counts.
    static func lines(_ s: SegmentInspection) -> [String] {
        var out = [
            "Segment \(s.name)",
            "  state:           \(s.state)",
            "  format version:  \(s.formatVersion) (readable by version \(s.minimumReaderVersion) and later)",
            "  first position:  \(s.firstPosition)",
            "  created at:      \(s.createdAt.iso8601)",
            "  file bytes:      \(s.fileBytes)",
            "",
            "Frames (\(s.frames.count)):",
        ]
        let header = ["offset", "length", "kind", "first", "events", "commits", "codec", "raw", "last recorded at", "crc"]
        var rows = [header]
        for f in s.frames {
            rows.append([
                String(f.offset), String(f.length), f.kind, String(f.firstPosition), String(f.events), String(f.commits),
                f.codec, String(f.rawLength), f.lastRecordedAt.iso8601, f.checksumOK ? "ok" : "BAD",
            ])
        }
        out += TextTable.render(rows, rightAligned: [0, 1, 3, 4, 5, 7]).map { "  " + $0 }
        out.append("")
        if let events = s.footerEvents {
            let checksum = s.footerChecksum.map { "0x" + String($0, radix: 16) } ?? "-"
            let ok = s.footerChecksumOK.map { $0 ? "ok" : "MISMATCH" } ?? "-"
            out.append(
                "Footer: \(events) events, last position \(s.footerLastPosition.map(String.init) ?? "-"), checksum \(checksum) (\(ok))")
        } else {
            out.append("Footer: none (the segment is not sealed)")
        }
        out.append("Index: \(s.indexStreams) streams, \(s.indexEventIDs) event ids, \(s.timeIndexEntries) time-index entries")
        if s.state == "active" {
            if let events = s.checkpointEvents, let end = s.checkpointEnd {
                out.append("Checkpoint: \(events) events, up to byte \(end) (opens scan the frames after it)")
            } else {
                out.append("Checkpoint: none (opens scan the whole segment)")
            }
        }
        return out
    }

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let segment = context.arguments.positionals[0]
        let inspection: SegmentInspection
        do {
            inspection = try context.maintenance(of: try context.openStore(.read)).inspect(segment: segment)
        } catch let error as EventStoreError {
            // Damage that keeps the store from opening is what an operator inspects the segments around: lay this
            // one open from its files (its own damage, if it has any, is reported as before).
            guard error.code == .corrupted, let offline = context.offlineMaintenance else { throw error }
            let found = try offline.inspectWithoutOpening(location: context.storePath, segment: segment)
            context.err("Warning: the store does not open (\(error)); \(found.name) is laid open from its files alone")
            inspection = found
        }
        if context.wantsJSON {
            context.out(json(inspection))
        } else {
            lines(inspection).forEach(context.out)
        }
        return .success
    }
}
