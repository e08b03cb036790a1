/// Bytes spelled in lowercase hex, two digits a byte: names made from values that must not appear as they are
/// (a key file named for its subject, a stream named for an email address's digest).
public enum LowercaseHex {
    /// The hex of some bytes.
    ///
    /// - Parameter bytes: The bytes.
    /// - Returns: Two lowercase hex digits a byte.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
