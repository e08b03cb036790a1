import CPawtrailSupport

/// CRC-32C (Castagnoli), the checksum of iSCSI, ext4 and Kafka record batches: the CPU's crc32 instruction
/// where there is one (x86-64 SSE4.2), else table-driven, slicing by 8.
public struct CRC32C: Sendable {
    /// The checksum so far (finalized form: feed more bytes with ``update(_:)``).
    public private(set) var value: UInt32 = 0

    /// Starts a checksum.
    public init() {}

    private static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
            t[i] = c
        }
        for i in 0..<256 {
            for k in 1..<8 {
                let prev = t[(k - 1) * 256 + i]
                t[k * 256 + i] = (prev >> 8) ^ t[Int(prev & 0xFF)]
            }
        }
        return t
    }()

    private static let hardware = CPawtrailSupport_crc32c_hardware_available() == 1

    /// Feeds bytes.
    ///
    /// - Parameter bytes: The next bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        if Self.hardware {
            if let base = bytes.baseAddress {
                value = ~CPawtrailSupport_crc32c_hardware(~value, base, bytes.count)
            }
            return
        }
        updateInSoftware(bytes)
    }

    /// Feeds bytes through the lookup tables (the path for CPUs without a crc32 instruction; public so tests
    /// can check both paths agree).
    public mutating func updateInSoftware(_ bytes: UnsafeRawBufferPointer) {
        var crc = ~value
        Self.tables.withUnsafeBufferPointer { t in
            var p = bytes.baseAddress
            var n = bytes.count
            guard var ptr = p else { return }
            while n >= 8 {
                let word = ptr.loadUnaligned(as: UInt64.self).littleEndian ^ UInt64(crc)
                crc =
                    t[7 * 256 + Int(word & 0xFF)] ^ t[6 * 256 + Int((word >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((word >> 16) & 0xFF)] ^ t[4 * 256 + Int((word >> 24) & 0xFF)]
                    ^ t[3 * 256 + Int((word >> 32) & 0xFF)] ^ t[2 * 256 + Int((word >> 40) & 0xFF)]
                    ^ t[1 * 256 + Int((word >> 48) & 0xFF)] ^ t[Int(word >> 56)]
                ptr += 8
                n -= 8
            }
            while n > 0 {
                crc = (crc >> 8) ^ t[Int((crc ^ UInt32(ptr.load(as: UInt8.self))) & 0xFF)]
                ptr += 1
                n -= 1
            }
            p = ptr
        }
        value = ~crc
    }

    /// Feeds bytes.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The checksum of a buffer.
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c = CRC32C()
        c.update(bytes)
        return c.value
    }

    /// The checksum of an array.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}
