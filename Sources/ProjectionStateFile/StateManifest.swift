import EventLog
import Foundation
import PawtrailIO
import ProjectionRuntime

/// What a projection's stored state of one schema version is (`MANIFEST` in its directory): its checkpoint and its
/// run files, oldest first. Replaced whole by an atomic rename, so a reader finds the runs and the checkpoint of one
/// commit together.
///
/// Layout: magic `PTSTATE1` (8), format version u16, reserved u16; the name (length u16 and UTF-8); schema version
/// i64; whether a position follows u8, position u64; events applied i64; rebuilt at, rebuild microseconds, saved at
/// (i64 each); since version 2, whether an event id follows u8 and the id of the event at the position (16 bytes);
/// since version 3, when that event was recorded (i64 microseconds; 0 without an id); the next run's sequence number u64; run count u32, then per run its sequence number, lowest and highest position,
/// version count and file size (u64 each); CRC-32C of everything before it u32. Versions 1 (no event id) and 2 (no time) are read.
struct StateManifest: Hashable {
    struct Run: Hashable {
        var sequence: UInt64
        var minPosition: UInt64
        var maxPosition: UInt64
        var versionCount: UInt64
        var fileSize: UInt64

        var fileName: String { Self.fileName(sequence) }

        static func fileName(_ sequence: UInt64) -> String {
            let s = String(sequence)
            return String(repeating: "0", count: max(0, 12 - s.count)) + s + ".run"
        }
    }

    static let magic: [UInt8] = Array("PTSTATE1".utf8)
    static let version: UInt16 = 3
    static let fileName = "MANIFEST"

    var checkpoint: CheckpointInfo
    var nextSequence: UInt64
    var runs: [Run]

    func encoded() -> [UInt8] {
        var w = ByteWriter()
        w.write(bytes: Self.magic)
        w.write(Self.version)
        w.write(UInt16(0))
        let name = Array(checkpoint.name.utf8)
        w.write(UInt16(name.count))
        w.write(bytes: name)
        w.write(Int64(checkpoint.schemaVersion))
        w.write(UInt8(checkpoint.position == nil ? 0 : 1))
        w.write(checkpoint.position ?? 0)
        w.write(checkpoint.eventsApplied)
        w.write(checkpoint.rebuiltAt.microsecondsSinceEpoch)
        w.write(checkpoint.rebuildMicroseconds)
        w.write(checkpoint.savedAt.microsecondsSinceEpoch)
        w.write(UInt8(checkpoint.eventID == nil ? 0 : 1))
        withUnsafeBytes(of: (checkpoint.eventID ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))).uuid) { w.write(bytes: Array($0)) }
        w.write(checkpoint.eventRecordedAt?.microsecondsSinceEpoch ?? 0)
        w.write(nextSequence)
        w.write(UInt32(runs.count))
        for r in runs {
            w.write(r.sequence)
            w.write(r.minPosition)
            w.write(r.maxPosition)
            w.write(r.versionCount)
            w.write(r.fileSize)
        }
        w.write(CRC32C.checksum(w.bytes))
        return w.bytes
    }

    /// Decodes a manifest; `nil` when it is damaged or of another format.
    static func decode(_ bytes: [UInt8]) -> StateManifest? {
        guard bytes.count >= 16 else { return nil }
        return bytes.withUnsafeBytes { raw -> StateManifest? in
            let body = UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 4)])
            guard CRC32C.checksum(body) == raw.loadUnaligned(fromByteOffset: raw.count - 4, as: UInt32.self).littleEndian else { return nil }
            var r = ByteReader(body)
            do {
                guard Array(try r.readView(8)) == magic else { return nil }
                let format = try r.read(UInt16.self)
                guard (1...version).contains(format) else { return nil }
                _ = try r.read(UInt16.self)
                let nameLength = Int(try r.read(UInt16.self))
                guard let name = String(validating: try r.readView(nameLength), as: UTF8.self) else { return nil }
                let schema = Int(try r.read(Int64.self))
                let hasPosition = try r.read(UInt8.self) == 1
                let position = try r.read(UInt64.self)
                let applied = try r.read(Int64.self)
                let rebuiltAt = Timestamp(microsecondsSinceEpoch: try r.read(Int64.self))
                let micros = try r.read(Int64.self)
                let savedAt = Timestamp(microsecondsSinceEpoch: try r.read(Int64.self))
                var eventID: UUID?
                var eventRecordedAt: Timestamp?
                if format >= 2 {
                    let hasID = try r.read(UInt8.self) == 1
                    let raw = Array(try r.readView(16))
                    let recordedAt = format >= 3 ? try r.read(Int64.self) : nil
                    if hasID {
                        var u = UUID().uuid
                        withUnsafeMutableBytes(of: &u) { $0.copyBytes(from: raw) }
                        eventID = UUID(uuid: u)
                        eventRecordedAt = recordedAt.map(Timestamp.init(microsecondsSinceEpoch:))
                    }
                }
                let next = try r.read(UInt64.self)
                let count = Int(try r.read(UInt32.self))
                guard count <= 1 << 16 else { return nil }
                var runs: [Run] = []
                for _ in 0..<count {
                    let run = Run(
                        sequence: try r.read(UInt64.self), minPosition: try r.read(UInt64.self), maxPosition: try r.read(UInt64.self),
                        versionCount: try r.read(UInt64.self), fileSize: try r.read(UInt64.self))
                    guard run.sequence < next, runs.last.map({ $0.sequence < run.sequence }) ?? true else { return nil }
                    runs.append(run)
                }
                guard r.isAtEnd else { return nil }
                return StateManifest(
                    checkpoint: CheckpointInfo(
                        name: name, schemaVersion: schema, position: hasPosition ? position : nil, eventsApplied: applied,
                        rebuiltAt: rebuiltAt, rebuildMicroseconds: micros, savedAt: savedAt, eventID: eventID,
                        eventRecordedAt: eventRecordedAt),
                    nextSequence: next, runs: runs)
            } catch {
                return nil
            }
        }
    }
}
