import EventLog
import Events
import PawtrailJSON
import Testing

/// Every catalog event round-trips through the binary encoding and JSON, with non-default values in every
/// field: this catches a reader and writer that visit fields in different orders.
@Suite("Event catalog")
struct EventCatalogTests {
    @Test(arguments: EventCatalog.domain.entries.map(\.type))
    func everyEventRoundTrips(_ type: String) throws {
        let t = try #require(EventCatalog.domain.eventType(named: type))
        try roundTrip(t)
    }

    private func roundTrip<E: DomainEvent>(_ type: E.Type) throws {
        var sampler = SampleReader()
        let sample = try E(reading: &sampler)
        let binary = DomainEventCodec.encode(sample)
        #expect(try E.decoded(from: binary) == sample)
        let json = JSONFieldWriter.json(sample)
        let reparsed = try JSONValue.parse(Array(json.serialized.utf8))
        #expect(try E.fromJSON(reparsed) == sample)
        #expect(!E.schemaFields.isEmpty || sampler.count == 0)
        #expect(E.schemaFields.count == sampler.count, "the schema recorder saw other fields than the reader")
    }

    @Test func typeNamesAreValidAndUnique() throws {
        var seen: Set<String> = []
        for e in EventCatalog.domain.entries {
            try EventLimits.validateEventType(e.type)
            #expect(seen.insert(e.type).inserted)
            #expect(!e.summary.isEmpty)
        }
    }

    @Test func truncatedBinaryDataIsAnErrorNotACrash() throws {
        let full = DomainEventCodec.encode(AccountSignedUp(userId: "u", name: "Ann", email: "a@b.co", language: .bnBD))
        for cut in 0..<full.count {
            #expect(throws: FieldError.self) { try AccountSignedUp.decoded(from: Array(full.prefix(cut))) }
        }
        #expect(throws: FieldError.self) { try AccountSignedUp.decoded(from: full + [0]) }
    }

    @Test func unknownJSONFieldsAreRejected() throws {
        let json = try JSONValue.parse(Array(#"{"userId":"u","nmae":"Ann","name":"Ann","email":"a@b.co","language":"en-US"}"#.utf8))
        #expect(throws: FieldError(field: "nmae", message: "is not a field of this value")) {
            try AccountSignedUp.fromJSON(json)
        }
    }

    /// An integer too long for 64 bits is out of range, not "a number with a fraction or exponent" (as
    /// `pos sell --lines '[{"productId":"p1","quantity":99999999999999999999}]'` reports it).
    @Test func integersBeyondSixtyFourBitsAreReportedOutOfRange() throws {
        for digits in ["99999999999999999999", "-9999999999999999999"] {
            let json = try JSONValue.parse(Array(#"{"productId":"p1","quantity":\#(digits)}"#.utf8))
            #expect(throws: FieldError(field: "quantity", message: "expected an integer between -2^63 and 2^63-1")) {
                try StockReceived.fromJSON(json)
            }
        }
        for number in ["1.5", "1e3", "99999999999999999999.0"] {
            let json = try JSONValue.parse(Array(#"{"productId":"p1","quantity":\#(number)}"#.utf8))
            #expect(throws: FieldError(field: "quantity", message: "expected an integer, found a number with a fraction or exponent")) {
                try StockReceived.fromJSON(json)
            }
        }
    }
}

/// Answers every field with a distinct, non-default value.
struct SampleReader: FieldReader {
    var count = 0

    private mutating func next() -> Int64 {
        count += 1
        return Int64(count) * 7 + 1_000
    }

    mutating func string(_ key: String) throws(FieldError) -> String { "\(key)-\(next())-é" }
    mutating func optionalString(_ key: String) throws(FieldError) -> String? { try string(key) }
    mutating func int(_ key: String) throws(FieldError) -> Int64 { next() }
    mutating func optionalInt(_ key: String) throws(FieldError) -> Int64? { next() }
    mutating func bool(_ key: String) throws(FieldError) -> Bool { next() % 2 == 0 }
    mutating func timestamp(_ key: String) throws(FieldError) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: 1_790_000_000_000_000 + next() * 1_000_001)
    }
    mutating func optionalTimestamp(_ key: String) throws(FieldError) -> Timestamp? { try timestamp(key) }
    mutating func money(_ key: String) throws(FieldError) -> Money { Money(next(), "BDT") }
    mutating func optionalMoney(_ key: String) throws(FieldError) -> Money? { Money(next(), "USD") }
    mutating func strings(_ key: String) throws(FieldError) -> [String] { ["\(key)-\(next())", "b"] }
    mutating func choice<C: FieldChoice>(_ key: String, _ type: C.Type) throws(FieldError) -> C {
        count += 1
        return C.allCases.dropFirst().first ?? C.allCases.first!
    }
    mutating func optionalChoice<C: FieldChoice>(_ key: String, _ type: C.Type) throws(FieldError) -> C? {
        try choice(key, type)
    }
    mutating func records<R: FieldCodable>(_ key: String, _ type: R.Type) throws(FieldError) -> [R] {
        count += 1
        var inner = SampleReader(count: count * 100)
        return [try R(reading: &inner), try R(reading: &inner)]
    }
}
