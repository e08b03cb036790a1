import EventLog
import Foundation
import Testing

/// The cases every ``EventImporting`` store must pass: what `pawtrail store migrate` relies on. Each backend that
/// imports runs them against a fresh, empty store of its harness:
///
/// ```swift
/// @Test(arguments: EventImportingConformance.cases)
/// func importing(_ c: EventImportingConformance.Case) async throws {
///     try await c.run(MyHarness())
/// }
/// ```
public enum EventImportingConformance {
    /// One case: its name and the check.
    public struct Case: Sendable, CustomStringConvertible {
        /// The case's name.
        public let name: String
        let check: @Sendable (any EventImporting, any StoreHarness) async throws -> Void

        /// Runs the case on a fresh harness whose store imports.
        ///
        /// - Parameter harness: A fresh harness.
        /// - Throws: When the harness's store does not import, or the case fails to run.
        public func run(_ harness: any StoreHarness) async throws {
            let store = try #require(harness.store as? any EventImporting, "the store under test does not import events")
            try await check(store, harness)
        }

        public var description: String { name }
    }

    /// Every case.
    public static let cases: [Case] = [
        Case(name: "importedEventsKeepEveryFieldAndAppendsFollowOn", check: importedEventsKeepEveryFieldAndAppendsFollowOn),
        Case(name: "eventsOfOneTimeMayShareACommitAndTheTimeIndexFindsThem", check: eventsOfOneTimeMayShareACommitAndTheTimeIndexFindsThem),
        Case(name: "importNotAtTheNextPositionIsRefused", check: importNotAtTheNextPositionIsRefused),
        Case(name: "importRecordedBeforeTheLastCommitIsRefused", check: importRecordedBeforeTheLastCommitIsRefused),
        Case(name: "importOfAVersionThatDoesNotFollowIsRefused", check: importOfAVersionThatDoesNotFollowIsRefused),
        Case(name: "importOfAnIDTheStoreHoldsIsRefused", check: importOfAnIDTheStoreHoldsIsRefused),
        Case(name: "importWithAGapOrATimeGoingBackIsRefused", check: importWithAGapOrATimeGoingBackIsRefused),
    ]

    /// A recorded event as another store would hand it over, at a fixed time in the past.
    static func recorded(_ position: UInt64, _ stream: StreamID, _ version: UInt64, at seconds: Int64, id: UUID = UUID()) -> RecordedEvent {
        let metadata = EventMetadata(["correlationId": "c-\(position)", "note": "ünïcode \(position)"])
        return RecordedEvent(
            position: position, stream: stream, version: version, type: "Imported", id: id,
            recordedAt: Timestamp(microsecondsSinceEpoch: 1_700_000_000_000_000 + seconds * 1_000_000 + 7),
            metadata: metadata, data: Array("{\"p\":\(position)}".utf8) + [0, 255])
    }

    static func importedEventsKeepEveryFieldAndAppendsFollowOn(_ store: any EventImporting, _ h: any StoreHarness) async throws {
        let source = [
            recorded(0, "a-1", 0, at: 0), recorded(1, "b-1", 0, at: 1), recorded(2, "a-1", 1, at: 2),
            recorded(3, "a-1", 2, at: 2), recorded(4, "b-1", 1, at: 9),
        ]
        try await store.importEvents(Array(source[0..<2]))
        try await store.importEvents(Array(source[2...]))
        try h.checkpoint()
        let read = try await h.store.readAll()
        #expect(read == source)
        #expect(try await h.store.streamVersion(of: "a-1") == 2)
        #expect(try await h.store.position(of: "b-1", version: 1) == 4)
        #expect(try await h.store.event(at: 3) == source[3])
        // An append after the import goes on from it, at a time no earlier than the imported ones.
        let after = try await h.store.append(to: "a-1", expected: .exact(2), [event()])
        #expect(after.firstPosition == 5)
        let appended = try #require(try await h.store.event(at: 5))
        #expect(appended.recordedAt >= source[4].recordedAt)
    }

    static func eventsOfOneTimeMayShareACommitAndTheTimeIndexFindsThem(_ store: any EventImporting, _ h: any StoreHarness) async throws {
        var source: [RecordedEvent] = []
        for i in 0..<30 {
            let stream = StreamID(unchecked: "s-\(i % 4)")
            source.append(recorded(UInt64(i), stream, UInt64(i / 4), at: Int64(i / 10)))
        }
        try await store.importEvents(source)
        try h.checkpoint()
        #expect(try await h.store.readAll() == source)
        #expect(try await h.store.lastPosition(atOrBefore: source[0].recordedAt) == 9)
        #expect(try await h.store.lastPosition(atOrBefore: source[15].recordedAt) == 19)
        #expect(try await h.store.lastPosition(atOrBefore: Timestamp(microsecondsSinceEpoch: source[0].recordedAt.microsecondsSinceEpoch - 1)) == nil)
    }

    static func importNotAtTheNextPositionIsRefused(_ store: any EventImporting, _ h: any StoreHarness) async throws {
        try await store.importEvents([recorded(0, "a-1", 0, at: 0)])
        await expectInvalidRequest { try await store.importEvents([recorded(2, "a-1", 1, at: 1)]) }
        await expectInvalidRequest { try await store.importEvents([recorded(0, "a-1", 1, at: 1)]) }
        #expect(try await h.store.lastPosition() == 0)
    }

    static func importRecordedBeforeTheLastCommitIsRefused(_ store: any EventImporting, _ h: any StoreHarness) async throws {
        try await store.importEvents([recorded(0, "a-1", 0, at: 5)])
        await expectInvalidRequest { try await store.importEvents([recorded(1, "a-1", 1, at: 4)]) }
        #expect(try await h.store.lastPosition() == 0)
    }

    static func importOfAVersionThatDoesNotFollowIsRefused(_ store: any EventImporting, _ h: any StoreHarness) async throws {
        try await store.importEvents([recorded(0, "a-1", 0, at: 0)])
        await expectInvalidRequest { try await store.importEvents([recorded(1, "a-1", 2, at: 1)]) }
        await expectInvalidRequest { try await store.importEvents([recorded(1, "b-1", 1, at: 1)]) }
        await expectInvalidRequest { try await store.importEvents([recorded(1, "b-1", 0, at: 1), recorded(2, "b-1", 0, at: 1)]) }
        #expect(try await h.store.lastPosition() == 0)
    }

    static func importOfAnIDTheStoreHoldsIsRefused(_ store: any EventImporting, _ h: any StoreHarness) async throws {
        let id = UUID()
        try await store.importEvents([recorded(0, "a-1", 0, at: 0, id: id)])
        let error = await #expect(throws: EventStoreError.self) { try await store.importEvents([recorded(1, "b-1", 0, at: 1, id: id)]) }
        #expect(error?.code == .invalidRequest || error?.code == .idempotencyConflict, "\(String(describing: error))")
        #expect(try await h.store.lastPosition() == 0)
    }

    static func importWithAGapOrATimeGoingBackIsRefused(_ store: any EventImporting, _ h: any StoreHarness) async throws {
        await expectInvalidRequest { try await store.importEvents([recorded(0, "a-1", 0, at: 0), recorded(2, "a-1", 1, at: 0)]) }
        await expectInvalidRequest { try await store.importEvents([recorded(0, "a-1", 0, at: 3), recorded(1, "a-1", 1, at: 2)]) }
        #expect(try await h.store.lastPosition() == nil)
    }
}
