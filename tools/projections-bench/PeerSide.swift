import BenchSupport
import PawtrailSQLite
import EventLog
import Events
import EventLogFile
import EventLogSealing
import Foundation
import Projections

/// The peer: a Swift application that keeps the same events as JSON in an SQLite table and folds them with
/// Foundation's JSONDecoder. It reads the table in position order (only the types some projection lists, filtered
/// by SQLite, as such an application would write it), decodes each event's metadata and data with JSONDecoder, and
/// applies the same projections' `apply` functions.
struct PeerFold {
    func rebuild(sqlitePath path: String, types: TypeSelection) throws -> RebuildOutcome {
        let set = FoldSet(types)
        let database = try SQLiteDatabase(path: path, create: false)
        var sql = "SELECT position, stream, type, recorded_at, metadata, data FROM events"
        if types == .projections {
            sql += " WHERE type IN (" + set.decodedTypes.sorted().map { "'\($0)'" }.joined(separator: ",") + ")"
        }
        sql += " ORDER BY position"
        let select = try database.prepare(sql)
        // One decoder per event type, told the type through userInfo: JSONDecoder picks the Decodable type
        // statically, so the wrapper learns which event to read from there.
        var decoders: [String: JSONDecoder] = [:]
        for name in set.decodedTypes {
            let decoder = JSONDecoder()
            decoder.userInfo[DecodedEvent.typeKey] = name
            decoders[name] = decoder
        }
        let metadataDecoder = JSONDecoder()
        var outcome = RebuildOutcome()
        while try select.step() {
            outcome.eventsRead += 1
            let type = select.columnText(2)
            guard let route = set.routes[type], let decoder = decoders[type] else { continue }
            let metadata = try metadataDecoder.decode([String: String].self, from: Data(select.columnBytes(4)))
            let event = try decoder.decode(DecodedEvent.self, from: Data(select.columnBytes(5))).event
            outcome.eventsDecoded += 1
            guard !route.folds.isEmpty else { continue }
            let projected = ProjectedEvent(
                position: UInt64(select.columnInt64(0)), stream: StreamID(unchecked: select.columnText(1)),
                recordedAt: Timestamp(microsecondsSinceEpoch: select.columnInt64(3)), metadata: EventMetadata(metadata),
                event: event)
            for fold in route.folds { try fold.apply(projected) }
            outcome.applications += route.folds.count
        }
        outcome.states = set.states()
        return outcome
    }
}

/// Adapts our events to `Decodable`: `init(from:)` runs the event type's `init(reading:)` through a ``FieldReader``
/// over JSONDecoder's keyed container, so JSONDecoder does all the parsing and the fields are read exactly as the
/// events declare them.
struct DecodedEvent: Decodable {
    /// The `userInfo` key holding the event type's name.
    static let typeKey = CodingUserInfoKey(rawValue: "pawtrail.eventType")!

    var event: any DomainEvent

    init(from decoder: any Decoder) throws {
        guard let name = decoder.userInfo[Self.typeKey] as? String, let type = EventCatalog.domain.eventType(named: name) else {
            throw FieldError(field: "", message: "no event type given to the decoder")
        }
        var reader = ContainerFieldReader(try decoder.container(keyedBy: JSONKey.self))
        event = try Self.read(type, &reader)
    }

    private static func read<E: DomainEvent>(_ type: E.Type, _ reader: inout ContainerFieldReader) throws(FieldError) -> any DomainEvent {
        try E(reading: &reader)
    }
}

/// Any JSON member name as a coding key.
struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A ``FieldReader`` over a keyed decoding container: each field is one `decode` call on JSONDecoder's container,
/// the way a hand-written `init(from:)` reads it. Money is `{"amount", "currency"}`, times are ISO-8601 text and
/// records are arrays of objects, as ``JSONFieldWriter`` writes them.
struct ContainerFieldReader: FieldReader {
    let container: KeyedDecodingContainer<JSONKey>

    init(_ container: KeyedDecodingContainer<JSONKey>) {
        self.container = container
    }

    private func attempt<T>(_ key: String, _ body: () throws -> T) throws(FieldError) -> T {
        do {
            return try body()
        } catch let error as FieldError {
            throw error
        } catch {
            throw FieldError(field: key, message: "\(error)")
        }
    }

    private func time(_ key: String, _ text: String) throws(FieldError) -> Timestamp {
        guard let t = Timestamp(iso8601: text) else { throw FieldError(field: key, message: "'\(text)' is not an ISO-8601 time") }
        return t
    }

    private static func money(_ c: KeyedDecodingContainer<JSONKey>) throws -> Money {
        Money(try c.decode(Int64.self, forKey: JSONKey("amount")), try c.decode(String.self, forKey: JSONKey("currency")))
    }

    mutating func string(_ key: String) throws(FieldError) -> String {
        try attempt(key) { try container.decode(String.self, forKey: JSONKey(key)) }
    }

    mutating func optionalString(_ key: String) throws(FieldError) -> String? {
        try attempt(key) { try container.decodeIfPresent(String.self, forKey: JSONKey(key)) }
    }

    mutating func int(_ key: String) throws(FieldError) -> Int64 {
        try attempt(key) { try container.decode(Int64.self, forKey: JSONKey(key)) }
    }

    mutating func optionalInt(_ key: String) throws(FieldError) -> Int64? {
        try attempt(key) { try container.decodeIfPresent(Int64.self, forKey: JSONKey(key)) }
    }

    mutating func bool(_ key: String) throws(FieldError) -> Bool {
        try attempt(key) { try container.decode(Bool.self, forKey: JSONKey(key)) }
    }

    mutating func timestamp(_ key: String) throws(FieldError) -> Timestamp {
        try time(key, try string(key))
    }

    mutating func optionalTimestamp(_ key: String) throws(FieldError) -> Timestamp? {
        guard let text = try optionalString(key) else { return nil }
        return try time(key, text)
    }

    mutating func money(_ key: String) throws(FieldError) -> Money {
        try attempt(key) { try Self.money(try container.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey(key))) }
    }

    mutating func optionalMoney(_ key: String) throws(FieldError) -> Money? {
        try attempt(key) {
            guard try container.contains(JSONKey(key)) && !container.decodeNil(forKey: JSONKey(key)) else { return nil }
            return try Self.money(try container.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey(key)))
        }
    }

    mutating func strings(_ key: String) throws(FieldError) -> [String] {
        try attempt(key) { try container.decodeIfPresent([String].self, forKey: JSONKey(key)) ?? [] }
    }

    mutating func choice<C: FieldChoice>(_ key: String, _ type: C.Type) throws(FieldError) -> C {
        try C.parse(try string(key), key: key)
    }

    mutating func optionalChoice<C: FieldChoice>(_ key: String, _ type: C.Type) throws(FieldError) -> C? {
        guard let raw = try optionalString(key) else { return nil }
        return try C.parse(raw, key: key)
    }

    mutating func records<R: FieldCodable>(_ key: String, _ type: R.Type) throws(FieldError) -> [R] {
        try attempt(key) {
            guard container.contains(JSONKey(key)) else { return [] }
            var items = try container.nestedUnkeyedContainer(forKey: JSONKey(key))
            var out: [R] = []
            while !items.isAtEnd {
                var reader = ContainerFieldReader(try items.nestedContainer(keyedBy: JSONKey.self))
                out.append(try R(reading: &reader))
            }
            return out
        }
    }
}

/// Checks that the peer's adapter reads back exactly the events our codec stores: every `stride`-th event of the
/// SQLite table, decoded with JSONDecoder through ``DecodedEvent``, must equal the same position's event decoded
/// from the file store. The state check only covers the types projections list; this covers every type.
enum PeerAdapterCheck {
    static func run(storePath: String, sqlitePath: String, stride: Int) async throws -> Int {
        let database = try SQLiteDatabase(path: sqlitePath, create: false)
        let select = try database.prepare("SELECT position, type, data FROM events WHERE position % \(stride) = 0 ORDER BY position")
        var decoders: [String: JSONDecoder] = [:]
        var checked = 0
        let file = try FileEventStore.open(path: storePath)
        defer { file.close() }
        let store = SealingEventStore(base: file, keys: FilePersonalDataKeys(storePath: storePath))
        var hasRow = try select.step()
        try await store.forEachPage(.all, pageSize: 4_096) { page in
            for recorded in page where recorded.position % UInt64(stride) == 0 {
                guard hasRow, UInt64(select.columnInt64(0)) == recorded.position, select.columnText(1) == recorded.type else {
                    throw FoldError("the SQLite table and the store disagree at position \(recorded.position)")
                }
                let type = recorded.type
                let decoder = decoders[type] ?? {
                    let d = JSONDecoder()
                    d.userInfo[DecodedEvent.typeKey] = type
                    decoders[type] = d
                    return d
                }()
                let theirs = try decoder.decode(DecodedEvent.self, from: Data(select.columnBytes(2))).event
                guard let ours = try EventCatalog.domain.decode(type: type, data: recorded.data), Self.equal(ours, theirs) else {
                    throw FoldError("the peer reads event \(recorded.position) (\(type)) differently: \(theirs)")
                }
                checked += 1
                hasRow = try select.step()
            }
            return true
        }
        return checked
    }

    private static func equal<E: DomainEvent>(_ a: E, _ b: any DomainEvent) -> Bool {
        (b as? E) == a
    }
}
