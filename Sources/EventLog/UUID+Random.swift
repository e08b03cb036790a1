public import Foundation

extension UUID {
    /// A random (version 4) UUID from the system's generator (`getrandom(2)`). Foundation's `UUID()` opens and reads
    /// `/dev/urandom` each time on Linux: two system calls and a file descriptor per id, which an `exec` or a batch
    /// of thousands of events pays for every event.
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next()
        let low = generator.next()
        var b = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            b[i] = UInt8(truncatingIfNeeded: high >> (8 * UInt64(i)))
            b[8 + i] = UInt8(truncatingIfNeeded: low >> (8 * UInt64(i)))
        }
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
