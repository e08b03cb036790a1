import EventLog
@testable import EventLogTestKit
import Testing

/// Metadata's byte-level views agree with its pairs, and malformed bytes end a visit instead of trapping.
@Suite struct EventMetadataTests {
    private let sample: EventMetadata = ["actor": "user-7", "correlationId": "c-1", "empty": "", "note": "caf\u{00E9} \u{1F43E}"]

    @Test func `the byte views agree with the pairs`() {
        var seen: [(String, String)] = []
        sample.forEachPairBytes { k, v in
            seen.append((String(decoding: k, as: UTF8.self), String(decoding: v, as: UTF8.self)))
            return true
        }
        #expect(seen.map(\.0) == sample.pairs.map(\.key))
        #expect(seen.map(\.1) == sample.pairs.map(\.value))
        #expect(sample.contentSize == sample.pairs.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count })
        for (key, value) in sample.pairs {
            #expect(sample.withValueBytes(forKey: key) { String(decoding: $0, as: UTF8.self) } == value)
            #expect(sample[key] == value)
        }
        #expect(sample.withValueBytes(forKey: "absent") { _ in 1 } == nil)
        #expect(sample.withValueBytes(forKey: "") { _ in 1 } == nil)
    }

    @Test func `a visit stops when asked`() {
        var visited = 0
        sample.forEachPairBytes { _, _ in
            visited += 1
            return visited < 2
        }
        #expect(visited == 2)
    }

    @Test(arguments: [1, 2, 5, 9])
    func `malformed bytes end a visit without trapping`(cut: Int) {
        // The canonical bytes cut short, and a length that runs past the end, under a count that claims more.
        let truncated = EventMetadata(encoded: Array(sample.encoded.prefix(cut)), count: sample.count)
        let runaway = EventMetadata(encoded: [0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x61], count: 1)
        for metadata in [truncated, runaway] {
            var pairs = 0
            metadata.forEachPairBytes { _, _ in
                pairs += 1
                return true
            }
            #expect(pairs < sample.count)
            #expect(metadata.withValueBytes(forKey: "note") { _ in 1 } == nil)
            _ = metadata.contentSize
            _ = metadata.pairs
        }
    }
}

/// Metadata made from raw bytes is held to what metadata made from strings always is.
@Suite struct EventMetadataValidationTests {
    private func verdict(_ encoded: [UInt8], count: Int) -> String {
        let event = ProposedEvent(type: "Noted", data: [], metadata: EventMetadata(encoded: encoded, count: count))
        do {
            try EventLimits.validateEvent(event)
            return "ok"
        } catch {
            return "\(error)"
        }
    }

    @Test func `canonical bytes pass, as metadata made from strings does`() {
        let metadata: EventMetadata = ["actor": "user-7", "note": "caf\u{00E9}"]
        #expect(verdict(metadata.encoded, count: metadata.count) == "ok")
        #expect(verdict([], count: 0) == "ok")
    }

    @Test func `invalid UTF-8, a count the bytes do not hold, or bytes left over are refused`() {
        // A 128-byte key of 0xFF: within the length limit, not UTF-8 (judged by its own length, not its repaired one).
        let badKey: [UInt8] = [0x80, 0x01] + [UInt8](repeating: 0xFF, count: 128) + [0x01, 0x76]
        #expect(verdict(badKey, count: 1).contains("is not valid UTF-8"))
        let badValue: [UInt8] = [0x01, 0x6B, 0x02, 0xC3, 0x28]
        #expect(verdict(badValue, count: 1).contains("the value of metadata key 'k' is not valid UTF-8"))
        let pair: [UInt8] = [0x01, 0x6B, 0x01, 0x76]
        #expect(verdict(pair, count: 2).contains("canonical encoding"))
        #expect(verdict(pair + [0x00], count: 1).contains("canonical encoding"))
        #expect(verdict(Array(pair.dropLast()), count: 1).contains("canonical encoding"))
        // A length written in two bytes where one would do.
        #expect(verdict([0x81, 0x00, 0x6B, 0x01, 0x76], count: 1).contains("canonical encoding"))
        #expect(verdict(pair, count: 1) == "ok")
    }
}

/// What the metadata check refuses beyond encoding errors.
@Suite struct EventMetadataCanonicalTests {
    /// A negative pair count (only `EventMetadata(encoded:count:)` makes one) must be refused, not trap in `0..<count`.
    @Test func `a negative pair count is refused, not a trap`() async {
        await #expect(processExitsWith: .success) {
            let event = ProposedEvent(type: "Noted", data: [], metadata: EventMetadata(encoded: [], count: -1))
            #expect(throws: EventStoreError.self) { try EventLimits.validateEvent(event) }
        }
    }

    /// "The canonical encoding: for each pair in key order", and "Pairs are kept sorted by key with unique
    /// keys": raw bytes with keys out of order, or a key twice, are refused.
    @Test func `keys out of order or repeated are not the canonical encoding`() {
        // b=1, a=2: both pairs well formed, not in key order.
        let unsorted = EventMetadata(encoded: [0x01, 0x62, 0x01, 0x31, 0x01, 0x61, 0x01, 0x32], count: 2)
        #expect(throws: EventStoreError.self) { try EventLimits.validateEvent(ProposedEvent(type: "Noted", data: [], metadata: unsorted)) }
        // Its lookups disagree (the subscript stops at the first key past the one asked for): why it is refused.
        #expect(unsorted["a"] == nil)
        #expect(unsorted.withValueBytes(forKey: "a") { String(decoding: $0, as: UTF8.self) } == "2")
        // a=1, a=2
        let repeated = EventMetadata(encoded: [0x01, 0x61, 0x01, 0x31, 0x01, 0x61, 0x01, 0x32], count: 2)
        #expect(throws: EventStoreError.self) { try EventLimits.validateEvent(ProposedEvent(type: "Noted", data: [], metadata: repeated)) }
    }
}
