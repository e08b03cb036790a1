import EventLog
import EventLogFile
import EventLogMemory
import EventLogSealing
import Foundation
@testable import EventLogTestKit
import Testing

/// The sealing store over the in-memory reference: it passes the whole store conformance kit (it must change
/// nothing but personal sections), seals what it stores, and erases by destroying keys.
@Suite("Personal data: the sealing store")
struct SealingEventStoreTests {
    final class SealingHarness: StoreHarness {
        let base = InMemoryEventStore()
        let keys = MemoryPersonalDataKeys()
        let store: any EventStore
        init() { store = SealingEventStore(base: base, keys: keys) }
    }

    @Test(arguments: EventStoreConformance.cases)
    func conformance(_ c: EventStoreConformance.Case) async throws {
        try await c.run(SealingHarness())
    }

    /// An event with a body and a section of plain values about a subject.
    static func personal(_ values: [String], subject: String = "u-ann", id: UUID = .random()) -> ProposedEvent {
        let data = PersonalSection(subject: subject, content: .plain(values)).data(schemaVersion: 1, body: [7, 7])
        return ProposedEvent(id: id, type: "ProfileUpdated", data: data)
    }

    static func erasing(_ subject: String) -> ProposedEvent {
        ProposedEvent(type: "AccountDeleted", data: PersonalSection(subject: subject, content: .erasesSubject).data(schemaVersion: 1, body: []))
    }

    static func section(_ data: [UInt8]) throws -> PersonalSection.Content {
        try #require(PersonalSection.parse(data)).1.content
    }

    @Test func `what the store underneath holds is sealed, and reads back in the clear`() async throws {
        let h = SealingHarness()
        _ = try await h.store.append(AppendRequest(stream: StreamID("account-u-ann"), events: [Self.personal(["Ann Quokka", "+8801712345678"])]))
        let stored = try #require(try await h.base.event(at: 0))
        guard case .sealed = try Self.section(stored.data) else { Issue.record("stored \(stored.data)"); return }
        #expect(stored.data.firstRange(of: Array("Quokka".utf8)) == nil)
        #expect(stored.data.firstRange(of: Array("8801712345678".utf8)) == nil)
        let read = try #require(try await h.store.event(at: 0))
        #expect(try Self.section(read.data) == .plain(["Ann Quokka", "+8801712345678"]))
        #expect(read.data.starts(with: [1, 1, 2, 7, 7]))
        let batch = try await h.store.read(ReadRequest(source: .all, from: 0, limit: 10))
        #expect(try Self.section(batch.events[0].data) == .plain(["Ann Quokka", "+8801712345678"]))
    }

    @Test func `an append re-sent with the same event id is the same append`() async throws {
        let h = SealingHarness()
        let id = UUID.random()
        let first = try await h.store.append(AppendRequest(stream: StreamID("account-u-ann"), events: [Self.personal(["Ann"], id: id)]))
        let again = try await h.store.append(AppendRequest(stream: StreamID("account-u-ann"), events: [Self.personal(["Ann"], id: id)]))
        #expect(again.wasAlreadyCommitted && again.firstPosition == first.firstPosition)
        #expect(try await h.base.lastPosition() == 0)
        await #expect(throws: EventStoreError.self) {
            try await h.store.append(AppendRequest(stream: StreamID("account-u-ann"), events: [Self.personal(["Bob"], id: id)]))
        }
    }

    @Test func `an erasing event destroys the key: the subject's values read as erased, other subjects' do not`() async throws {
        let h = SealingHarness()
        _ = try await h.store.append(AppendRequest(stream: StreamID("account-u-ann"), events: [Self.personal(["Ann"])]))
        _ = try await h.store.append(AppendRequest(stream: StreamID("account-u-bob"), events: [Self.personal(["Bob"], subject: "u-bob")]))
        _ = try await h.store.append(AppendRequest(stream: StreamID("account-u-ann"), events: [Self.erasing("u-ann")]))
        #expect(try await h.keys.key(for: "u-ann") == nil)
        #expect(try Self.section(try #require(try await h.store.event(at: 0)).data) == .erased)
        #expect(try Self.section(try #require(try await h.store.event(at: 1)).data) == .plain(["Bob"]))
        // Data naming an erased subject is stored erased: it never gets a key again.
        _ = try await h.store.append(AppendRequest(stream: StreamID("conversation-c-1"), events: [Self.personal(["about Ann"])]))
        #expect(try Self.section(try #require(try await h.base.event(at: 3)).data) == .erased)
        #expect(try await h.keys.key(for: "u-ann") == nil)
    }

    @Test func `an erasure cut off before the key was destroyed is finished by the next reader of the erasing event`() async throws {
        let h = SealingHarness()
        _ = try await h.store.append(AppendRequest(stream: StreamID("account-u-ann"), events: [Self.personal(["Ann"])]))
        // The erasing event appended beneath the sealing layer: as if the process stopped before destroying the key.
        _ = try await h.base.append(AppendRequest(stream: StreamID("account-u-ann"), events: [Self.erasing("u-ann")]))
        #expect(try await h.keys.key(for: "u-ann") != nil)
        _ = try await h.store.read(ReadRequest(source: .stream(StreamID("account-u-ann")), from: 0, limit: 10))
        #expect(try await h.keys.key(for: "u-ann") == nil)
        #expect(try Self.section(try #require(try await h.store.event(at: 0)).data) == .erased)
    }

    @Test func `a sealed section that does not open under its key is damage, not erasure`() async throws {
        let h = SealingHarness()
        _ = try await h.store.append(AppendRequest(stream: StreamID("account-u-ann"), events: [Self.personal(["Ann"])]))
        let stored = try #require(try await h.base.event(at: 0))
        guard case .sealed(let nonce, var ciphertext) = try Self.section(stored.data) else { Issue.record("not sealed"); return }
        ciphertext[0] ^= 1
        let key = try #require(try await h.keys.key(for: "u-ann"))
        #expect(Sealer.open(nonce: nonce, ciphertext: ciphertext, key: key, eventID: stored.id, subject: "u-ann") == nil)
        #expect(Sealer.open(nonce: nonce, ciphertext: try #require({ if case .sealed(_, let c) = try Self.section(stored.data) { c } else { nil } }()), key: key, eventID: .random(), subject: "u-ann") == nil)
        #expect(Sealer.open(nonce: nonce, ciphertext: ciphertext, key: Sealer.newKey(), eventID: stored.id, subject: "u-ann") == nil)
    }

    @Test func `malformed sections are not taken for personal data`() {
        #expect(PersonalSection.parse([1]) == nil)
        #expect(PersonalSection.parse([1, 1, 9, 0]) == nil)
        #expect(PersonalSection.parse([1, 1, 0, 7, 0]) == nil)
        #expect(PersonalSection.parse([1, 1, 0, 0, 1, 65, 5]) == nil)
        #expect(PersonalSection.parse([1, 1, 0, 2, 1, 65, 0, 0]) == nil)
        let ok = PersonalSection(subject: "A", content: .plain(["x", ""])).data(schemaVersion: 3, body: [])
        #expect(PersonalSection.parse(ok)?.1 == PersonalSection(subject: "A", content: .plain(["x", ""])))
        #expect(PersonalSection.parse(ok + [0]) == nil)
    }

    @Test func `file keys persist, are shared by instances, and leave no key bytes once destroyed`() async throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let keys = FilePersonalDataKeys(storePath: dir)
        #expect(try await keys.key(for: "u-ann") == nil)
        let key = try #require(try await keys.createKey(for: "u-ann", make: Sealer.newKey))
        #expect(try await FilePersonalDataKeys(storePath: dir).key(for: "u-ann") == key)
        #expect(try await FilePersonalDataKeys(storePath: dir).createKey(for: "u-ann", make: Sealer.newKey) == key)
        try await keys.destroyKey(for: "u-ann")
        #expect(try await keys.key(for: "u-ann") == nil)
        #expect(try await FilePersonalDataKeys(storePath: dir).key(for: "u-ann") == nil)
        #expect(try await FilePersonalDataKeys(storePath: dir).createKey(for: "u-ann", make: Sealer.newKey) == nil, "an erased subject gets no new key")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/keys")
        #expect(files == ["752d616e6e.erased"])
        #expect(try FileManager.default.attributesOfItem(atPath: dir + "/keys/752d616e6e.erased")[.size] as? Int == 0)
    }
}
