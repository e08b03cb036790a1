import CSQLite3
import EventLog
import EventLogFile
import EventLogMemory
@testable import EventLogTestKit
import Foundation
import PawtrailSQLite
import Testing

@Suite("Snapshot stores: the conformance cases")
struct SnapshotStoreConformanceTests {
    @Test(arguments: SnapshotStoreConformance.cases)
    func inMemory(_ c: SnapshotStoreConformance.Case) async throws {
        try await c.run(InMemorySnapshotStore())
    }

    @Test(arguments: SnapshotStoreConformance.cases)
    func sqliteOfTheFileLog(_ c: SnapshotStoreConformance.Case) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await c.run(SQLiteSnapshotStore(storePath: directory))
    }

    @Test(arguments: SnapshotStoreConformance.cases)
    func sqliteReopenedBetweenSaveAndRead(_ c: SnapshotStoreConformance.Case) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await c.run(ReopeningSnapshotStore(directory: directory))
    }
}

/// Opens a new ``SQLiteSnapshotStore`` on the same directory for every call: what one process saves, another reads.
private struct ReopeningSnapshotStore: SnapshotStore {
    let directory: String
    var fresh: SQLiteSnapshotStore { SQLiteSnapshotStore(storePath: directory) }

    func snapshot(of stream: StreamID, kind: String) async throws -> StreamSnapshot? { try await fresh.snapshot(of: stream, kind: kind) }
    func save(_ snapshots: [StreamSnapshot]) async throws { try await fresh.save(snapshots) }
    func forEach(_ body: (StreamSnapshot) throws -> Bool) async throws { try await fresh.forEach(body) }
    func remove(stream: StreamID, kind: String) async throws { try await fresh.remove(stream: stream, kind: kind) }
    func removeAll() async throws { try await fresh.removeAll() }
}

@Suite("Snapshot stores: the file log's database")
final class SQLiteSnapshotStoreTests {
    let directory: String
    init() throws { directory = try makeTemporaryDirectory() }
    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var databasePath: String { directory + "/snapshots/streams.sqlite" }

    func sample(_ stream: String = "cart-u-1", version: UInt64 = 7) -> StreamSnapshot {
        StreamSnapshot(stream: StreamID(unchecked: stream), kind: "cart", schemaVersion: 1, version: version, position: 70, eventID: UUID(), state: [4, 5, 6])
    }

    @Test func aDatabaseThatIsNotSQLiteIsMadeAnew() async throws {
        try FileManager.default.createDirectory(atPath: directory + "/snapshots", withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 10_000).write(to: URL(fileURLWithPath: databasePath))
        let store = SQLiteSnapshotStore(storePath: directory)
        #expect(try await store.snapshot(of: StreamID(unchecked: "cart-u-1"), kind: "cart") == nil)
        let s = sample()
        try await store.save([s])
        #expect(try await SQLiteSnapshotStore(storePath: directory).snapshot(of: s.stream, kind: s.kind) == s)
    }

    @Test func aRowWhoseBytesChangedReadsAsMissing() async throws {
        let s = sample()
        try await SQLiteSnapshotStore(storePath: directory).save([s, sample("cart-u-2")])
        // Change the state behind the store's back: its checksum no longer matches.
        let db = try SQLiteDatabase(path: databasePath, access: .readWrite)
        try db.execute("UPDATE snapshots SET state = x'040507' WHERE stream = 'cart-u-1'")
        let store = SQLiteSnapshotStore(storePath: directory)
        #expect(try await store.snapshot(of: s.stream, kind: s.kind) == nil)
        #expect(try await store.snapshot(of: StreamID(unchecked: "cart-u-2"), kind: "cart") != nil)
        var seen = 0
        try await store.forEach { _ in seen += 1; return true }
        #expect(seen == 1, "forEach must pass over the damaged row too")
    }

    @Test func aDatabaseOfAnotherLayoutIsMadeAnew() async throws {
        try await SQLiteSnapshotStore(storePath: directory).save([sample()])
        let db = try SQLiteDatabase(path: databasePath, access: .readWrite)
        try db.execute("PRAGMA user_version=99")
        let store = SQLiteSnapshotStore(storePath: directory)
        #expect(try await store.snapshot(of: StreamID(unchecked: "cart-u-1"), kind: "cart") == nil)
        try await store.save([sample(version: 8)])
        #expect(try await SQLiteSnapshotStore(storePath: directory).snapshot(of: StreamID(unchecked: "cart-u-1"), kind: "cart")?.version == 8)
    }

    /// Another process is creating the database (its file exists, empty, its write lock held) when this one opens
    /// it: this one does without snapshots for now, and leaves the file alone; the other's table and rows are then
    /// what every later open finds. Four first commands at once on a new store lost a creation this way.
    @Test func aDatabaseAnotherProcessIsCreatingIsNotMadeAnew() async throws {
        try FileManager.default.createDirectory(atPath: directory + "/snapshots", withIntermediateDirectories: true)
        let creator = try SQLiteDatabase(path: databasePath, access: .readWriteCreate)
        try creator.execute("BEGIN EXCLUSIVE")
        try creator.execute("CREATE TABLE placeholder(x)")
        let inode = try #require(FileManager.default.attributesOfItem(atPath: databasePath)[.systemFileNumber] as? UInt64)

        let store = SQLiteSnapshotStore(storePath: directory)
        #expect(try await store.snapshot(of: StreamID(unchecked: "cart-u-1"), kind: "cart") == nil)
        #expect(try FileManager.default.attributesOfItem(atPath: databasePath)[.systemFileNumber] as? UInt64 == inode, "the file was replaced")

        try creator.execute("ROLLBACK")
        let s = sample()
        try await SQLiteSnapshotStore(storePath: directory).save([s])
        #expect(try FileManager.default.attributesOfItem(atPath: databasePath)[.systemFileNumber] as? UInt64 == inode, "the file was replaced")
        #expect(try await SQLiteSnapshotStore(storePath: directory).snapshot(of: s.stream, kind: s.kind) == s)
    }

    @Test func nothingIsCreatedUntilASave() async throws {
        let store = SQLiteSnapshotStore(storePath: directory)
        #expect(try await store.snapshot(of: StreamID(unchecked: "cart-u-1"), kind: "cart") == nil)
        try await store.save([])
        // Reading an empty cache creates its file, which is harmless; saving nothing writes no row.
        var rows = 0
        try await store.forEach { _ in rows += 1; return true }
        #expect(rows == 0)
    }

    @Test func aDirectoryThatCannotBeWrittenReadsAndRefusesSaves() async throws {
        guard getuid() != 0 else { return }  // root writes anywhere; the read-only bind mount test covers it
        try await SQLiteSnapshotStore(storePath: directory).save([sample()])
        chmod(directory + "/snapshots", 0o555)
        chmod(databasePath, 0o444)
        defer {
            chmod(directory + "/snapshots", 0o755)
            chmod(databasePath, 0o644)
        }
        let store = SQLiteSnapshotStore(storePath: directory)
        #expect(try await store.snapshot(of: StreamID(unchecked: "cart-u-1"), kind: "cart")?.version == 7)
        await #expect(throws: (any Error).self) { try await store.save([sample(version: 9)]) }
    }
}
