import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import Glibc
import PawtrailIO
import Testing

/// A run file whose body fails its check at first use is removed, so that the writer builds it again.
/// Removing is right for a file that was read and found damaged; not for one that could
/// not be read at all, and not without the writer that had already checked it noticing.
@Suite(.serialized) struct IndexRunRemovalTests {
    static let runs = [
        "00000000000000000000-00000000000000000017", "00000000000000000018-00000000000000000035", "00000000000000000036-00000000000000000053",
        "00000000000000000054-00000000000000000071", "00000000000000000072-00000000000000000089", "00000000000000000090-00000000000000000107",
    ]

    /// A process out of descriptors (EMFILE; ENOMEM from `mmap` is alike) cannot map a run's files: its lookups ask
    /// the segments, but the files are sound and must stay. Removed, every run the lookups asked would be passed
    /// over by every process, and built again (all of the store's events read) by the writer.
    @Test func `a run file that cannot be mapped for want of descriptors is not removed`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let written = try await FileStoreIndexRunTests.filledStore(dir)
            let store = try FileEventStore.open(path: dir.path, options: FileStoreIndexRunTests.usingRuns)
            #expect(try store.withState(writer: false) { s in s.runs.count } == 6, "taken up, nothing checked yet")
            let (_, result) = written.appends[8]
            let id = written.appends[8].request.entries[0].event.id

            let undo = FileStoreRollFailureTests.capDescriptors()
            let read = await Task { try await store.events(of: "busy-3").map(\.id) }.result
            let found = Result { try store.withState(writer: false) { s in try s.committedEvent(id)?.position } }
            undo()
            // The answers are right either way (through the segments' indexes, rebuilt in memory).
            #expect(try read.get() == written.streams["busy-3"]!)
            #expect(try found.get() == result.firstPosition)
            for run in Self.runs {
                #expect(FileManager.default.fileExists(atPath: dir.path + "/runs/" + run + ".ridx"), "\(run).ridx removed")
                #expect(FileManager.default.fileExists(atPath: dir.path + "/runs/" + run + ".eidx"), "\(run).eidx removed")
            }
            store.close()
            let reopened = try FileEventStore.open(path: dir.path, options: FileStoreIndexRunTests.options)
            #expect(try reopened.stats().indexRuns == 6)
        }
    }

    /// A writer that checked a run's `.eidx` at its first append keeps the mapping; another process that then finds
    /// the file failing its check (damage the writer's check came before, or any failure the writer does not share)
    /// removes it. The writer's `loadRuns` must not keep the run it knows merely because its `.ridx` is listed, but
    /// build the `.eidx` again: else every other process passes over that run and every later one (`loadRuns` stops
    /// at the gap), for as long as the writer runs, while `log verify` says "the writer builds it again".
    @Test func `a writer builds a run again whose id index another process removed after the writer had checked it`() async throws {
        let dir = TemporaryDirectory()
        _ = try await FileStoreIndexRunTests.filledStore(dir)
        let writer = try FileEventStore.open(path: dir.path, options: FileStoreIndexRunTests.options)
        // Its first append checks every run's id index (the idempotency lookup asks them all).
        _ = try await writer.append(to: "busy-1", [event()])
        #expect(try writer.withState(writer: false) { s in s.runs.allSatisfy { $0.ids != nil } })

        // Another process's lookup found the file failing its check and removed it (what `eventIDProbes` does).
        let eidx = dir.path + "/runs/" + Self.runs[1] + ".eidx"
        try FileManager.default.removeItem(atPath: eidx)

        // The writer goes on: three more segments, a new run due, so its upkeep lists the runs again.
        for k in 0..<18 { _ = try await writer.append(to: stream("later-\(k)"), [event()]) }
        writer.close()
        let covered = try writer.stats().indexedSegments
        #expect(covered == 21)
        #expect(FileManager.default.fileExists(atPath: eidx), "the writer's upkeep did not build the run again")
        let other = try FileEventStore.open(path: dir.path, options: FileStoreIndexRunTests.options)
        #expect(try other.stats().indexedSegments == covered, "another process passes the run over, and every later one")
        #expect(try writer.verify().problems == [])
    }

    /// The run builder checks the files of a run it has just written, and on a failed check removes them only if
    /// damaged: files it cannot map for want of descriptors (EMFILE; ENOMEM from `mmap` is alike), removed as if
    /// damaged, would leave the run counted as failed and never built again by this writer, against the rule
    /// above. What the builder does with a run whose check failed (`removeFilesIfDamaged`), for both failures.
    @Test func `a run just written whose check fails for want of descriptors keeps its files`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            _ = try await FileStoreIndexRunTests.filledStore(dir)
            let store = try FileEventStore.open(path: dir.path, options: FileStoreIndexRunTests.usingRuns)
            let (unmapped, damaged) = try store.withState(writer: false) { s in (s.runs[0], s.runs[1]) }

            let undo = FileStoreRollFailureTests.capDescriptors()
            let checked = unmapped.checkedStreams()
            unmapped.removeFilesIfDamaged()
            undo()
            #expect(checked == nil && !unmapped.streamsFile.damaged)
            #expect(FileManager.default.fileExists(atPath: unmapped.streamsFile.path), "a sound .ridx removed")
            #expect(FileManager.default.fileExists(atPath: unmapped.idsFile.path), "a sound .eidx removed")

            // A byte of the body flipped: read, found damaged, removed with its .eidx.
            let fd = try FileDescriptor.open(damaged.streamsFile.path, .readWrite)
            let at = try fd.size() - 1
            var byte = try fd.read(at: at, count: 1)
            byte[0] ^= 0x20
            try fd.write(byte, at: at)
            #expect(damaged.checkedStreams() == nil && damaged.streamsFile.damaged)
            damaged.removeFilesIfDamaged()
            #expect(!FileManager.default.fileExists(atPath: damaged.streamsFile.path))
            #expect(!FileManager.default.fileExists(atPath: damaged.idsFile.path))
        }
    }

    /// A lookup that finds a run file damaged removes it by path, and another process's upkeep may have written a
    /// sound one there since (it builds the run again once it is passed over): that one must stay, or the writer
    /// would count its own run as failed. The file is removed only while it is still the one found damaged.
    @Test func `a damaged run file replaced by a sound one before its removal is kept`() async throws {
        let dir = TemporaryDirectory()
        _ = try await FileStoreIndexRunTests.filledStore(dir)
        let store = try FileEventStore.open(path: dir.path, options: FileStoreIndexRunTests.usingRuns)
        defer { store.close() }
        let (replaced, left) = try store.withState(writer: false) { s in (s.runs[1], s.runs[2]) }
        var sound: [String: [UInt8]] = [:]
        for run in [replaced, left] {
            sound[run.streamsFile.path] = try FileSystem.readFile(run.streamsFile.path)
            var bytes = sound[run.streamsFile.path]!
            bytes[bytes.count - 1] ^= 0x20
            try FileSystem.writeAtomically(bytes, to: run.streamsFile.path, sync: false)
            #expect(run.checkedStreams() == nil && run.streamsFile.damaged)
        }
        // Another process writes the first run's sound file again (a new file, renamed over the damaged one).
        try FileSystem.writeAtomically(sound[replaced.streamsFile.path]!, to: replaced.streamsFile.path, sync: false)
        replaced.streamsFile.removeIfDamaged()
        left.streamsFile.removeIfDamaged()
        #expect(try FileSystem.readFile(replaced.streamsFile.path) == sound[replaced.streamsFile.path]!, "the sound file stays")
        #expect(!FileManager.default.fileExists(atPath: left.streamsFile.path), "the damaged one is removed")
    }

    /// The identity a damaged run file is known by (device and inode) names that file only while something holds it.
    /// Were `checkedStreams()` to let go of the damaged file's mapping at once, then once another process had
    /// removed it (it found it damaged too) the file system could give its inode to the next file created, such as
    /// the sound `.ridx` the writer's upkeep writes there: that file would then pass for the damaged one and be
    /// removed.
    @Test func `a sound run file given the inode of the damaged one it replaced is kept`() async throws {
        let dir = TemporaryDirectory()
        _ = try await FileStoreIndexRunTests.filledStore(dir)
        let store = try FileEventStore.open(path: dir.path, options: FileStoreIndexRunTests.usingRuns)
        defer { store.close() }
        let run = try store.withState(writer: false) { s in s.runs[1] }
        let sound = try FileSystem.readFile(run.streamsFile.path)
        var bytes = sound
        bytes[bytes.count - 1] ^= 0x20
        try FileSystem.writeAtomically(bytes, to: run.streamsFile.path, sync: false)
        let damaged = try #require(FileSystem.fileID(run.streamsFile.path))
        #expect(run.checkedStreams() == nil && run.streamsFile.damaged)

        // Another process that found it damaged removes it, and the writer's upkeep writes the run again. The file
        // system may or may not hand the freed inode to the new file at once (ext4 and tmpfs mostly do): try a few
        // times, as the file is removed and written again.
        var reused = false
        for _ in 0..<20 where !reused {
            try FileSystem.removeFile(run.streamsFile.path)
            try FileSystem.writeAtomically(sound, to: run.streamsFile.path, sync: false)
            reused = FileSystem.fileID(run.streamsFile.path) == damaged
        }
        run.streamsFile.removeIfDamaged()
        #expect(FileManager.default.fileExists(atPath: run.streamsFile.path), "the sound file removed (its inode reused: \(reused))")
    }
}
