import PawtrailJSON
import EventLog
import Foundation

/// Parses a `log append --batch` file: JSON Lines, one event per line
/// (`{"stream":..,"type":..,"data":..,"eventId":..,"metadata":{..},"expectedVersion":..}`) or one check-only
/// condition (`{"stream":..,"expectedVersion":..,"check":true}`); blank lines, CRLF line ends and a UTF-8 byte
/// order mark at the start of the file are ignored. The whole file is one atomic ``AppendRequest``.
enum BatchParser {
    private static let fields = ["stream", "type", "data", "eventId", "metadata", "expectedVersion", "check"]
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// What the parser tracks per stream, to name both lines when two disagree.
    private struct StreamExpectation {
        var expected: ExpectedVersion
        var checkOnly: Bool
        var line: Int
    }

    /// Parses a batch.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - newEventID: Makes the id of an event line without `eventId`.
    /// - Returns: The append: entries in file order, expectations in order of first mention.
    /// - Throws: ``CommandFailure`` (bad input) whose message starts with `line N: `.
    static func parse(_ bytes: [UInt8], newEventID: () -> UUID = { .random() }) throws(CommandFailure) -> AppendRequest {
        var entries: [AppendRequest.Entry] = []
        var expectations: [StreamID: StreamExpectation] = [:]
        var expectationOrder: [StreamID] = []
        var writtenOn: [StreamID: Int] = [:]
        var idLines: [UUID: Int] = [:]

        var lineNumber = 0
        // A UTF-8 byte order mark, which some editors write, may start the file (RFC 8259 lets a parser ignore it).
        var start = bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
        while start <= bytes.count {
            lineNumber += 1
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var line = Array(bytes[start..<end])
            start = end + 1
            if line.last == 0x0D { line.removeLast() }
            if line.allSatisfy(JSONScanner.isWhitespace) { continue }
            let n = lineNumber
            func fail(_ message: String) -> CommandFailure { .invalidInput("line \(n): \(message)") }

            if line.starts(with: byteOrderMark) {
                throw fail("a byte order mark (EF BB BF) starts the line; only the file's first line may start with one")
            }
            let members: [String: JSONScanner.Member]
            do {
                members = Dictionary(uniqueKeysWithValues: try JSONScanner.objectMembers(line).map { ($0.key, $0) })
            } catch {
                throw fail("invalid JSON: \(error)")
            }
            for key in members.keys.sorted() where !fields.contains(key) {
                throw fail("unknown field \"\(key)\" (expected \(fields.map { "\"\($0)\"" }.joined(separator: ", ")))")
            }
            func string(_ key: String) throws(CommandFailure) -> String? {
                guard let m = members[key] else { return nil }
                guard m.kind == .string else { throw fail("\"\(key)\" must be a string, not \(m.kind)") }
                return JSONScanner.decodeString(line, m.range)
            }

            guard let rawStream = try string("stream") else { throw fail("missing \"stream\"") }
            let stream: StreamID
            do { stream = try StreamID(rawStream) } catch { throw fail(error.description) }

            var expected: ExpectedVersion?
            if let m = members["expectedVersion"] {
                let text: String
                switch m.kind {
                case .number: text = String(decoding: line[m.range], as: UTF8.self)
                case .string: text = JSONScanner.decodeString(line, m.range)
                default: text = ""
                }
                guard let e = ExpectedVersion(parsing: text) else {
                    throw fail(
                        "\"expectedVersion\" must be a version number or one of \"any\", \"no-stream\", \"stream-exists\"")
                }
                expected = e
            }

            var isCheck = false
            if let m = members["check"] {
                guard m.kind == .true || m.kind == .false else { throw fail("\"check\" must be true or false, not \(m.kind)") }
                isCheck = m.kind == .true
            }

            if isCheck {
                for key in ["type", "data", "eventId", "metadata"] where members[key] != nil {
                    throw fail("a check-only line may not have \"\(key)\"; it only checks the stream's version")
                }
                guard let expected else { throw fail("a check-only line needs \"expectedVersion\"") }
                if let w = writtenOn[stream] {
                    throw fail("stream '\(stream)' is check-only here but written on line \(w); a stream is either written or checked")
                }
                if let e = expectations[stream] {
                    guard e.expected == expected else {
                        throw fail("stream '\(stream)' is checked for version \(expected) here but \(e.expected) on line \(e.line)")
                    }
                    continue
                }
                expectations[stream] = StreamExpectation(expected: expected, checkOnly: true, line: n)
                expectationOrder.append(stream)
                continue
            }

            guard let type = try string("type") else { throw fail("missing \"type\"") }
            guard let dataMember = members["data"] else { throw fail("missing \"data\"") }
            let id: UUID
            if let rawID = try string("eventId") {
                guard let parsed = UUID(uuidString: rawID) else { throw fail("\"eventId\" '\(rawID)' is not a UUID") }
                id = parsed
            } else {
                id = newEventID()
            }
            if let other = idLines[id] {
                throw fail("event id \(id.uuidString.lowercased()) is also used on line \(other); each event needs its own id")
            }
            idLines[id] = n

            var metadata = EventMetadata()
            if let m = members["metadata"] {
                guard m.kind == .object else { throw fail("\"metadata\" must be an object of strings, not \(m.kind)") }
                let pairs: [JSONScanner.Member]
                do {
                    pairs = try JSONScanner.objectMembers(Array(line[m.range]))
                } catch {
                    // The scan began at the object; the column is counted from the start of the line.
                    var e = error
                    e.offset += m.range.lowerBound
                    throw fail("invalid JSON in \"metadata\": \(e)")
                }
                let value = Array(line[m.range])
                for p in pairs {
                    guard p.kind == .string else { throw fail("metadata value for \"\(p.key)\" must be a string, not \(p.kind)") }
                    metadata[p.key] = JSONScanner.decodeString(value, p.range)
                }
            }

            let data: [UInt8]
            do {
                data = try EventData.stored(Array(line[dataMember.range]), type: type, source: "\"data\"")
            } catch {
                throw fail(error.message)
            }
            let event = ProposedEvent(id: id, type: type, data: data, metadata: metadata)
            do { try EventLimits.validateEvent(event) } catch { throw fail(error.description) }

            if let e = expectations[stream], e.checkOnly {
                throw fail("stream '\(stream)' is written here but check-only on line \(e.line); a stream is either written or checked")
            }
            if let expected {
                if let e = expectations[stream] {
                    guard e.expected == expected else {
                        throw fail(
                            "stream '\(stream)' has expected version \(expected) here but \(e.expected) on line \(e.line); a stream may have only one")
                    }
                } else {
                    expectations[stream] = StreamExpectation(expected: expected, checkOnly: false, line: n)
                    expectationOrder.append(stream)
                }
            }
            if writtenOn[stream] == nil { writtenOn[stream] = n }
            entries.append(AppendRequest.Entry(stream: stream, event: event))
        }

        guard !entries.isEmpty || !expectations.isEmpty else {
            throw .invalidInput("the batch holds no events and no checks")
        }
        let request = AppendRequest(
            entries: entries,
            expectations: expectationOrder.compactMap { s in
                expectations[s].map { AppendRequest.Expectation(stream: s, expected: $0.expected, checkOnly: $0.checkOnly) }
            })
        do { try AppendPlanner.validate(request) } catch { throw .invalidInput(error.description) }
        return request
    }
}
