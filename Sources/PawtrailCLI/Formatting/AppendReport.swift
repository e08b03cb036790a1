import PawtrailJSON
import EventLog

/// How `log append` reports an ``AppendResult``.
enum AppendReport {
    /// How many streams the human sentence names before summarizing the rest.
    static let maxStreamsNamed = 10

    /// `{"firstPosition":P,"lastPosition":Q,"streams":[{"stream":S,"version":V}]}`, plus
    /// `"alreadyCommitted":true` for an identical retry. A stream without events has version `"no-stream"`.
    static func json(_ result: AppendResult) -> JSONValue {
        var pairs: [JSONValue.Pair] = [
            .init(key: "firstPosition", value: .uint(result.firstPosition)),
            .init(key: "lastPosition", value: .uint(result.lastPosition)),
            .init(
                key: "streams",
                value: .array(
                    result.streams.map { s in
                        .object([
                            "stream": .string(s.stream.rawValue),
                            "version": s.version.map { .uint($0) } ?? .string("no-stream"),
                        ])
                    })),
        ]
        if result.wasAlreadyCommitted { pairs.append(.init(key: "alreadyCommitted", value: .bool(true))) }
        return .object(pairs)
    }

    /// A sentence: `Appended 1 event to order-42 at version 0 (position 17).` for a single event,
    /// `Appended 5 events (positions 10-14): order-42 at version 2, inventory-litter at version 7.` for a
    /// batch; `Already committed: ...` for an identical retry.
    ///
    /// - Parameters:
    ///   - result: The append's result.
    ///   - single: Whether the append was one event given by `--stream` (the shorter sentence).
    static func sentence(_ result: AppendResult, single: Bool) -> String {
        let count = result.firstPosition.flatMap { f in result.lastPosition.map { l in l >= f ? l - f + 1 : 0 } } ?? 0
        let prefix = result.wasAlreadyCommitted ? "Already committed: \(events(count))" : "Appended \(events(count))"
        if single, count == 1, let s = result.streams.first, let p = result.firstPosition {
            return "\(prefix) to \(s.stream) at \(version(s.version)) (position \(p))."
        }
        var text = prefix
        if let f = result.firstPosition, let l = result.lastPosition {
            text += f == l ? " (position \(f))" : " (positions \(f)-\(l))"
        }
        if result.streams.isEmpty {
            return count == 0 ? "\(text); every check passed." : "\(text)."
        }
        // A bulk import can name thousands of streams; the sentence names the first few.
        var streams = result.streams.prefix(maxStreamsNamed).map { "\($0.stream) at \(version($0.version))" }
        if result.streams.count > maxStreamsNamed { streams.append("and \(result.streams.count - maxStreamsNamed) more streams") }
        return "\(text): \(streams.joined(separator: ", "))."
    }

    private static func events(_ n: UInt64) -> String { n == 1 ? "1 event" : "\(n) events" }

    private static func version(_ v: UInt64?) -> String { v.map { "version \($0)" } ?? "no stream" }
}
