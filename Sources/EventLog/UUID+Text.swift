public import Foundation

extension UUID {
    /// Reads a UUID in its canonical text form, 8-4-4-4-12 hex digits in either case, without going through
    /// Foundation's parser (which scans with `sscanf`, about 9,000 instructions an id: most of a batch line's cost
    /// after its JSON).
    ///
    /// - Parameter text: The 36 bytes of the text, without quotes.
    /// - Returns: The UUID, or `nil` for anything but the canonical form; callers that accept more hand such text to
    ///   `UUID(uuidString:)`, which reads every canonical text as this does.
    public init?(canonicalText text: UnsafeBufferPointer<UInt8>) {
        guard text.count == 36 else { return nil }
        var bytes: (UInt64, UInt64) = (0, 0)
        var nibbles = 0
        for (k, c) in text.enumerated() {
            if k == 8 || k == 13 || k == 18 || k == 23 {
                guard c == UInt8(ascii: "-") else { return nil }
                continue
            }
            let v: UInt8
            switch c {
            case 48...57: v = c &- 48
            case 65...70: v = c &- 55
            case 97...102: v = c &- 87
            default: return nil
            }
            if nibbles < 16 { bytes.0 = bytes.0 << 4 | UInt64(v) } else { bytes.1 = bytes.1 << 4 | UInt64(v) }
            nibbles += 1
        }
        let (h, l) = (bytes.0, bytes.1)
        func b(_ w: UInt64, _ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: w >> UInt64(56 - 8 * i)) }
        self.init(uuid: (
            b(h, 0), b(h, 1), b(h, 2), b(h, 3), b(h, 4), b(h, 5), b(h, 6), b(h, 7),
            b(l, 0), b(l, 1), b(l, 2), b(l, 3), b(l, 4), b(l, 5), b(l, 6), b(l, 7)))
    }
}
