import EventLogTestKit
public import Projections

/// The cases every ``Projections/PersonalIndex`` must pass: each backend's tests run every case against a fresh, empty
/// index made by a factory of theirs.
///
/// ```swift
/// @Test(arguments: PersonalIndexConformance.cases)
/// func conformance(_ c: PersonalIndexConformance.Case) async throws {
///     try await c.run(makeEmptyIndex())
/// }
/// ```
public enum PersonalIndexConformance {
    /// One case: a name for the test report and the check, which throws ``EventLogTestKit/ConformanceFailure``.
    public struct Case: Sendable, CustomStringConvertible {
        public let name: String
        public let run: @Sendable (any PersonalIndex) async throws -> Void

        public var description: String { name }
    }

    /// Every case.
    public static let cases: [Case] = [
        Case(name: "an empty index has no checkpoint and no subjects", run: empty),
        Case(name: "entries answer in sort order, as of any position, with their checkpoint", run: ordered),
        Case(name: "a search matches words at the start of terms only, and pages", run: search),
        Case(name: "a put ends the subject's entry before it, and entry() gives the newest", run: replaced),
        Case(name: "an erasure removes the subject's entries, present and past", run: erased),
        Case(name: "remembered values read back by position, and an erasure forgets its subject's", run: remembered),
        Case(name: "apply refuses a stale position or version, and stores nothing then", run: stale),
        Case(name: "reset forgets everything", run: reset),
    ]

    static func entry(_ name: String, _ email: String = "") -> PersonalIndexEntry {
        PersonalIndexEntry(values: [name, email, ""], sortKey: name.lowercased(), terms: Format.words(name) + Format.words(email))
    }

    static func empty(_ index: any PersonalIndex) async throws {
        let checkpoint = try await index.checkpoint()
        try require(checkpoint == nil, "a fresh index has a checkpoint")
        let (subjects, total) = try await index.subjects(asOf: 100, matching: [], offset: 0, limit: 10)
        try require(subjects.isEmpty && total == 0, "a fresh index answers \(subjects)")
        let found = try await index.entry(of: "u-1")
        try require(found == nil, "a fresh index has an entry")
    }

    static func ordered(_ index: any PersonalIndex) async throws {
        let stored = try await index.apply(
            [.put("u-3", entry("Cy"), at: 5), .put("u-1", entry("Ann"), at: 7), .put("u-2", entry("Bo"), at: 9), .put("u-0", entry("Ann"), at: 9)],
            from: nil, through: 10, version: 3)
        try require(stored, "the first apply into an empty index was refused")
        let checkpoint = try await index.checkpoint()
        try require(checkpoint.map { $0.version == 3 && $0.position == 10 } == true, "the checkpoint is not (3, 10)")
        let all = try await index.subjects(asOf: 10, matching: [], offset: 0, limit: 10)
        try require(all.subjects == ["u-0", "u-1", "u-2", "u-3"] && all.total == 4, "in order: \(all)")
        let at8 = try await index.subjects(asOf: 8, matching: [], offset: 0, limit: 10)
        try require(at8.subjects == ["u-1", "u-3"] && at8.total == 2, "as of 8: \(at8)")
        let before = try await index.subjects(asOf: 4, matching: [], offset: 0, limit: 10)
        try require(before.subjects.isEmpty && before.total == 0, "as of 4: \(before)")
        let page = try await index.subjects(asOf: 10, matching: [], offset: 1, limit: 2)
        try require(page.subjects == ["u-1", "u-2"] && page.total == 4, "the second page of two: \(page)")
    }

    static func search(_ index: any PersonalIndex) async throws {
        _ = try await index.apply(
            [.put("u-1", entry("Ann Quokka", "ann@shop.example"), at: 1), .put("u-2", entry("Bob Annand", "bob@shop.example"), at: 2)],
            from: nil, through: 2, version: 1)
        let ann = try await index.subjects(asOf: 2, matching: ["ann"], offset: 0, limit: 10)
        try require(ann.subjects == ["u-1", "u-2"] && ann.total == 2, "'ann' starts a word of both: \(ann)")
        let both = try await index.subjects(asOf: 2, matching: ["ann", "quo"], offset: 0, limit: 10)
        try require(both.subjects == ["u-1"], "every word must match: \(both)")
        let inside = try await index.subjects(asOf: 2, matching: ["nand"], offset: 0, limit: 10)
        try require(inside.subjects.isEmpty && inside.total == 0, "a word inside a term matches nothing: \(inside)")
        let byMail = try await index.subjects(asOf: 2, matching: ["shop"], offset: 1, limit: 5)
        try require(byMail.subjects == ["u-2"] && byMail.total == 2, "a search pages: \(byMail)")
    }

    static func replaced(_ index: any PersonalIndex) async throws {
        _ = try await index.apply([.put("u-1", entry("Zed"), at: 1), .put("u-2", entry("Max"), at: 2)], from: nil, through: 2, version: 1)
        _ = try await index.apply([.put("u-1", entry("Abe"), at: 4)], from: 2, through: 5, version: 1)
        _ = try await index.apply([.put("u-1", entry("Kim"), at: 6), .put("u-1", entry("Lou"), at: 7)], from: 5, through: 8, version: 1)
        let newest = try await index.entry(of: "u-1")
        try require(newest == entry("Lou"), "the newest entry is not Lou's")
        for (position, expected) in [(3, ["u-2", "u-1"]), (4, ["u-1", "u-2"]), (6, ["u-1", "u-2"]), (7, ["u-1", "u-2"])] as [(UInt64, [String])] {
            let found = try await index.subjects(asOf: position, matching: [], offset: 0, limit: 10)
            try require(found.subjects == expected && found.total == 2, "as of \(position): \(found)")
        }
        let named = try await index.subjects(asOf: 6, matching: ["kim"], offset: 0, limit: 10)
        try require(named.subjects == ["u-1"], "as of 6 the name is Kim: \(named)")
        let later = try await index.subjects(asOf: 8, matching: ["kim"], offset: 0, limit: 10)
        try require(later.subjects.isEmpty, "as of 8 the name is Lou: \(later)")
    }

    static func erased(_ index: any PersonalIndex) async throws {
        _ = try await index.apply([.put("u-1", entry("Ann"), at: 1), .put("u-2", entry("Bo"), at: 2)], from: nil, through: 2, version: 1)
        _ = try await index.apply([.put("u-1", entry("Anna"), at: 3), .erase("u-1"), .put("u-3", entry("Cy"), at: 4)], from: 2, through: 4, version: 1)
        for position in [1, 2, 3, 4] as [UInt64] {
            let found = try await index.subjects(asOf: position, matching: [], offset: 0, limit: 10)
            try require(!found.subjects.contains("u-1"), "as of \(position) the erased subject is listed: \(found)")
        }
        let left = try await index.entry(of: "u-1")
        try require(left == nil, "an erased subject has an entry")
        let named = try await index.subjects(asOf: 1, matching: ["ann"], offset: 0, limit: 10)
        try require(named.subjects.isEmpty && named.total == 0, "the erased name is still found: \(named)")
        let rest = try await index.subjects(asOf: 4, matching: [], offset: 0, limit: 10)
        try require(rest.subjects == ["u-2", "u-3"], "others are kept: \(rest)")
    }

    static func remembered(_ index: any PersonalIndex) async throws {
        _ = try await index.apply(
            [
                .remember(1, subject: "u-1", values: ["Ann", "ann@shop.example"]), .put("u-1", entry("Ann"), at: 1),
                .remember(2, subject: "u-2", values: ["Bo", ""]), .remember(4, subject: "u-1", values: ["Anna"]),
            ], from: nil, through: 4, version: 1)
        let read = try await index.values(at: [1, 2, 3, 4])
        try require(read == [1: ["Ann", "ann@shop.example"], 2: ["Bo", ""], 4: ["Anna"]], "read back \(read)")
        let positions = try await index.rememberedPositions()
        try require(positions == [1, 2, 4], "remembered positions \(positions)")
        _ = try await index.apply([.remember(5, subject: "u-1", values: ["Annie"]), .erase("u-1")], from: 4, through: 6, version: 1)
        let after = try await index.values(at: [1, 2, 4, 5])
        try require(after == [2: ["Bo", ""]], "after the erasure \(after)")
        let left = try await index.rememberedPositions()
        try require(left == [2], "remembered positions after the erasure \(left)")
    }

    static func stale(_ index: any PersonalIndex) async throws {
        _ = try await index.apply([.put("u-1", entry("Ann"), at: 1)], from: nil, through: 3, version: 1)
        let staleTaken = try await index.apply([.put("u-2", entry("Bo"), at: 2)], from: 1, through: 5, version: 1)
        try require(!staleTaken, "a stale position was taken")
        let emptyTaken = try await index.apply([.put("u-2", entry("Bo"), at: 4)], from: nil, through: 5, version: 1)
        try require(!emptyTaken, "an empty start was taken")
        let otherVersionTaken = try await index.apply([.put("u-2", entry("Bo"), at: 4)], from: 3, through: 5, version: 2)
        try require(!otherVersionTaken, "another version was taken")
        let refused = try await index.entry(of: "u-2")
        try require(refused == nil, "a refused apply stored an entry")
        let afterRefusals = try await index.checkpoint()
        try require(afterRefusals.map { $0.position == 3 } == true, "a refused apply moved the checkpoint")
    }

    static func reset(_ index: any PersonalIndex) async throws {
        _ = try await index.apply([.put("u-1", entry("Ann"), at: 1)], from: nil, through: 3, version: 1)
        try await index.reset()
        try await empty(index)
        let restarted = try await index.apply([.put("u-2", entry("Bo"), at: 1)], from: nil, through: 1, version: 2)
        try require(restarted, "a reset index refuses a start")
    }
}
