import Foundation

/// A set of event type names matched against the raw bytes of scanned events, without making a `String` of each
/// event's type first: a scan filtered by type then costs a compare or two per event, and the events kept carry
/// the set's own `String` (shared, not allocated again).
struct TypeNames {
    /// Candidates by the name's length and last byte (names are ASCII and short; few share both).
    private var buckets: [[(bytes: [UInt8], name: String)]]

    init(_ names: Set<String>) {
        buckets = Array(repeating: [], count: 64 * 64)
        for name in names {
            let bytes = Array(name.utf8)
            buckets[Self.bucket(count: bytes.count, last: bytes.last ?? 0)].append((bytes, name))
        }
    }

    @inline(__always)
    private static func bucket(count: Int, last: UInt8) -> Int { (count & 63) << 6 | Int(last & 63) }

    /// The name in the set spelled by these bytes, or `nil`.
    @inline(__always)
    func match(_ type: UnsafeRawBufferPointer) -> String? {
        guard let base = type.baseAddress else { return nil }
        for candidate in buckets[Self.bucket(count: type.count, last: type.last ?? 0)] where candidate.bytes.count == type.count {
            if candidate.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, base, type.count) == 0 }) { return candidate.name }
        }
        return nil
    }
}
