import EventLog
import Events
import PawtrailIO

/// The checkpoint file: `PTCK`, a format version, the header fields and the state in the field encoding, and a
/// CRC-32C of everything before it. A file that fails any check is treated as absent (the projection is rebuilt),
/// never as a state.
enum CheckpointCodec {
    static let magic: [UInt8] = Array("PTCK".utf8)
    static let formatVersion: UInt64 = 1

    /// The file as three parts (magic and header, the state, the checksum), so that a large state is written where
    /// it is rather than copied behind its header.
    static func encodedParts(_ c: Checkpoint) -> [[UInt8]] {
        var w = BinaryFieldWriter()
        w.varint(formatVersion)
        w.string("name", c.name)
        w.int("schemaVersion", Int64(c.schemaVersion))
        w.optionalInt("position", c.position.map { Int64(bitPattern: $0) })
        w.int("eventsApplied", c.eventsApplied)
        w.timestamp("rebuiltAt", c.rebuiltAt)
        w.int("rebuildMicroseconds", c.rebuildMicroseconds)
        w.timestamp("savedAt", c.savedAt)
        w.varint(UInt64(c.state.count))
        let head = magic + w.bytes
        var crc = CRC32C()
        crc.update(head)
        crc.update(c.state)
        return [head, c.state, withUnsafeBytes(of: crc.value.littleEndian) { Array($0) }]
    }

    /// Reads the header of a checkpoint from the first bytes of its file, without the state or the checksum: what
    /// `status` shows and time travel compares positions with. The full file is checked when it is loaded.
    static func decodeHeader(_ prefix: [UInt8]) -> Checkpoint? {
        guard prefix.count >= 4, Array(prefix.prefix(4)) == magic else { return nil }
        var r = BinaryFieldReader(prefix, offset: 4)
        do {
            guard try r.varint("format") == formatVersion else { return nil }
            return Checkpoint(
                name: try r.string("name"), schemaVersion: Int(try r.int("schemaVersion")),
                position: try r.optionalInt("position").map { UInt64(bitPattern: $0) }, eventsApplied: try r.int("eventsApplied"),
                rebuiltAt: try r.timestamp("rebuiltAt"), rebuildMicroseconds: try r.int("rebuildMicroseconds"),
                savedAt: try r.timestamp("savedAt"), state: [])
        } catch {
            return nil
        }
    }

    static func decode(_ bytes: [UInt8]) -> Checkpoint? {
        guard bytes.count >= 8, Array(bytes.prefix(4)) == magic else { return nil }
        let body = Array(bytes.dropLast(4))
        let stored = bytes.suffix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        guard CRC32C.checksum(body) == stored else { return nil }
        var r = BinaryFieldReader(body, offset: 4)
        do {
            guard try r.varint("format") == formatVersion else { return nil }
            let name = try r.string("name")
            let version = Int(try r.int("schemaVersion"))
            let position = try r.optionalInt("position").map { UInt64(bitPattern: $0) }
            let applied = try r.int("eventsApplied")
            let rebuiltAt = try r.timestamp("rebuiltAt")
            let micros = try r.int("rebuildMicroseconds")
            let savedAt = try r.timestamp("savedAt")
            let count = Int(try r.varint("stateBytes"))
            guard r.offset + count == body.count else { return nil }
            return Checkpoint(
                name: name, schemaVersion: version, position: position, eventsApplied: applied, rebuiltAt: rebuiltAt,
                rebuildMicroseconds: micros, savedAt: savedAt, state: Array(body[r.offset...]))
        } catch {
            return nil
        }
    }
}
