import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// Opening a store as its recovering writer removes what a killed process left: temporary files of dead
/// processes, a compaction's `.seg.compacting`, a run's `.eidx` without its `.ridx` (left, `log verify` would report
/// the lone `.eidx` until the next append's upkeep, and temporary files would stay for good).
@Suite struct CrashLeftoversTests {
    static let options = FileEventStoreOptions(
        createIfMissing: true, maxSegmentEvents: 6, durability: .noSync, compactSealedSegments: false, indexRunSegments: 3)

    /// No process has this id (above Linux's largest pid_max).
    static let deadPID = Int32.max

    @Test func `a recovering writer removes a dead process's leftovers and keeps the rest`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        for k in 0..<40 { _ = try await store.append(to: stream("pet-\(k % 5)"), [.json("Fed", "{\"k\":\(k)}")]) }
        store.close()
        let fm = FileManager.default
        let run = "runs/00000000000000000018-00000000000000000035"
        try fm.removeItem(atPath: dir.path + "/" + run + ".ridx")
        let planted = [
            "segments/00000000000000000000.sidx.tmp-\(Self.deadPID)", "segments/00000000000000000006.seg.compacting",
            "dictionaries/1.zdict.tmp-\(Self.deadPID)", "pawtrail.store.tmp-\(Self.deadPID)",
        ]
        for p in planted { #expect(fm.createFile(atPath: dir.path + "/" + p, contents: Data([1, 2, 3]))) }
        let live = "segments/00000000000000000000.eidx.tmp-\(getpid())"
        #expect(fm.createFile(atPath: dir.path + "/" + live, contents: Data([1])))

        let reopened = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { reopened.close() }
        for p in planted + [run + ".eidx"] { #expect(!fm.fileExists(atPath: dir.path + "/" + p), "\(p)") }
        #expect(fm.fileExists(atPath: dir.path + "/" + live), "a live process's temporary file is its own")
        try fm.removeItem(atPath: dir.path + "/" + live)
        let report = try reopened.verify()
        #expect(report.isOK, "\(report)")
        #expect(try await reopened.readAll().count == 40)
    }

    @Test func `nothing is removed while an upkeep holds its lock`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        _ = try await store.append(to: stream("pet-1"), [.json("Fed", "{}")])
        store.close()
        let leftover = dir.path + "/segments/00000000000000000000.sidx.tmp-\(Self.deadPID)"
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data([1])))
        let upkeep = try FileDescriptor.open(dir.path + "/" + LogFormat.compactionLockName, .readWriteCreate)
        #expect(try upkeep.lockExclusive(wait: false))
        let reopened = try FileEventStore.open(path: dir.path, options: Self.options)
        #expect(FileManager.default.fileExists(atPath: leftover))
        try upkeep.unlock()
        reopened.close()
    }

    @Test func `temporary file names give their process id`() {
        #expect(FileSystem.temporaryOwner(ofName: "00000000000000000000.sidx.tmp-4242") == 4242)
        #expect(FileSystem.temporaryOwner(ofName: "head.tmp-") == nil)
        #expect(FileSystem.temporaryOwner(ofName: "00000000000000000000.sidx") == nil)
        #expect(FileSystem.temporaryOwner(ofName: "x.tmp-12a") == nil)
        #expect(FileSystem.temporaryOwner(ofName: "00000001.zdict.tmp-4242-7c9e6679-7425-40de-944b-e07fc1f90ae7") == 4242)
        #expect(FileSystem.temporaryOwner(ofName: "00000001.zdict.tmp-4242-x") == nil)
        // Atomic writes name theirs with a random UUID too (two stores of one process may write one file at once).
        let names = (0..<50).map { _ in FileSystem.randomUUIDString() }
        #expect(Set(names).count == 50)
        for n in names { #expect(FileSystem.temporaryOwner(ofName: "00000000000000000000.ckpt.tmp-77-" + n) == 77, "\(n)") }
    }

    /// A dictionary's temporary file is named `NAME.tmp-PID-UUID` (recognizing only `NAME.tmp-PID` would leave a
    /// killed trainer's for good).
    @Test func `a dead trainer's temporary dictionary file is removed`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        _ = try await store.append(to: stream("pet-1"), [.json("Fed", "{}")])
        store.close()
        let leftover = dir.path + "/dictionaries/00000001.zdict.tmp-\(Self.deadPID)-\(UUID().uuidString.lowercased())"
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data([1, 2, 3])))
        let reopened = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { reopened.close() }
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }
}
