import EventLog
import Foundation
import PawtrailJSON

/// One line of a `log append --batch` file, read on its own: everything a line can be wrong about by itself is
/// checked here; what lines must agree on (one expected version a stream, each event id once, a stream written or
/// checked) is the batch's (``BatchParser``).
enum BatchLine: Equatable {
    /// An empty or blank line.
    case blank
    /// A check-only condition on a stream.
    case check(stream: StreamID, expected: ExpectedVersion)
    /// An event, and the expected version its line names for its stream.
    case event(stream: StreamID, expected: ExpectedVersion?, event: ProposedEvent)

    /// Why a line is wrong, without its number (a batch read in parts numbers its lines when the parts are joined).
    struct Problem: Error, Equatable {
        var message: String
    }

    /// The fields a line may have, in the order they are listed when an unknown one is met.
    static let fields = ["stream", "type", "data", "eventId", "metadata", "expectedVersion", "check"]

    /// A member's value: its kind and its bytes in the file.
    private struct Value {
        var kind: JSONKind
        var range: Range<Int>
    }

    /// The members of one line, by field.
    private struct Fields {
        var stream: Value?
        var type: Value?
        var data: Value?
        var eventId: Value?
        var metadata: Value?
        var expectedVersion: Value?
        var check: Value?

        /// Puts a member in its field; `false` for a key that names none.
        mutating func set(_ key: String, _ value: Value) -> Bool {
            switch key {
            case "stream": stream = value
            case "type": type = value
            case "data": data = value
            case "eventId": eventId = value
            case "metadata": metadata = value
            case "expectedVersion": expectedVersion = value
            case "check": check = value
            default: return false
            }
            return true
        }

        /// Puts a plain member in its field by its key's bytes; `false` for a key that names none.
        mutating func set(_ key: UnsafeBufferPointer<UInt8>, _ value: Value) -> Bool {
            func named(_ name: StaticString) -> Bool {
                key.count == name.utf8CodeUnitCount && memcmp(key.baseAddress!, name.utf8Start, key.count) == 0
            }
            switch key.count {
            case 4: if named("type") { type = value; return true }; if named("data") { data = value; return true }
            case 5: if named("check") { check = value; return true }
            case 6: if named("stream") { stream = value; return true }
            case 7: if named("eventId") { eventId = value; return true }
            case 8: if named("metadata") { metadata = value; return true }
            case 15: if named("expectedVersion") { expectedVersion = value; return true }
            default: break
            }
            return false
        }

        /// The fields of a line whose keys are plain, or `nil` when one names no field (left to ``init(_:)`` to
        /// report).
        init?(plain members: [JSONScanner.PlainMember], in bytes: [UInt8]) {
            for m in members {
                let known = bytes.withUnsafeBufferPointer { set(UnsafeBufferPointer(rebasing: $0[m.key]), Value(kind: m.kind, range: m.range)) }
                guard known else { return nil }
            }
        }

        /// The fields of a line's members; an unknown key (the first in sorted order, when several) is a problem.
        init(_ members: [JSONScanner.Member]) throws(Problem) {
            var unknown: String?
            for m in members where !set(m.key, Value(kind: m.kind, range: m.range)) {
                if unknown.map({ m.key < $0 }) ?? true { unknown = m.key }
            }
            if let unknown {
                throw Problem(message: "unknown field \"\(unknown)\" (expected \(BatchLine.fields.map { "\"\($0)\"" }.joined(separator: ", ")))")
            }
        }
    }

    /// Reads one line.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - range: The line, without its line feed or carriage return.
    ///   - newEventID: Makes the id of an event line without `eventId`.
    ///   - plainFirst: Whether objects with plain keys are read by the cheaper scan (the tests compare both ways).
    /// - Returns: What the line holds.
    /// - Throws: ``Problem`` naming what is wrong with the line.
    static func read(_ bytes: [UInt8], _ range: Range<Int>, newEventID: () -> UUID, plainFirst: Bool = true) throws(Problem) -> BatchLine {
        let line = bytes[range]
        if line.allSatisfy(JSONScanner.isWhitespace) { return .blank }
        func fail(_ message: String) -> Problem { Problem(message: message) }
        if line.starts(with: BatchParser.byteOrderMark) {
            throw fail("a byte order mark (EF BB BF) starts the line; only the file's first line may start with one")
        }
        var plain: [JSONScanner.PlainMember] = []
        plain.reserveCapacity(8)
        let f: Fields
        if plainFirst, JSONScanner.plainMembers(line, into: &plain), let fields = Fields(plain: plain, in: bytes) {
            f = fields
        } else {
            let members: [JSONScanner.Member]
            do {
                members = try JSONScanner.objectMembers(line)
            } catch {
                throw fail("invalid JSON: \(error)")
            }
            f = try Fields(members)
        }
        func string(_ key: String, _ member: Value?) throws(Problem) -> String? {
            guard let m = member else { return nil }
            guard m.kind == .string else { throw fail("\"\(key)\" must be a string, not \(m.kind)") }
            return JSONScanner.decodeString(bytes, m.range)
        }

        guard let rawStream = try string("stream", f.stream) else { throw fail("missing \"stream\"") }
        let stream: StreamID
        do { stream = try StreamID(rawStream) } catch { throw fail(error.description) }

        var expected: ExpectedVersion?
        if let m = f.expectedVersion {
            let text: String
            switch m.kind {
            case .number: text = String(decoding: bytes[m.range], as: UTF8.self)
            case .string: text = JSONScanner.decodeString(bytes, m.range)
            default: text = ""
            }
            guard let e = ExpectedVersion(parsing: text) else {
                throw fail("\"expectedVersion\" must be a version number or one of \"any\", \"no-stream\", \"stream-exists\"")
            }
            expected = e
        }

        if let m = f.check {
            guard m.kind == .true || m.kind == .false else { throw fail("\"check\" must be true or false, not \(m.kind)") }
            if m.kind == .true {
                for (key, member) in [("type", f.type), ("data", f.data), ("eventId", f.eventId), ("metadata", f.metadata)] where member != nil {
                    throw fail("a check-only line may not have \"\(key)\"; it only checks the stream's version")
                }
                guard let expected else { throw fail("a check-only line needs \"expectedVersion\"") }
                return .check(stream: stream, expected: expected)
            }
        }

        guard let type = try string("type", f.type) else { throw fail("missing \"type\"") }
        guard let dataMember = f.data else { throw fail("missing \"data\"") }
        let id: UUID
        if let m = f.eventId {
            guard m.kind == .string else { throw fail("\"eventId\" must be a string, not \(m.kind)") }
            let canonical = bytes.withUnsafeBufferPointer {
                UUID(canonicalText: UnsafeBufferPointer(rebasing: $0[(m.range.lowerBound + 1)..<(m.range.upperBound - 1)]))
            }
            if let canonical {
                id = canonical
            } else {
                let rawID = JSONScanner.decodeString(bytes, m.range)
                guard let parsed = UUID(uuidString: rawID) else { throw fail("\"eventId\" '\(rawID)' is not a UUID") }
                id = parsed
            }
        } else {
            id = newEventID()
        }

        var metadata = EventMetadata()
        if let m = f.metadata {
            guard m.kind == .object else { throw fail("\"metadata\" must be an object of strings, not \(m.kind)") }
            var pairs: [(key: String, kind: JSONKind, range: Range<Int>)] = []
            if plainFirst, JSONScanner.plainMembers(bytes[m.range], into: &plain) {
                pairs = plain.map { (String(decoding: bytes[$0.key], as: UTF8.self), $0.kind, $0.range) }
            } else {
                do {
                    pairs = try JSONScanner.objectMembers(bytes[m.range]).map { ($0.key, $0.kind, $0.range) }
                } catch {
                    // The scan began at the object; the column is counted from the start of the line.
                    var e = error
                    e.offset += m.range.lowerBound - range.lowerBound
                    throw fail("invalid JSON in \"metadata\": \(e)")
                }
            }
            var values: [(key: String, value: String)] = []
            values.reserveCapacity(pairs.count)
            for p in pairs {
                guard p.kind == .string else { throw fail("metadata value for \"\(p.key)\" must be a string, not \(p.kind)") }
                values.append((p.key, JSONScanner.decodeString(bytes, p.range)))
            }
            // The scan refused duplicate keys, so the pairs sorted are the metadata's.
            values.sort { $0.key < $1.key }
            metadata = EventMetadata(sortedUniquePairs: values)
        }

        let data: [UInt8]
        do {
            data = try EventData.stored(Array(bytes[dataMember.range]), type: type, source: "\"data\"")
        } catch {
            throw fail(error.message)
        }
        let event = ProposedEvent(id: id, type: type, data: data, metadata: metadata)
        do { try EventLimits.validateEvent(event) } catch { throw fail(error.description) }
        return .event(stream: stream, expected: expected, event: event)
    }
}
