import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// `log verify` while another process writes: a commit in flight, or a segment sealed but not yet indexed, is
/// work in progress, not damage, even when the writer is done by the time the verifier asks whether one is at
/// work (both occur in a multi-process stress run).
@Suite struct StoreVerifierLiveWriterTests {
    @Test func `a commit a writer finishes while verify reads it is no torn write`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, durability: .noSync)
        do {
            let store = try FileEventStore.open(path: dir.path, options: options)
            _ = try await store.append(to: "pet-1", [.json("Fed", "{}")])
            store.close()
        }
        let view = LogState(root: dir.path, options: options)
        try view.refresh(writer: false)
        // Another process commits between the verifier's reading of the head and of the segment, and is done (its
        // writer lock free) before the verifier looks past the head it read. The verifier runs on a thread of its
        // own, which the hook blocks while the commit runs on the concurrency pool.
        let commitElsewhere: @Sendable () throws -> Void = {
            let done = DispatchSemaphore(value: 0)
            Task {
                let other = try FileEventStore.open(path: dir.path, options: options)
                _ = try await other.append(to: "pet-2", [.json("Fed", "{}")])
                other.close()
                done.signal()
            }
            done.wait()
        }
        let box = UncheckedBox(view)
        let problems: [VerifyReport.Problem] = try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try StoreVerifier(state: box.value, afterReadingHead: commitElsewhere).run().problems })
            }.start()
        }
        #expect(problems == [], "\(problems)")
        // The commit did happen, after the head the verifier read.
        #expect(try view.peekHead()?.nextPosition == 2)
    }

    /// The writer rolls to a new segment between the verifier's reading of the head and its listing of the
    /// segments, and is at work on a commit in that segment when the verifier reads it. The head the verifier read
    /// names the segment before, yet the new segment's commit in flight (or a commit landing in its preallocated
    /// zeros while it reads them) is no damage: a stress run of `log verify` beside a writer rolling small segments
    /// hits this window.
    @Test func `a commit in flight in a segment the writer rolled to after the head was read is no torn write`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(
            createIfMissing: true, maxSegmentEvents: 2, durability: .noSync, compactSealedSegments: false, indexRunSegments: 0)
        do {
            let store = try FileEventStore.open(path: dir.path, options: options)
            _ = try await store.append(to: "pet-1", [.json("Fed", "{}")])
            store.close()
        }
        let view = LogState(root: dir.path, options: options)
        try view.refresh(writer: false)
        let lock = UncheckedBox(try FileDescriptor.open(dir.path + "/" + LogFormat.lockName, .readWriteCreate))
        // After the head is read: another process's writer fills the segment (sealing it), commits one event in the
        // next, and is writing its next commit there (the writer lock held, its first bytes in the file).
        let rollElsewhere: @Sendable () throws -> Void = {
            let done = DispatchSemaphore(value: 0)
            Task {
                let other = try FileEventStore.open(path: dir.path, options: options)
                _ = try await other.append(to: "pet-2", [.json("Fed", "{}")])
                _ = try await other.append(to: "pet-3", [.json("Fed", "{}")])
                other.close()
                done.signal()
            }
            done.wait()
            #expect(try lock.value.lockExclusive(wait: false))
            let segment = try FileDescriptor.open(dir.path + "/segments/00000000000000000002.seg", .readWrite)
            try segment.write([200, 0, 0, 0, UInt8(FrameType.commit.rawValue), 1, 0, 0], at: try segment.size())
        }
        let box = UncheckedBox(view)
        let problems: [VerifyReport.Problem] = try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try StoreVerifier(state: box.value, afterReadingHead: rollElsewhere).run().problems })
            }.start()
        }
        #expect(problems == [], "\(problems)")
        // The writer died there: now it is a torn write, which the next writer cuts off.
        try lock.value.unlock()
        let after = try StoreVerifier(state: view).run().problems
        #expect(after.map(\.file) == ["00000000000000000002.seg"], "\(after)")
        #expect(after.first?.message.contains("torn write") == true, "\(after)")
    }

    /// Whether this process may make a file immutable (`chattr +i`: opening it for writing then fails with EPERM,
    /// even for root), standing in for a lock file another user owns.
    static let canMakeImmutable: Bool = {
        let probe = FileManager.default.temporaryDirectory.path + "/pawtrail-immutable-probe-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: probe, contents: nil) else { return false }
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard shell("chattr", "+i", probe) == 0 else { return false }
        _ = shell("chattr", "-i", probe)
        return true
    }()

    static func shell(_ arguments: String...) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A store of three segments, two sealed, the first without its `.sidx` (as between a writer's sealing it and
    /// writing its index files), and a verifier's view of it taken before.
    static func viewMissingFirstStreamIndex(_ dir: TemporaryDirectory) async throws -> LogState {
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 4, durability: .noSync, compactSealedSegments: false, indexRunSegments: 0)
        let store = try FileEventStore.open(path: dir.path, options: options)
        for k in 0..<10 { _ = try await store.append(to: stream("pet-\(k % 3)"), [.json("Fed", "{\"k\":\(k)}")]) }
        store.close()
        let view = LogState(root: dir.path, options: options)
        try view.refresh(writer: false)
        try FileSystem.removeFile(dir.path + "/segments/00000000000000000000.sidx")
        return view
    }

    /// A verifier that may not open `writer.lock` for writing (another user's store, readable to it) still sees
    /// the writer holding it (EACCES and EPERM do not mean "no writer": taken so, a segment a live writer has just
    /// sealed would be reported as missing its index files).
    @Test(.enabled(if: canMakeImmutable, "needs chattr +i"))
    func `a writer is seen at work even when the lock file cannot be opened for writing`() async throws {
        let dir = TemporaryDirectory()
        let view = try await Self.viewMissingFirstStreamIndex(dir)
        // The writer, which may open its lock file, holds it; the verifier may only read it.
        let lockPath = dir.path + "/" + LogFormat.lockName
        let lock = try FileDescriptor.open(lockPath, .readWriteCreate)
        #expect(try lock.lockExclusive(wait: false))
        #expect(Self.shell("chattr", "+i", lockPath) == 0)
        defer { _ = Self.shell("chattr", "-i", lockPath) }
        #expect(try StoreVerifier(state: view).run().problems == [])
        try lock.unlock()
        let problems = try StoreVerifier(state: view).run().problems
        #expect(problems.map(\.file) == ["00000000000000000000.sidx"])
    }

    @Test func `a sealed segment's missing index files are reported only when no writer is at work`() async throws {
        let dir = TemporaryDirectory()
        let view = try await Self.viewMissingFirstStreamIndex(dir)
        // A writer holding its lock may be between sealing a segment and writing its index files.
        let lock = try FileDescriptor.open(dir.path + "/" + LogFormat.lockName, .readWriteCreate)
        #expect(try lock.lockExclusive(wait: false))
        #expect(try StoreVerifier(state: view).run().problems == [])
        try lock.unlock()
        let problems = try StoreVerifier(state: view).run().problems
        #expect(problems.map(\.file) == ["00000000000000000000.sidx"])
        #expect(problems.first?.message.contains("index file is missing") == true)
    }
}

/// Hands a value that is not `Sendable` to one other thread, which alone uses it from then on.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
