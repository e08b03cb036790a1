import PawtrailIO
import Testing

/// Runs a reader over bytes.
func reading<R>(_ bytes: [UInt8], _ body: (inout ByteReader) throws(ByteReaderError) -> R) throws(ByteReaderError) -> R {
    let outcome: Result<R, ByteReaderError> = bytes.withUnsafeBytes { raw in
        var reader = ByteReader(raw)
        do throws(ByteReaderError) { return .success(try body(&reader)) } catch { return .failure(error) }
    }
    return try outcome.get()
}

@Suite("ByteWriter and ByteReader")
struct ByteCodingTests {
    @Test
    func fixedWidthIntegersAreLittleEndianAndRoundTrip() throws {
        var w = ByteWriter()
        w.write(UInt8(0xAB))
        w.write(UInt16(0x0102))
        w.write(UInt32(0x0102_0304))
        w.write(UInt64(0x0102_0304_0506_0708))
        w.write(Int8(-2))
        w.write(Int16.min)
        w.write(Int32(-1))
        w.write(Int64.min)
        w.write(UInt64.max)
        #expect(Array(w.bytes[0..<15]) == [0xAB, 0x02, 0x01, 0x04, 0x03, 0x02, 0x01, 8, 7, 6, 5, 4, 3, 2, 1])
        #expect(w.count == 1 + 2 + 4 + 8 + 1 + 2 + 4 + 8 + 8)
        try reading(w.bytes) { (r) throws(ByteReaderError) in
            #expect(try r.read(UInt8.self) == 0xAB)
            #expect(try r.read(UInt16.self) == 0x0102)
            #expect(try r.read(UInt32.self) == 0x0102_0304)
            #expect(try r.read(UInt64.self) == 0x0102_0304_0506_0708)
            #expect(try r.read(Int8.self) == -2)
            #expect(try r.read(Int16.self) == .min)
            #expect(try r.read(Int32.self) == -1)
            #expect(try r.read(Int64.self) == .min)
            #expect(try r.read(UInt64.self) == .max)
            #expect(r.isAtEnd)
            #expect(r.remaining == 0)
        }
    }

    static let varints: [(UInt64, [UInt8])] = [
        (0, [0x00]), (1, [0x01]), (127, [0x7F]), (128, [0x80, 0x01]), (300, [0xAC, 0x02]), (16_383, [0xFF, 0x7F]),
        (16_384, [0x80, 0x80, 0x01]), (UInt64(UInt32.max), [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
        (1 << 63, [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
        (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ]

    @Test(arguments: varints)
    func varintsAtBoundaries(value: UInt64, encoded: [UInt8]) throws {
        var w = ByteWriter()
        w.writeVarint(value)
        #expect(w.bytes == encoded)
        let decoded = try reading(encoded) { (r) throws(ByteReaderError) in
            let v = try r.readVarint()
            #expect(r.isAtEnd)
            return v
        }
        #expect(decoded == value)
    }

    @Test
    func signedVarintsUseZigzag() throws {
        let cases: [(Int64, UInt64)] = [
            (0, 0), (-1, 1), (1, 2), (-2, 3), (2, 4), (63, 126), (-64, 127), (64, 128),
            (.max, .max - 1), (.min, .max),
        ]
        for (value, zigzag) in cases {
            var w = ByteWriter()
            w.writeSignedVarint(value)
            var plain = ByteWriter()
            plain.writeVarint(zigzag)
            #expect(w.bytes == plain.bytes, "\(value)")
            #expect(try reading(w.bytes) { (r) throws(ByteReaderError) in try r.readSignedVarint() } == value)
        }
        var rng = SplitMix64(seed: 5)
        for _ in 0..<1000 {
            let v = Int64(bitPattern: rng.next()) >> Int64.random(in: 0...63, using: &rng)
            var w = ByteWriter()
            w.writeSignedVarint(v)
            #expect(try reading(w.bytes) { (r) throws(ByteReaderError) in try r.readSignedVarint() } == v)
        }
    }

    @Test
    func shortInputThrowsInsteadOfTrapping() {
        #expect(throws: ByteReaderError.self) { try reading([]) { (r) throws(ByteReaderError) in try r.read(UInt8.self) } }
        #expect(throws: ByteReaderError.self) { try reading([1, 2, 3]) { (r) throws(ByteReaderError) in try r.read(UInt32.self) } }
        #expect(throws: ByteReaderError.self) { try reading([1, 2, 3, 4, 5, 6, 7]) { (r) throws(ByteReaderError) in try r.read(Int64.self) } }
        #expect(throws: ByteReaderError.self) { try reading([]) { (r) throws(ByteReaderError) in try r.readVarint() } }
        #expect(throws: ByteReaderError.self) { try reading([0x80]) { (r) throws(ByteReaderError) in try r.readVarint() } }
        #expect(throws: ByteReaderError.self) { try reading([0xFF, 0xFF, 0xFF]) { (r) throws(ByteReaderError) in try r.readSignedVarint() } }
        #expect(throws: ByteReaderError.self) { try reading([1, 2]) { (r) throws(ByteReaderError) in try r.readBytes(3) } }
        #expect(throws: ByteReaderError.self) { try reading([1, 2]) { (r) throws(ByteReaderError) in try r.readBytes(-1) } }
        #expect(throws: ByteReaderError.self) { try reading([1, 2]) { (r) throws(ByteReaderError) in try r.readView(3) } }
        // A read that fails does not move the reader.
        let offset = try? reading([1, 2, 3]) { (r) throws(ByteReaderError) in
            _ = try? r.read(UInt32.self)
            return r.offset
        }
        #expect(offset == 0)
    }

    @Test
    func overlongVarintsThrow() {
        // Eleven bytes: more than any UInt64 needs.
        let eleven = [UInt8](repeating: 0x80, count: 10) + [0x01]
        #expect(throws: ByteReaderError.self) { try reading(eleven) { (r) throws(ByteReaderError) in try r.readVarint() } }
        // Ten bytes whose last one carries bits past 2^64: must not silently wrap to a wrong value.
        let overflowing: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
        #expect(throws: ByteReaderError.self, "a varint above UInt64.max decodes to a wrong value") {
            try reading(overflowing) { (r) throws(ByteReaderError) in try r.readVarint() }
        }
    }

    @Test
    func lengthsPastTheEndThrow() throws {
        // Length 5 with 3 bytes left.
        #expect(throws: ByteReaderError.self) { try reading([5, 1, 2, 3]) { (r) throws(ByteReaderError) in try r.readLength() } }
        #expect(throws: ByteReaderError.self) {
            try reading([5, 1, 2, 3]) { (r) throws(ByteReaderError) in try r.readLengthPrefixedBytes() }
        }
        #expect(throws: ByteReaderError.self) {
            try reading([5, 0x61, 0x62]) { (r) throws(ByteReaderError) in try r.readLengthPrefixedString() }
        }
        // A huge length (UInt64.max, and one past Int.max) must throw, not trap converting to Int.
        var w = ByteWriter()
        w.writeVarint(.max)
        w.write(bytes: [1, 2, 3])
        #expect(throws: ByteReaderError.self) { try reading(w.bytes) { (r) throws(ByteReaderError) in try r.readLength() } }
        var w2 = ByteWriter()
        w2.writeVarint(UInt64(Int.max) + 1)
        #expect(throws: ByteReaderError.self) {
            try reading(w2.bytes) { (r) throws(ByteReaderError) in try r.readLengthPrefixedBytes() }
        }
        // Exactly fitting is fine.
        #expect(try reading([3, 1, 2, 3]) { (r) throws(ByteReaderError) in try r.readLengthPrefixedBytes() } == [1, 2, 3])
    }

    @Test
    func invalidUTF8Throws() {
        for bad: [UInt8] in [[0xC3, 0x28], [0xFF], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF8, 0x88, 0x80, 0x80, 0x80]] {
            var w = ByteWriter()
            w.writeLengthPrefixed(bad)
            #expect(throws: ByteReaderError.self, "\(bad)") {
                try reading(w.bytes) { (r) throws(ByteReaderError) in try r.readLengthPrefixedString() }
            }
        }
    }

    @Test
    func stringsAndBytesRoundTrip() throws {
        let strings = ["", "a", "pet-🐶-ß", "заказ-1", "e\u{301}", String(repeating: "x", count: 200), "nul\u{0}inside"]
        var w = ByteWriter(capacity: 16)
        for s in strings { w.writeLengthPrefixed(s) }
        w.writeLengthPrefixed([UInt8]())
        w.writeLengthPrefixed([0, 1, 2, 255])
        [UInt8](arrayLiteral: 9, 8).withUnsafeBytes { w.write(bytes: $0) }
        w.write(bytes: [7])
        let back = try reading(w.bytes) { (r) throws(ByteReaderError) in
            var out: [String] = []
            for _ in strings { out.append(try r.readLengthPrefixedString()) }
            #expect(try r.readLengthPrefixedBytes() == [])
            #expect(try r.readLengthPrefixedBytes() == [0, 1, 2, 255])
            #expect(Array(try r.readView(2)) == [9, 8])
            #expect(try r.readBytes(1) == [7])
            #expect(r.isAtEnd)
            return out
        }
        #expect(back.map { Array($0.utf8) } == strings.map { Array($0.utf8) })
        // 200 bytes take a two-byte length.
        var long = ByteWriter()
        long.writeLengthPrefixed(String(repeating: "x", count: 200))
        #expect(Array(long.bytes.prefix(2)) == [0xC8, 0x01])
    }

    @Test
    func setOverwritesInPlace() throws {
        var w = ByteWriter()
        w.write(UInt32(0))
        w.write(UInt8(0xEE))
        w.set(UInt32(0xDEAD_BEEF), at: 0)
        #expect(w.bytes == [0xEF, 0xBE, 0xAD, 0xDE, 0xEE])
        w.set(UInt16(0x0102), at: 3)
        #expect(w.bytes == [0xEF, 0xBE, 0xAD, 0x02, 0x01])
    }

    @Test
    func readerStartsAtAnOffset() throws {
        let bytes: [UInt8] = [0xFF, 0xFF, 0x2A, 0x00]
        let v = bytes.withUnsafeBytes { raw -> UInt16? in
            var r = ByteReader(raw, offset: 2)
            #expect(r.remaining == 2)
            return try? r.read(UInt16.self)
        }
        #expect(v == 42)
    }
}
