import PawtrailIO
import Testing

@Suite struct CRC32CHardwareTests {
    @Test func `the hardware and table paths agree on every length and alignment`() {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<4099).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes.withUnsafeBytes { raw in
            for start in 0..<9 {
                for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4090] {
                    let slice = UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)])
                    var fast = CRC32C()
                    fast.update(slice)
                    var table = CRC32C()
                    table.updateInSoftware(slice)
                    #expect(fast.value == table.value, "start \(start) length \(length)")
                }
            }
        }
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    }
}
