import PawtrailIO
import Testing

/// A JSON event payload like the ones the log holds.
func syntheticEvent(_ i: Int, _ rng: inout SplitMix64) -> [UInt8] {
    let kinds = ["PetAdmitted", "PetVaccinated", "PetAdopted", "VisitBooked", "StockReserved"]
    let species = ["dog", "cat", "rabbit", "parrot"]
    let text = """
        {"type":"\(kinds[i % kinds.count])","petId":"pet-\(Int.random(in: 1...9999, using: &rng))",\
        "species":"\(species[Int.random(in: 0..<species.count, using: &rng)])",\
        "weightKg":\(Int.random(in: 1...60, using: &rng)).\(Int.random(in: 0...9, using: &rng)),\
        "shelter":"shelter-\(Int.random(in: 1...20, using: &rng))","recordedBy":"user:\(Int.random(in: 1...300, using: &rng))",\
        "notes":"routine check \(i)"}
        """
    return Array(text.utf8)
}

func compress(_ bytes: [UInt8], level: Int32 = 3, dictionary: ZstdDictionary? = nil) throws -> [UInt8] {
    var out: [UInt8] = []
    try bytes.withUnsafeBytes { try ZstdCompressor().compress($0, level: level, dictionary: dictionary, appendingTo: &out) }
    return out
}

func decompress(_ frame: [UInt8], size: Int, dictionary: ZstdDictionary? = nil) throws -> [UInt8] {
    try frame.withUnsafeBytes { try ZstdDecompressor().decompress($0, size: size, dictionary: dictionary) }
}

@Suite("Zstd")
struct ZstdTests {
    @Test(arguments: [0, 1, 17, 1000, 65_536, 1 << 20])
    func roundTripsWithoutADictionary(size: Int) throws {
        var rng = SplitMix64(seed: UInt64(size))
        // Half random, half repetitive, so it is neither trivially compressible nor incompressible.
        let data = rng.bytes(size / 2) + [UInt8](repeating: 0x61, count: size - size / 2)
        let frame = try compress(data)
        #expect(try decompress(frame, size: data.count) == data)
        if size >= 1000 { #expect(frame.count < data.count) }
    }

    @Test
    func compressAppendsToTheOutput() throws {
        let data = Array(String(repeating: "pawtrail ", count: 100).utf8)
        var out: [UInt8] = [1, 2, 3]
        let compressor = ZstdCompressor()
        try data.withUnsafeBytes { try compressor.compress($0, level: 3, dictionary: nil, appendingTo: &out) }
        #expect(Array(out.prefix(3)) == [1, 2, 3])
        let frame = Array(out.dropFirst(3))
        #expect(try decompress(frame, size: data.count) == data)
        // The context is reusable, and a second frame appends after the first.
        let before = out.count
        try data.withUnsafeBytes { try compressor.compress($0, level: 19, dictionary: nil, appendingTo: &out) }
        #expect(try decompress(Array(out[before...]), size: data.count) == data)
    }

    @Test
    func trainedDictionaryRoundTripsAndHelps() throws {
        var rng = SplitMix64(seed: 2026)
        let samples = (0..<2000).map { syntheticEvent($0, &rng) }
        let dictBytes = try ZstdDictionary.train(samples: samples.flatMap { $0 }, sizes: samples.map(\.count), capacity: 16 << 10)
        #expect(!dictBytes.isEmpty)
        #expect(dictBytes.count <= 16 << 10)
        let dictionary = try ZstdDictionary(bytes: dictBytes, level: 3)
        #expect(dictionary.bytes == dictBytes)
        #expect(dictionary.level == 3)

        var plainTotal = 0
        var dictTotal = 0
        let compressor = ZstdCompressor()
        let decompressor = ZstdDecompressor()
        for i in 0..<200 {
            let e = syntheticEvent(10_000 + i, &rng)
            var withDict: [UInt8] = []
            try e.withUnsafeBytes { try compressor.compress($0, level: 3, dictionary: dictionary, appendingTo: &withDict) }
            var plain: [UInt8] = []
            try e.withUnsafeBytes { try compressor.compress($0, level: 3, dictionary: nil, appendingTo: &plain) }
            let back = try withDict.withUnsafeBytes { try decompressor.decompress($0, size: e.count, dictionary: dictionary) }
            #expect(back == e)
            plainTotal += plain.count
            dictTotal += withDict.count
            // Without the dictionary the frame does not decompress to the event.
            let without = try? withDict.withUnsafeBytes { try decompressor.decompress($0, size: e.count, dictionary: nil) }
            #expect(without != e)
        }
        #expect(dictTotal < plainTotal / 2, "a trained dictionary should at least halve small JSON frames")
    }

    @Test
    func trainingFromTooFewSamplesThrows() {
        #expect(throws: ZstdError.self) {
            _ = try ZstdDictionary.train(samples: Array("{}{}".utf8), sizes: [2, 2], capacity: 4096)
        }
    }

    @Test
    func wrongSizeIsDetected() throws {
        let data = Array(String(repeating: "wrong size ", count: 50).utf8)
        let frame = try compress(data)
        #expect(throws: ZstdError.self) { try decompress(frame, size: data.count - 1) }
        #expect(throws: ZstdError.self) { try decompress(frame, size: data.count + 1) }
        #expect(throws: ZstdError.self) { try decompress(frame, size: 0) }
    }

    @Test
    func garbageAndTruncatedFramesThrow() throws {
        var rng = SplitMix64(seed: 13)
        #expect(throws: ZstdError.self) { try decompress(rng.bytes(64), size: 64) }
        #expect(throws: ZstdError.self) { try decompress([], size: 10) }
        #expect(throws: ZstdError.self) { try decompress(Array("not zstd at all".utf8), size: 15) }
        let data = rng.bytes(5000)
        let frame = try compress(data)
        #expect(throws: ZstdError.self) { try decompress(Array(frame.dropLast(5)), size: data.count) }
        #expect(throws: ZstdError.self) { try decompress(Array(frame.prefix(6)), size: data.count) }
        // A flipped byte in the middle of a compressible frame: an error, or at least not the original.
        let text = Array(String(repeating: "the same words again ", count: 200).utf8)
        var damaged = try compress(text)
        damaged[damaged.count / 2] ^= 0x5A
        #expect((try? decompress(damaged, size: text.count)) != text)
    }
}
