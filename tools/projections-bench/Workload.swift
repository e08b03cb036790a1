import BenchSupport
import PawtrailSQLite
import EventLog
import EventLogFile
import EventLogSealing
import Events
import Foundation
import PawtrailJSON

/// What a generated workload holds, written beside it so a later run with the same seed and size reuses it.
struct WorkloadManifest: Codable, Equatable {
    /// Bumped whenever the generator changes what it writes.
    static let generatorVersion = 5

    var generatorVersion: Int
    var seed: UInt64
    var targetEvents: Int
    var days: Int
    var events: Int
    var commands: Int
    var daysSimulated: Int
    var customers: Int
    var products: Int
    var orders: Int
    var pets: Int
    var bookings: Int
    var conversations: Int
    /// Events per type, by name.
    var types: [String: Int]
    var storeBytes: UInt64
    var sqliteBytes: UInt64
    var generateSeconds: Double
    var exportSeconds: Double
    /// How long ``WorkloadVerifier`` and the sampled ``PeerAdapterCheck`` took: a workload is only kept once every
    /// event passed the first and every 16th the second.
    var verifySeconds: Double
}

/// Generates the workload into a file store and copies it, as JSON, into the peer's SQLite table.
enum WorkloadBuilder {
    /// Runs the simulation and appends its batches to a new store (no fsync while loading), then closes it.
    static func generate(storePath: String, settings: Business.Settings, progress: (String) -> Void) async throws -> Business {
        try? FileManager.default.removeItem(atPath: storePath)
        var options = FileEventStoreOptions(createIfMissing: true)
        options.durability = .noSync
        let file = try FileEventStore.open(path: storePath, options: options)
        // Through the sealing layer, as the CLI appends: the personal data of the generated year is sealed.
        let store = SealingEventStore(base: file, keys: FilePersonalDataKeys(storePath: storePath))
        let business = Business(settings)
        var lastReport = 0
        while let batch = business.nextBatch() {
            _ = try await store.append(AppendRequest(entries: batch))
            if business.eventCount - lastReport >= 250_000 {
                lastReport = business.eventCount
                progress("  generated \(business.eventCount) events (day \(business.dayReached))")
            }
        }
        file.close()
        return business
    }

    /// Copies every event of the store into a fresh SQLite table, with the data as the JSON our events print
    /// (`JSONFieldWriter.json(event).serialized`) and the metadata as a JSON object. Position, stream, type and
    /// recorded time are the store's, so both sides fold identical `ProjectedEvent`s.
    ///
    /// - Returns: The number of rows.
    static func exportToSQLite(storePath: String, sqlitePath: String) async throws -> Int {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: sqlitePath + suffix) }
        let database = try SQLiteDatabase(path: sqlitePath, create: true)
        try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF")
        try database.execute(
            """
            CREATE TABLE events(position INTEGER PRIMARY KEY, stream TEXT NOT NULL, type TEXT NOT NULL,
              recorded_at INTEGER NOT NULL, metadata TEXT NOT NULL, data TEXT NOT NULL)
            """)
        let insert = try database.prepare("INSERT INTO events(position, stream, type, recorded_at, metadata, data) VALUES(?,?,?,?,?,?)")
        let file = try FileEventStore.open(path: storePath)
        defer { file.close() }
        let store = SealingEventStore(base: file, keys: FilePersonalDataKeys(storePath: storePath))
        var rows = 0
        try await store.forEachPage(.all, pageSize: 16_384) { page in
            try database.execute("BEGIN")
            for e in page {
                guard let event = try EventCatalog.domain.decode(type: e.type, data: e.data) else {
                    throw FoldError("event \(e.position) of type \(e.type) is not a domain event")
                }
                var metadata: [UInt8] = []
                JSONValue.object(e.metadata.pairs.map { JSONValue.Pair(key: $0.key, value: .string($0.value)) }).write(to: &metadata)
                var data: [UInt8] = []
                JSONFieldWriter.json(event).write(to: &data)
                try insert.bind(1, int64: Int64(e.position))
                try insert.bind(2, text: e.stream.rawValue)
                try insert.bind(3, text: e.type)
                try insert.bind(4, int64: e.recordedAt.microsecondsSinceEpoch)
                try insert.bind(5, utf8: metadata)
                try insert.bind(6, utf8: data)
                try insert.step()
                insert.reset()
                rows += 1
            }
            try database.execute("COMMIT")
            return true
        }
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return rows
    }

    /// The bytes of the files under a directory (or one file).
    static func size(of path: String) -> UInt64 {
        var st = stat()
        guard stat(path, &st) == 0 else { return 0 }
        if (st.st_mode & S_IFMT) != S_IFDIR { return UInt64(st.st_size) }
        var total: UInt64 = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            total += size(of: path + "/" + name)
        }
        return total
    }
}
