import EventLog
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
