import EventLog
import Events
import PawtrailJSON
import ProjectionRuntime

/// One stream's story: each event with its position, times, actor and causing command, and what it changed in
/// the stream's state, so a person can see why the thing ended as it did.
struct StreamStory {
    /// One change of one key.
    struct Change {
        var key: String
        var before: String?
        var after: String?
    }

    /// One event and its changes.
    struct Entry {
        var event: RecordedEvent
        var data: JSONValue?
        var changes: [Change]
    }

    /// How the state after each event is worked out: from every event so far, as key paths and values.
    typealias StateFunction = ([RecordedEvent]) throws -> [String: String]

    /// The default state of any stream: every field its events carried, the latest value winning, plus the type of
    /// the last event.
    static func mergedFields(_ events: [RecordedEvent]) -> [String: String] {
        var state: [String: String] = [:]
        for e in events {
            state["lastEvent"] = "\"\(e.type)\""
            guard let json = EventFormatter.domainJSON(e) ?? (try? JSONValue.parse(e.data)) else { continue }
            for (k, v) in StateFlattener.flatten(json) where !k.isEmpty { state[k] = v }
        }
        return state
    }

    /// The story of the events given (a stream's, up to a moment).
    static func tell(_ events: [RecordedEvent], state: StateFunction = mergedFields) throws -> [Entry] {
        var before: [String: String] = [:]
        var entries: [Entry] = []
        for n in events.indices {
            let after = try state(Array(events[...n]))
            let changes = Set(before.keys).union(after.keys).sorted().compactMap { key -> Change? in
                before[key] == after[key] ? nil : Change(key: key, before: before[key], after: after[key])
            }
            entries.append(Entry(event: events[n], data: data(of: events[n]), changes: changes))
            before = after
        }
        return entries
    }

    /// An event's data as JSON: a domain event's fields, or the JSON a raw event (`log append`) holds, minified;
    /// `nil` for data that is not JSON.
    static func data(of event: RecordedEvent) -> JSONValue? {
        if let domain = EventFormatter.domainJSON(event) { return domain }
        guard let range = try? JSONScanner.validate(event.data).range else { return nil }
        return .raw(JSONScanner.minified(event.data[range]))
    }

    static func json(_ entry: Entry) -> JSONValue {
        let m = entry.event.metadata
        return .object([
            "position": .uint(entry.event.position), "version": .uint(entry.event.version), "type": .string(entry.event.type),
            "recordedAt": .string(entry.event.recordedAt.iso8601), "occurredAt": .string(m["occurredAt"]),
            "actor": .string(m[EventMetadata.actor]), "role": .string(m["role"]), "actedFor": .string(m["actedFor"]),
            "command": .string(m["command"]),
            "causationId": .string(m[EventMetadata.causationID]), "correlationId": .string(m[EventMetadata.correlationID]),
            "data": entry.data ?? .null,
            "changes": .array(
                entry.changes.map { .object(["key": .string($0.key), "before": .raw(Array(($0.before ?? "null").utf8)), "after": .raw(Array(($0.after ?? "null").utf8))]) }),
        ])
    }

    static func lines(_ entry: Entry) -> [String] {
        let m = entry.event.metadata
        var head = "#\(entry.event.position)  \(m["occurredAt"] ?? entry.event.recordedAt.iso8601)  \(entry.event.type)"
        if let actor = m[EventMetadata.actor] {
            head += "  by \(actor)" + (m["role"].map { " (\($0))" } ?? "") + (m["actedFor"].map { " for \($0)" } ?? "")
        }
        if let command = m["command"] { head += "  via \(command)" }
        var out = [head]
        for c in entry.changes {
            switch (c.before, c.after) {
            case (nil, let a?): out.append("      + \(c.key): \(a)")
            case (let b?, nil): out.append("      - \(c.key): \(b)")
            case (let b?, let a?): out.append("      ~ \(c.key): \(b) → \(a)")
            case (nil, nil): break
            }
        }
        return out
    }
}
