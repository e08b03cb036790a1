import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import Testing

/// A process that appended many events leaves a checkpoint at close. ``FileEventStore/close()`` takes it as soon as
/// its last append is acknowledged, while the committer still indexes and frees the group: the checkpoint must
/// still cover every event of that group, whatever the two threads' order.
@Suite struct CheckpointAtCloseTests {
    @Test(arguments: [FileEventStoreOptions.Durability.sync, .noSync])
    func `a checkpoint taken as the last group is indexed covers all of it`(durability: FileEventStoreOptions.Durability) async throws {
        let options = FileEventStoreOptions(createIfMissing: true, durability: durability, checkpointInterval: 1_000_000)
        for round in 0..<5 {
            let dir = try TemporaryDirectory()
            let store = try FileEventStore.open(path: dir.path, options: options)
            let count = 2_000 + round * 500
            let entries = events(count).enumerated().map { AppendRequest.Entry(stream: stream("toy-\($0.offset % 97)"), event: $0.element) }
            _ = try await store.append(AppendRequest(entries: entries, expectations: []))
            store.close()
            let reopened = try FileEventStore.open(path: dir.path, options: options)
            defer { reopened.close() }
            let covered = try reopened.withState(writer: false) { $0.active?.checkpoint?.content.eventCount }
            #expect(covered == UInt64(count), "round \(round)")
            #expect(try await reopened.streamVersion(of: stream("toy-0")) == UInt64((count + 96) / 97 - 1))
            #expect(try reopened.verify().isOK)
        }
    }
}
