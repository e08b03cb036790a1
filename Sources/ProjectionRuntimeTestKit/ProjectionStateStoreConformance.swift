import EventLog
import Foundation
import EventLogTestKit
public import ProjectionRuntime
import Projections

/// The cases every ``ProjectionStateStore`` must pass: each backend's tests run every case against a fresh, empty
/// store made by a factory of theirs.
///
/// ```swift
/// @Test(arguments: ProjectionStateStoreConformance.cases)
/// func conformance(_ c: ProjectionStateStoreConformance.Case) async throws {
///     try c.run(makeEmptyStore())
/// }
/// ```
public enum ProjectionStateStoreConformance {
    /// One case: a name for the test report and the check, which throws ``ConformanceFailure``.
    public struct Case: Sendable, CustomStringConvertible {
        public let name: String
        public let run: @Sendable (any ProjectionStateStore) throws -> Void

        public var description: String { name }
    }

    /// Every case.
    public static let cases: [Case] = [
        Case(name: "a projection without a state opens as nil", run: missingIsNil),
        Case(name: "a finished writer's rows and checkpoint read back", run: roundTrip),
        Case(name: "nothing is visible before finish, and a reader keeps the state it opened", run: isolation),
        Case(name: "a row as of a position is its newest version at or before it", run: asOf),
        Case(name: "several rows read together answer as they do one by one", run: severalAtOnce),
        Case(name: "a catch-up adds to the stored rows, a rebuild replaces them", run: addsAndReplaces),
        Case(name: "two versions of a row at one position in one write: the first one stands", run: firstVersionStands),
        Case(name: "group and table reads give present rows as of a position, in stored order", run: groupsAndTables),
        Case(name: "kept versions stay through many commits, newestKept names the newest", run: keptStay),
        Case(name: "the lock is exclusive until unlocked", run: locks),
        Case(name: "versions lists what is stored, remove forgets one version", run: versionsAndRemove),
        Case(name: "many commits read back as a reference model says", run: model),
    ]

    static func checkpoint(_ position: UInt64?, name: String = "p", version: Int = 1) -> CheckpointInfo {
        // The id and time of the event at the position, which a resume checks: every store keeps them.
        CheckpointInfo(
            name: name, schemaVersion: version, position: position, eventsApplied: Int64(position ?? 0), rebuiltAt: Timestamp(microsecondsSinceEpoch: 1),
            rebuildMicroseconds: 5, savedAt: Timestamp(microsecondsSinceEpoch: 2),
            eventID: position.map { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012llx", $0))! },
            eventRecordedAt: position.map { Timestamp(microsecondsSinceEpoch: 1_800_000_000_000_000 + Int64($0)) })
    }

    static func v(_ key: RowKey, _ position: UInt64, _ value: [UInt8]?, keep: Bool = true) -> RowVersion {
        RowVersion(key: key, position: position, value: value, keep: keep)
    }

    static let a = RowKey(table: 1, key: "a")
    static let b = RowKey(table: 1, key: "b")

    static func commit(_ store: any ProjectionStateStore, _ versions: [RowVersion], at position: UInt64, replacing: Bool = false, name: String = "p", version: Int = 1) throws {
        let lock = try store.tryLock(name)
        try require(lock != nil, "the lock of an idle projection could not be taken")
        defer { lock?.unlock() }
        let writer = try store.writer(name, version: version, replacing: replacing)
        try writer.add(versions)
        try writer.finish(checkpoint(position, name: name, version: version))
    }

    static func open(_ store: any ProjectionStateStore, name: String = "p", version: Int = 1) throws -> any StoredProjectionState {
        let state = try store.open(name, version: version)
        try require(state != nil, "a committed state did not open")
        return state!
    }

    static func missingIsNil(_ store: any ProjectionStateStore) throws {
        try require(try store.open("p", version: 1) == nil, "an empty store opened a state")
        try require(try store.versions(of: "p").isEmpty, "an empty store listed versions")
    }

    static func roundTrip(_ store: any ProjectionStateStore) throws {
        try commit(store, [v(a, 3, [1, 2]), v(b, 4, [], keep: false)], at: 4, replacing: true)
        let s = try open(store)
        try require(s.checkpoint == checkpoint(4), "checkpoint read back as \(s.checkpoint)")
        try require(try s.version(of: a, asOf: nil)?.value == [1, 2], "row a did not read back")
        try require(try s.version(of: b, asOf: nil)?.value == [], "an empty value did not read back as empty")
        try require(try s.version(of: RowKey(table: 1, key: "c"), asOf: nil) == nil, "a row never written was found")
        try require(s.size.versions >= 2, "size counts \(s.size.versions) versions for 2 rows")
    }

    static func isolation(_ store: any ProjectionStateStore) throws {
        try commit(store, [v(a, 1, [1])], at: 1, replacing: true)
        let before = try open(store)
        let lock = try store.tryLock("p")
        let writer = try store.writer("p", version: 1, replacing: false)
        try writer.add([v(a, 2, [2]), v(b, 2, [2])])
        try require(try open(store).checkpoint.position == 1, "a state opened during a write saw its checkpoint")
        try require(try open(store).version(of: b, asOf: nil) == nil, "a state opened during a write saw its rows")
        try writer.finish(checkpoint(2))
        lock?.unlock()
        try require(try before.version(of: a, asOf: nil)?.value == [1], "a reader opened before a commit saw its rows")
        try require(try before.version(of: b, asOf: nil) == nil, "a reader opened before a commit saw a new row")
        try require(try open(store).version(of: b, asOf: nil)?.value == [2], "the commit's rows are not visible after it")
    }

    static func severalAtOnce(_ store: any ProjectionStateStore) throws {
        let c = RowKey(table: 1, key: "c")
        try commit(store, [v(a, 10, [10]), v(a, 20, [20]), v(b, 15, [15]), v(b, 25, nil), v(c, 30, [30])], at: 30, replacing: true)
        let s = try open(store)
        for position in [nil, 5, 10, 16, 20, 25, 30] as [UInt64?] {
            let together = try s.versions(of: [a, b, c, RowKey(table: 1, key: "never")], asOf: position)
            for key in [a, b, c, RowKey(table: 1, key: "never")] {
                let alone = try s.version(of: key, asOf: position)
                try require(together[key] == alone, "row \(key) as of \(String(describing: position)): \(String(describing: together[key])) together, \(String(describing: alone)) alone")
            }
        }
    }

    static func firstVersionStands(_ store: any ProjectionStateStore) throws {
        // A catch-up hands over a snapshot of a row (kept) and then its closing version (not kept) at the same
        // position; the first one written stands, so the kept one is what time travel finds.
        try commit(store, [v(a, 3, [1]), v(b, 3, [7]), v(a, 3, [2], keep: false)], at: 3, replacing: true)
        try require(try open(store).version(of: a, asOf: nil)?.value == [1], "the later of two versions at one position replaced the first")
        try commit(store, [v(a, 5, nil), v(a, 5, [5])], at: 5)
        try require(try open(store).version(of: a, asOf: nil)?.value == nil, "the later of two versions at one position replaced the first")
        try require(try open(store).version(of: a, asOf: 4)?.value == [1], "the row as of before the write changed")
    }

    static func asOf(_ store: any ProjectionStateStore) throws {
        try commit(store, [v(a, 10, [10]), v(a, 20, [20]), v(a, 30, [30]), v(a, 40, nil)], at: 40, replacing: true)
        let s = try open(store)
        // An absent version and no version are the same answer: the row is not there.
        let expected: [(UInt64?, [UInt8]?)] = [(5, nil), (10, [10]), (15, [10]), (20, [20]), (39, [30]), (40, nil), (nil, nil)]
        for (position, value) in expected {
            let read = try s.version(of: a, asOf: position)
            try require(read?.value == value, "row as of \(String(describing: position)) read \(String(describing: read))")
            if let read, read.value != nil { try require(read.position == (position.map { $0 / 10 * 10 } ?? 30), "row as of \(String(describing: position)) has position \(read.position)") }
        }
        try require(try s.rows(table: 1, asOf: 45).isEmpty, "a row absent from position 40 is listed at 45")
        try require(try s.rows(table: 1, asOf: 25).map(\.value) == [[20]], "a table as of 25 did not list row a's value then")
    }

    static func addsAndReplaces(_ store: any ProjectionStateStore) throws {
        try commit(store, [v(a, 1, [1]), v(b, 1, [1])], at: 1, replacing: true)
        try commit(store, [v(b, 2, [2])], at: 2)
        var s = try open(store)
        try require(try s.version(of: a, asOf: nil)?.value == [1], "a catch-up lost a row it did not change")
        try require(try s.version(of: b, asOf: nil)?.value == [2], "a catch-up's version is not the newest")
        try require(try s.version(of: b, asOf: 1)?.value == [1], "a catch-up lost the kept version before it")
        try commit(store, [v(b, 5, [5])], at: 5, replacing: true)
        s = try open(store)
        try require(try s.version(of: a, asOf: nil) == nil, "a rebuild kept a row it did not write")
        try require(try s.version(of: b, asOf: 2) == nil, "a rebuild kept an older version")
        try require(s.checkpoint.position == 5, "the rebuild's checkpoint is not the stored one")
    }

    static func groupsAndTables(_ store: any ProjectionStateStore) throws {
        var versions: [RowVersion] = []
        for user in ["ann", "bob", "annie"] {
            for part in ["001", "002", "003"] { versions.append(v(RowKey(table: 2, group: user, part: part), 1, Array("\(user)/\(part)".utf8))) }
        }
        versions.append(v(RowKey(table: 2, group: "ann", part: "002"), 7, nil))
        versions.append(v(RowKey(table: 3, key: "ann"), 1, [3]))
        try commit(store, versions, at: 7, replacing: true)
        let s = try open(store)
        let ann = try s.rows(group: RowKey.groupPrefix(table: 2, group: "ann"), asOf: nil).map { String(decoding: $0.value, as: UTF8.self) }
        try require(ann == ["ann/001", "ann/003"], "group ann read \(ann)")
        let annBefore = try s.rows(group: RowKey.groupPrefix(table: 2, group: "ann"), asOf: 6).map { String(decoding: $0.value, as: UTF8.self) }
        try require(annBefore == ["ann/001", "ann/002", "ann/003"], "group ann as of 6 read \(annBefore)")
        let table = try s.rows(table: 2, asOf: nil)
        try require(table.count == 8, "table 2 listed \(table.count) rows, not 8")
        try require(table.map(\.key) == table.map(\.key).sorted(), "a table's rows are not in stored order")
        try require(try s.rows(table: 3, asOf: nil).map(\.value) == [[3]], "table 3 did not list its one row")
        try require(try s.rows(table: 4, asOf: nil).isEmpty, "an unused table listed rows")
    }

    static func keptStay(_ store: any ProjectionStateStore) throws {
        let whole = RowKey(bytes: [0])
        try commit(store, [v(whole, 0, [0])], at: 0, replacing: true)
        for n in 1...40 as ClosedRange<UInt64> {
            try commit(store, [v(whole, n * 10, [UInt8(n)], keep: n % 8 == 0), v(a, n * 10, [UInt8(n)], keep: false)], at: n * 10)
        }
        let s = try open(store)
        for n in stride(from: 8, through: 40, by: 8) {
            try require(try s.version(of: whole, asOf: UInt64(n * 10 + 5))?.value == [UInt8(n)], "kept version at \(n * 10) is gone")
        }
        try require(try s.version(of: whole, asOf: 5)?.value == [0], "the first kept version is gone")
        let newest = try s.newestKept(whole)
        try require(newest == 400, "newestKept is \(String(describing: newest)), not 400")
        try require(try s.newestKept(a) == nil, "a row never kept has a newest kept version")
        try require(try s.version(of: a, asOf: nil)?.value == [40], "the newest version of a row not kept is gone")
    }

    static func locks(_ store: any ProjectionStateStore) throws {
        let first = try store.tryLock("p")
        try require(first != nil, "the lock of an idle projection could not be taken")
        try require(try store.tryLock("p") == nil, "the lock was taken twice")
        let other = try store.tryLock("q")
        try require(other != nil, "one projection's lock held another's")
        first?.unlock()
        let again = try store.tryLock("p")
        try require(again != nil, "the lock could not be taken after it was released")
        again?.unlock()
        other?.unlock()
    }

    static func versionsAndRemove(_ store: any ProjectionStateStore) throws {
        try commit(store, [v(a, 1, [1])], at: 1, replacing: true, version: 1)
        try commit(store, [v(a, 1, [2])], at: 1, replacing: true, version: 3)
        try commit(store, [v(a, 1, [9])], at: 1, replacing: true, name: "other", version: 2)
        let listed = try store.versions(of: "p")
        try require(listed == [1, 3], "versions of p are \(listed)")
        try store.remove("p", version: 1)
        let left = try store.versions(of: "p")
        try require(left == [3], "after removing v1, versions of p are \(left)")
        try require(try store.open("p", version: 1) == nil, "a removed version still opens")
        try require(try open(store, version: 3).version(of: a, asOf: nil)?.value == [2], "removing v1 changed v3")
        try require(try store.versions(of: "other") == [2], "removing p's version touched another projection")
    }

    /// Seeded random commits against a model: every read whose answer cannot have been dropped must match.
    static func model(_ store: any ProjectionStateStore) throws {
        var rng = Mix(seed: 0x5eed)
        var model: [RowKey: [RowVersion]] = [:]
        let keys = (0..<60).map { RowKey(table: UInt8(1 + $0 % 3), key: "k\($0)") }
        var position: UInt64 = 0
        for commitNumber in 0..<60 {
            var batch: [RowVersion] = []
            for _ in 0..<(1 + rng.next() % 40) {
                position += 1 + rng.next() % 3
                let key = keys[Int(rng.next() % UInt64(keys.count))]
                let value: [UInt8]? = rng.next() % 7 == 0 ? nil : (0..<Int(rng.next() % 24)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                let version = v(key, position, value, keep: rng.next() % 2 == 0)
                batch.append(version)
                model[key, default: []].append(version)
            }
            try commit(store, batch, at: position, replacing: commitNumber == 0)
        }
        let s = try open(store)
        try require(s.checkpoint.position == position, "checkpoint \(String(describing: s.checkpoint.position)), not \(position)")
        for key in keys {
            let history = model[key] ?? []
            for probe in [0, position / 4, position / 2, position * 3 / 4, position, .max] as [UInt64] {
                let expected = history.last { $0.position <= probe }
                // A version not kept may be gone once a newer one is stored.
                if let e = expected, !e.keep, e != history.last { continue }
                let read = try s.version(of: key, asOf: probe == .max ? nil : probe)
                // An absent version and no version are the same answer.
                let same = read?.value == expected?.value && (read?.value == nil || read?.position == expected?.position)
                try require(same, "\(key) as of \(probe): read \(String(describing: read)), expected \(String(describing: expected))")
            }
        }
    }
}

/// splitmix64, for seeded cases.
public struct Mix {
    var state: UInt64

    /// A generator starting from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next number.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
