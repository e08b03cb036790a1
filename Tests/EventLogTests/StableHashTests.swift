import EventLog
@testable import EventLogTestKit
import Testing

/// The stable hash is part of stored formats (row keys' order in run files, ids derived from command ids): its values
/// are pinned, worked out apart from the code (FNV-1a 64, then the splitmix64 finalizer).
@Suite struct StableHashTests {
    static func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { StableHash.of($0) } }

    @Test func `values are those of FNV-1a and the splitmix64 finalizer`() {
        #expect(Self.hash([]) == 0xf52a_15e9_a9b5_e89b)
        #expect(Self.hash(Array("pet-1".utf8)) == 0xa939_b0f2_9116_d9fa)
        #expect(Self.hash([2] + Array("u-ann".utf8) + [0x1F]) == 0x2637_ef81_7268_4679)
    }

    @Test func `feeding bytes in pieces hashes as feeding them at once`() {
        let bytes = Array("account-u-ann".utf8)
        var pieces = StableHash()
        bytes[..<4].withUnsafeBytes { pieces.combine($0) }
        bytes[4...].withUnsafeBytes { pieces.combine($0) }
        #expect(pieces.value == Self.hash(bytes))
    }
}
