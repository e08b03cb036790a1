import EventLog
@testable import EventLogTestKit
import EventLogFile
import Foundation
import Testing

/// A store opened with ``FileEventStoreOptions/loadsOnFirstUse`` answers where the log ends from its head file, and
/// reads the log only when asked for events.
@Suite struct FileStoreLoadOnFirstUseTests {
    private func lazy(_ dir: TemporaryDirectory) throws -> FileEventStore { try lazy(dir.path) }

    private func lazy(_ path: String) throws -> FileEventStore {
        var options = FileEventStoreOptions()
        options.loadsOnFirstUse = true
        return try FileEventStore.open(path: path, options: options)
    }

    @Test func theHeadAnswersUntilTheFirstReadAndTheReadsAreTheEagerStoresOnes() async throws {
        let dir = TemporaryDirectory()
        let writer = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        for i in 0..<3 {
            _ = try await writer.append(AppendRequest(stream: stream("order-\(i)"), events: [ProposedEvent.json("OrderNoted", #"{"n":\#(i)}"#)]))
        }
        let last = try #require(try await writer.read(ReadRequest(source: .all, from: 2, limit: 1)).events.first)

        let reader = try lazy(dir)
        #expect(try await reader.knownHead() == LogHead(position: 2, recordedAt: last.recordedAt))
        #expect(try await reader.lastPosition() == 2)
        // Another process's append moves the head, and the reader sees it without reading the log.
        _ = try await writer.append(AppendRequest(stream: stream("order-9"), events: [ProposedEvent.json("OrderNoted", #"{"n":9}"#)]))
        #expect(try await reader.lastPosition() == 3)
        #expect(try await reader.knownHead()?.position == 3)

        var lazyEvents: [RecordedEvent] = []
        try await reader.forEachPage(.all, pageSize: 2) { lazyEvents += $0; return true }
        var eagerEvents: [RecordedEvent] = []
        try await writer.forEachPage(.all, pageSize: 2) { eagerEvents += $0; return true }
        #expect(lazyEvents.map(\.id) == eagerEvents.map(\.id) && lazyEvents.count == 4)
        // Once it has read the log, it answers as an eager store does, and no longer from the head alone.
        #expect(try await reader.knownHead() == nil)
        #expect(try await reader.lastPosition() == 3)
        #expect(try await reader.streamVersion(of: stream("order-1")) == 0)
    }

    @Test func anEmptyStoreHasNoHead() async throws {
        let dir = TemporaryDirectory()
        _ = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        let reader = try lazy(dir)
        #expect(try await reader.knownHead() == nil)
        #expect(try await reader.lastPosition() == nil)
    }

    @Test func aMissingStoreIsRefusedAsWhenOpenedEagerly() throws {
        let dir = TemporaryDirectory()
        #expect(throws: EventStoreError.self) { _ = try lazy(dir.path + "/missing") }
    }

    @Test func anEagerStoreNeverAnswersFromItsHead() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        _ = try await store.append(AppendRequest(stream: stream("order-1"), events: [ProposedEvent.json("OrderNoted", "{}")]))
        #expect(try await store.knownHead() == nil)
        #expect(try await store.lastPosition() == 0)
    }
}
