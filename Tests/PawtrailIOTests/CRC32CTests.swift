import PawtrailIO
import Testing

/// A bit-at-a-time CRC-32C (reflected polynomial 0x82F63B78, initial and final XOR 0xFFFFFFFF): slow and
/// obviously right, the reference the table-driven implementation is checked against.
func referenceCRC32C(_ bytes: [UInt8], continuing previous: UInt32 = 0) -> UInt32 {
    var crc = ~previous
    for b in bytes {
        crc ^= UInt32(b)
        for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
    }
    return ~crc
}

@Suite("CRC32C")
struct CRC32CTests {
    /// The check value of the catalogue of CRCs, and the iSCSI vectors of RFC 3720 appendix B.4.
    @Test
    func knownVectors() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(CRC32C.checksum((0..<32).reversed().map { UInt8($0) }) == 0x113F_DB5C)
        #expect(CRC32C.checksum([]) == 0)
        #expect(CRC32C().value == 0)
    }

    @Test
    func referenceAgreesWithTheKnownVectors() {
        #expect(referenceCRC32C(Array("123456789".utf8)) == 0xE306_9283)
        #expect(referenceCRC32C([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    }

    @Test
    func incrementalUpdatesEqualOneShotAtEverySplit() {
        var rng = SplitMix64(seed: 42)
        let data = rng.bytes(100)
        let whole = CRC32C.checksum(data)
        for split in 0...data.count {
            var c = CRC32C()
            c.update(Array(data[..<split]))
            c.update(Array(data[split...]))
            #expect(c.value == whole, "split at \(split)")
        }
        // Byte by byte.
        var c = CRC32C()
        for b in data { c.update([b]) }
        #expect(c.value == whole)
        // Empty updates change nothing.
        c.update([])
        #expect(c.value == whole)
    }

    @Test
    func randomDataAgreesWithTheBitwiseReference() {
        var rng = SplitMix64(seed: 0xC0FFEE)
        for length in Array(0...80) + [127, 128, 255, 256, 1000, 4099, 65_537] {
            let data = rng.bytes(length)
            #expect(CRC32C.checksum(data) == referenceCRC32C(data), "length \(length)")
        }
    }

    @Test
    func unalignedBuffersAgreeWithTheReference() {
        var rng = SplitMix64(seed: 7)
        let data = rng.bytes(300)
        data.withUnsafeBytes { raw in
            for start in 0..<9 {
                for end in [start, start + 1, start + 8, start + 17, 300] {
                    let slice = UnsafeRawBufferPointer(rebasing: raw[start..<end])
                    #expect(CRC32C.checksum(slice) == referenceCRC32C(Array(data[start..<end])), "\(start)..<\(end)")
                }
            }
        }
    }

    @Test
    func detectsEverySingleBitFlip() {
        var rng = SplitMix64(seed: 99)
        let data = rng.bytes(64)
        let good = CRC32C.checksum(data)
        for bit in 0..<(data.count * 8) {
            var bad = data
            bad[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(CRC32C.checksum(bad) != good, "bit \(bit)")
        }
    }
}
