import PawtrailIO
import Testing

/// MurmurHash3 x64_128 with seed 0. Expected values come from the reference implementation (Python `mmh3`
/// 5.3.1: `mmh3.hash64(data, 0, True, signed=False)` gives (h1, h2); `mmh3.hash128` is h1 | h2 << 64). Our
/// `high` is the reference's h1 and `low` its h2, so `description` is h1 then h2 in hex, not the byte digest.
@Suite("Hash128 (MurmurHash3 x64_128)")
struct Hash128Tests {
    static let strings: [(String, UInt64, UInt64)] = [
        ("", 0x0000000000000000, 0x0000000000000000),
        ("hello", 0xcbd8a7b341bd9b02, 0x5b1e906a48ae1d19),
        ("hello, world", 0x342fac623a5ebc8e, 0x4cdcbc079642414d),
        ("The quick brown fox jumps over the lazy dog", 0xe34bbc7bbc071b6c, 0x7a433ca9c49a9347),
        ("0123456789abcdef", 0x4be06d94cf4ad1a7, 0x87c35b5c63a708da),
        ("0123456789abcdefg", 0x8e32612daa45f9de, 0x0800f4c206c372ee),
        ("a", 0x85555565f6597889, 0xe6b53a48510e895a),
        ("abcdefgh", 0xcc8a0ab037ef8c02, 0x48890d60eb6940a1),
        ("abcdefghi", 0x0547c0cff13c7964, 0x79b53df5b741e033),
        ("pet-🐶-ß", 0xee79848728ec7e6d, 0xccd2784e2a455122),
        ("order-42", 0xb7a02a54597a38ce, 0x7384652e1071d00c),
    ]

    @Test(arguments: strings)
    func knownStringVectors(text: String, h1: UInt64, h2: UInt64) {
        let h = Hash128(text)
        #expect(h.high == h1)
        #expect(h.low == h2)
        #expect(h == Hash128(high: h1, low: h2))
        let viaBytes = Array(text.utf8).withUnsafeBytes { Hash128(bytes: $0) }
        #expect(viaBytes == h)
    }

    @Test
    func publishedVector() {
        // The widely published MurmurHash3_x64_128 digest of this sentence (seed 0) is the bytes
        // 6c1b07bc7bbc4be347939ac4a93c437a, i.e. h1 = 0xe34bbc7bbc071b6c and h2 = 0x7a433ca9c49a9347 little-endian.
        let h = Hash128("The quick brown fox jumps over the lazy dog")
        #expect(h.high == 0xe34b_bc7b_bc07_1b6c)
        #expect(h.low == 0x7a43_3ca9_c49a_9347)
        #expect(h.description == "e34bbc7bbc071b6c7a433ca9c49a9347")
        #expect(Hash128("").description == String(repeating: "0", count: 32))
    }

    /// Every tail length (0...15) and one and two full blocks: bytes (i * 31 + 7) mod 256.
    static let lengths: [(Int, UInt64, UInt64)] = [
        (0, 0x0000000000000000, 0x0000000000000000),
        (1, 0xc427909d8972bd17, 0x5c15702a45b199dd),
        (2, 0xbcaa5d247b77f590, 0x2b9be8c87f32d7ee),
        (3, 0x33ff6eda4da0a23b, 0x5f905e8bd93c3afb),
        (4, 0x331195913937a3b4, 0x642e0845db611d66),
        (5, 0x634332548738e00f, 0x05368e5c33ad8afc),
        (6, 0x72b7246daad5c140, 0x12748cef0c248d36),
        (7, 0x3f14fdfcc2d9b91c, 0x01ebfd1098f1204f),
        (8, 0xd927130c3ea3af5d, 0xeeab4cb4fb7e6832),
        (9, 0x320f43f3fbfb3be4, 0xa373172dd046f7a2),
        (10, 0xfa195b9d5e7e8097, 0xd3b043434ecd8e4a),
        (11, 0x099a44202eece712, 0x434c1fcd3cbefd1d),
        (12, 0x46f0c933f9efbf04, 0x4d994cfc42e108f5),
        (13, 0xe5b8c6c787b0b3c4, 0xb5ffd152fd12c0a7),
        (14, 0x672ebb93fd9286d5, 0x15a6d4cc5a590c06),
        (15, 0x3775f4b56782ab17, 0x6c299d80b12b415e),
        (16, 0x466b79ebf689da14, 0x8c548b02b805858a),
        (17, 0xeb322f84309de524, 0x082aa01f2728481b),
        (18, 0x44b290da482e5f9e, 0x84c50a3823cd1bf6),
        (19, 0x4eadde95e66032d6, 0xf39817af8a82b80a),
        (20, 0x14f2fdf5f4248c08, 0x6a1dc9f71ab8d567),
        (21, 0x180552a0fea4e427, 0x7ee14d9ee92d46bd),
        (22, 0x8c047278feea0982, 0xc0ca9815fab21ec7),
        (23, 0x9cc8da4d0d949e70, 0xadf3ab9be49144eb),
        (24, 0x16ba56f81e8dad44, 0xf4ceab101463091e),
        (25, 0x20427a374f44ea0c, 0xedb831149bd11151),
        (26, 0x49d8d40490aba729, 0x84e96920706897a6),
        (27, 0x0c6a47030f7f6380, 0x2b0b7b23b88783dd),
        (28, 0xf8cb919465aeaae2, 0x37f6f5d678c2c7dd),
        (29, 0xb37e63127cb74e80, 0x72d16eff424db5a0),
        (30, 0x3ca569a04e7ba78f, 0xf6d2a574e97e7a54),
        (31, 0x49db93da32960569, 0x90b21e6033dc6c1e),
        (32, 0x428638cea8126132, 0xf0ca1d512a155d2e),
        (33, 0xfa0bc7309230cdeb, 0x3721c70c96532164),
    ]

    @Test(arguments: lengths)
    func everyTailLength(length: Int, h1: UInt64, h2: UInt64) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 31 + 7) }
        let h = bytes.withUnsafeBytes { Hash128(bytes: $0) }
        #expect(h == Hash128(high: h1, low: h2), "length \(length)")
    }

    @Test
    func longInputAndUnalignedBuffers() {
        let bytes = (0..<40).flatMap { _ in (0...255).map { UInt8($0) } }
        #expect(bytes.withUnsafeBytes { Hash128(bytes: $0) } == Hash128(high: 0x6a88162af13d01f7, low: 0x2c80f441ed39e565))
        // The same bytes at an odd address hash the same.
        let shifted = [UInt8(0xAA)] + bytes
        let h = shifted.withUnsafeBytes { Hash128(bytes: UnsafeRawBufferPointer(rebasing: $0[1...])) }
        #expect(h == Hash128(high: 0x6a88162af13d01f7, low: 0x2c80f441ed39e565))
    }

    @Test
    func descriptionAndOrdering() {
        #expect(Hash128(high: 1, low: 0xabc).description == "0000000000000001" + "0000000000000abc")
        #expect(Hash128(high: 1, low: 0) < Hash128(high: 1, low: 1))
        #expect(Hash128(high: 1, low: .max) < Hash128(high: 2, low: 0))
        #expect(!(Hash128(high: 2, low: 0) < Hash128(high: 2, low: 0)))
    }
}
