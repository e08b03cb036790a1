import EventLog
@testable import EventLogTestKit
import Foundation
import Testing

/// A bulk append's entries are checked in two halves at once; what is reported must be what a check in entry order
/// reports: the first problem, whichever half finds one first.
@Suite struct AppendValidationHalvesTests {
    static let count = 6_000

    /// `count` valid entries over 50 streams, with a bad event type at each of `bad`.
    static func request(badTypesAt bad: [Int], checkOnly: String? = nil) -> AppendRequest {
        let entries = (0..<count).map { i in
            AppendRequest.Entry(stream: stream("toy-\(i % 50)"), event: .json(bad.contains(i) ? "\(i)-bad" : "Bought", "{\"n\":\(i)}"))
        }
        let expectations = checkOnly.map { [AppendRequest.Expectation(stream: stream($0), expected: .exact(1), checkOnly: true)] } ?? []
        return AppendRequest(entries: entries, expectations: expectations)
    }

    @Test func `the first problem in entry order is reported, from either half`() {
        for bad in [[10], [5_000], [10, 5_000], [2_999, 3_000], [3_000, 5_999]] {
            let first = bad.min()!
            #expect(throws: EventStoreError.invalidRequest("event type '\(first)-bad' must start with an ASCII letter")) {
                try AppendPlanner.validate(Self.request(badTypesAt: bad))
            }
        }
    }

    @Test func `a valid bulk append passes, and a stream both written and check-only is refused`() throws {
        try AppendPlanner.validate(Self.request(badTypesAt: []))
        #expect(throws: EventStoreError.invalidRequest("stream 'toy-7' is both written and check-only in the same append")) {
            try AppendPlanner.validate(Self.request(badTypesAt: [], checkOnly: "toy-7"))
        }
    }

    @Test func `the size limit counts both halves`() {
        let half = EventLimits.maxAppendBytes / Self.count + 1
        let payload = "{\"p\":\"" + String(repeating: "x", count: half) + "\"}"
        let entries = (0..<Self.count).map { i in AppendRequest.Entry(stream: stream("toy-\(i % 50)"), event: .json("Bought", payload)) }
        do {
            try AppendPlanner.validate(AppendRequest(entries: entries, expectations: []))
            Issue.record("an append over the size limit passed")
        } catch {
            #expect("\(error)".contains("bytes of events; the limit is \(EventLimits.maxAppendBytes) per append"))
        }
    }

    /// The streams an append names are its expectations' and its entries' without one, each counted once.
    @Test(arguments: [1, 40])
    func `streams are counted once across expectations and entries`(namedByScan: Int) throws {
        let limit = EventLimits.maxStreamsPerAppend
        func append(entryStreams: [String], named: [String]) -> AppendRequest {
            AppendRequest(
                entries: entryStreams.map { .init(stream: stream($0), event: .json("Bought", "{}")) },
                expectations: named.map { .init(stream: stream($0), expected: .any) })
        }
        // Few or many expectations (a scan or a set finds repeats), every written stream among them: at the limit.
        let named = (0..<namedByScan).map { "n-\($0)" }
        let written = (0..<(limit - namedByScan)).map { "w-\($0)" }
        try AppendPlanner.validate(append(entryStreams: written + named, named: named))
        try AppendPlanner.validate(append(entryStreams: Array(written.dropLast(3)) + written.prefix(3), named: named))
        // One stream more, written without an expectation, is refused.
        #expect(throws: EventStoreError.invalidRequest("the append names more than \(limit) streams")) {
            try AppendPlanner.validate(append(entryStreams: Array((written + ["x-1"]).suffix(limit)), named: named + ["y-1"]))
        }
    }

    /// What a caller proves is not checked again, but the limits on the whole append always are.
    @Test func `a proven append still keeps the append's limits`() throws {
        let ok = try AppendPlanner.validated(Self.request(badTypesAt: []), proven: [.entries, .distinct])
        #expect(ok.isValidated)
        let tooMany = AppendRequest(
            entries: (0...EventLimits.maxEventsPerAppend).map { .init(stream: stream("toy-\($0 % 50)"), event: .json("Bought", "{}")) },
            expectations: [])
        #expect(throws: EventStoreError.invalidRequest("the append holds \(tooMany.entries.count) events; the limit is \(EventLimits.maxEventsPerAppend) per append")) {
            _ = try AppendPlanner.validated(tooMany, proven: [.entries, .distinct])
        }
        let payload = "{\"p\":\"" + String(repeating: "x", count: EventLimits.maxAppendBytes / Self.count + 1) + "\"}"
        let large = AppendRequest(entries: (0..<Self.count).map { .init(stream: stream("toy-\($0 % 50)"), event: .json("Bought", payload)) }, expectations: [])
        #expect(throws: (any Error).self) { _ = try AppendPlanner.validated(large, proven: [.entries, .distinct]) }
        let limit = EventLimits.maxStreamsPerAppend
        let named = (0..<(limit / 2 + 1)).map { AppendRequest.Expectation(stream: stream("n-\($0)"), expected: .any) }
        let wide = AppendRequest(
            entries: (0..<(limit / 2 + 1)).map { .init(stream: stream("w-\($0)"), event: .json("Bought", "{}")) }, expectations: named)
        #expect(throws: EventStoreError.invalidRequest("the append names more than \(limit) streams")) {
            _ = try AppendPlanner.validated(wide, proven: [.entries, .distinct])
        }
        // What was not claimed is still checked.
        #expect(throws: EventStoreError.invalidRequest("event type '7-bad' must start with an ASCII letter")) {
            _ = try AppendPlanner.validated(Self.request(badTypesAt: [7]), proven: [.distinct])
        }
    }
}
