@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import Glibc
import PawtrailIO
import Testing

/// After a failure making room for a group (the zeros written ahead of the data), the next group goes on
/// consistently. Exit tests: each caps its own process's file size.
@Suite(.serialized) struct FileStoreRoomFailureTests {
    @Test func `after a failure making room the next group goes on consistently`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, durability: .sync))
            try await store.append(to: "order-1", [event("Small", "{}", id: uuid(1))])
            try await store.append(to: "filler-1", [FileStoreGroupWriteFailureTests.random(count: 40_000)])
            let segment = dir.path + "/segments/" + (try store.segmentNames().last!)
            let size = try FileDescriptor.open(segment, .readOnly).size()
            FileStoreGroupWriteFailureTests.capFileSize(at: size + 1000)
            let failed = await Task { try await store.append(to: "new-1", [FileStoreGroupWriteFailureTests.random(id: uuid(3), count: 30_000)]) }.result
            FileStoreGroupWriteFailureTests.capFileSize(at: UInt64.max)
            guard case .failure = failed else { Issue.record("did not fail: \(failed)"); return }
            try await store.append(to: "new-1", expected: .noStream, [FileStoreGroupWriteFailureTests.random(id: uuid(4), count: 30_000)])
            let all = try await store.readAll()
            #expect(all.map(\.position) == [0, 1, 2])
            #expect(all.map(\.id).last == uuid(4))
            #expect(try store.verify().problems.isEmpty)
            store.close()
            let other = try FileEventStore.open(path: dir.path)
            #expect(other.recoveries.isEmpty)
            try await other.append(to: "x-1", [event()])
            #expect(try await other.readAll().map(\.position) == [0, 1, 2, 3])
            other.close()
        }
    }
}
