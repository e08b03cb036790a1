import PawtrailJSON
import EventLog
import Events
import Foundation

/// How `log read` and `log tail` print events: one JSON object per line, or one aligned human line.
enum EventFormatter {
    /// The width human lines are cut to.
    static let lineWidth = 120

    /// One event as a JSON object: data embedded raw when it is valid JSON (minified, so it stays on one
    /// line), else as `dataBase64`.
    static func json(_ event: RecordedEvent) -> JSONValue {
        var pairs: [JSONValue.Pair] = [
            .init(key: "position", value: .uint(event.position)),
            .init(key: "stream", value: .string(event.stream.rawValue)),
            .init(key: "version", value: .uint(event.version)),
            .init(key: "type", value: .string(event.type)),
            .init(key: "eventId", value: .string(event.id.uuidString.lowercased())),
            .init(key: "recordedAt", value: .string(event.recordedAt.iso8601)),
            .init(key: "metadata", value: metadataJSON(event.metadata)),
        ]
        if let domain = domainJSON(event) {
            pairs.append(.init(key: "data", value: domain))
        } else if let range = try? JSONScanner.validate(event.data).range {
            pairs.append(.init(key: "data", value: .raw(JSONScanner.minified(event.data[range]))))
        } else {
            pairs.append(.init(key: "dataBase64", value: .string(Data(event.data).base64EncodedString())))
        }
        return .object(pairs)
    }

    /// Metadata as a JSON object of strings, keys sorted (as the log keeps them).
    static func metadataJSON(_ metadata: EventMetadata) -> JSONValue {
        .object(metadata.pairs.map { JSONValue.Pair(key: $0.key, value: .string($0.value)) })
    }

    /// One event as a human line: position, time, stream@version, type and as much data as fits.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - width: The columns available (less than ``lineWidth`` when the caller indents).
    static func line(_ event: RecordedEvent, width: Int = lineWidth) -> String {
        let position = String(event.position)
        let head = String(repeating: " ", count: max(0, 7 - position.count)) + position + "  "
            + event.recordedAt.iso8601 + "  \(event.stream)@\(event.version)  \(event.type)  "
        let text = domainJSON(event)?.serialized ?? dataText(event.data)
        return head + truncated(text, to: max(24, width - head.count))
    }

    /// A catalog event's data as JSON (the log holds it in the domain's binary encoding); `nil` for raw events.
    /// Data of a catalog type that fails to decode is shown as raw bytes rather than hiding the event.
    static func domainJSON(_ event: RecordedEvent) -> JSONValue? {
        (try? EventCatalog.domain.json(type: event.type, data: event.data)) ?? nil
    }

    /// The data as one line of text: JSON minified, other text as is with line breaks flattened, binary as
    /// a byte count.
    static func dataText(_ data: [UInt8]) -> String {
        if let range = try? JSONScanner.validate(data).range {
            return String(decoding: JSONScanner.minified(data[range]), as: UTF8.self)
        }
        guard let text = String(validating: data, as: UTF8.self),
            !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
        else {
            return "<\(data.count) bytes of binary data>"
        }
        return text.replacing("\r\n", with: " ").replacing("\n", with: " ").replacing("\t", with: " ")
    }

    /// Cuts text to a number of characters, marking the cut with an ellipsis.
    static func truncated(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        return String(text.prefix(max(0, width - 1))) + "…"
    }
}
