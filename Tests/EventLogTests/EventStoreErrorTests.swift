import EventLog
@testable import EventLogTestKit
import Foundation
import Testing

/// ``EventStoreError``: codes to branch on, the details each code carries, and messages that name no tool's options.
@Suite struct EventStoreErrorTests {
    @Test func `a catch by code takes that code alone`() {
        func code(of error: EventStoreError) -> String {
            do {
                throw error
            } catch EventStoreError.Code.wrongExpectedVersion {
                return "conflict"
            } catch EventStoreError.Code.outcomeUnknown {
                return "unknown"
            } catch {
                return "other"
            }
        }
        #expect(code(of: .wrongExpectedVersion(stream: "cart-1", expected: .noStream, actual: 3)) == "conflict")
        #expect(code(of: .outcomeUnknown("connection lost during COMMIT")) == "unknown")
        #expect(code(of: .timedOut("lock_timeout")) == "other")
        #expect(!(EventStoreError.Code.corrupted ~= (CocoaError(.fileNoSuchFile) as any Error)))
    }

    @Test func `each code carries its details, and the others none`() {
        let conflict = EventStoreError.wrongExpectedVersion(stream: "cart-1", expected: .exact(2), actual: nil)
        #expect(conflict.conflict?.stream == "cart-1")
        #expect(conflict.conflict?.expected == .exact(2))
        #expect(conflict.conflict.map { $0.actual == nil } == true)
        #expect(conflict.eventID == nil && conflict.location == nil && conflict.offset == nil && conflict.errno == nil)

        let id = UUID()
        let duplicate = EventStoreError.idempotencyConflict(eventID: id, reason: "different content")
        #expect(duplicate.eventID == id && duplicate.reason == "different content" && duplicate.conflict == nil)

        let damage = EventStoreError.corrupted(location: "segments/0.seg", offset: 4096, reason: "bad checksum")
        #expect(damage.location == "segments/0.seg" && damage.offset == 4096 && damage.reason == "bad checksum")
        #expect(damage.description == "corrupt data in segments/0.seg at offset 4096: bad checksum")
        // A store without byte offsets (a database row) names the place alone.
        #expect(EventStoreError.corrupted(location: "table events", offset: nil, reason: "x").description == "corrupt data in table events: x")

        let io = EventStoreError.io(operation: "fdatasync", path: "/s/head", errno: EIO)
        #expect(io.errno == EIO && io.location == "/s/head" && io.code == .io)
    }

    @Test func `errors compare by code and details`() {
        #expect(EventStoreError.unavailable("down") == .unavailable("down"))
        #expect(EventStoreError.unavailable("down") != .timedOut("down"))
        #expect(EventStoreError.storeNotFound(location: "/a") != .storeNotFound(location: "/b"))
        #expect(Set([EventStoreError.Code.io, .io, .corrupted]).count == 2)
    }

    @Test func `messages name the store, not a tool's options`() {
        let missing = EventStoreError.storeNotFound(location: "/srv/shop")
        #expect(missing.description == "no store at /srv/shop")
        #expect(!missing.description.contains("--store"))
        #expect(EventStoreError.Code.outcomeUnknown.description == "outcome-unknown")
        #expect(EventStoreError.Code.wrongExpectedVersion.description == "wrong-expected-version")
    }
}
