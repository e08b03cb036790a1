import Foundation

/// A statement parameter, sent in PostgreSQL's binary format (big-endian; arrays as `array_recv` reads them), so
/// that event data and metadata travel byte for byte, without quoting or escaping.
package enum PostgresValue: Sendable {
    case int8(Int64)
    case text(String)
    case bytea([UInt8])
    case int8Array([Int64])
    case textArray([String])
    case byteaArray([[UInt8]])
    case uuid(UUID)
    case uuidArray([UUID])
    /// SQL NULL, as a `bigint`.
    case null

    /// The type's OID, as the server names it.
    var oid: UInt32 {
        switch self {
        case .int8: 20
        case .text: 25
        case .bytea: 17
        case .int8Array: 1016
        case .textArray: 1009
        case .byteaArray: 1001
        case .uuid: 2950
        case .uuidArray: 2951
        case .null: 20
        }
    }

    /// The value's bytes in binary format.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        switch self {
        case .null: break
        case .int8(let v): Self.append(UInt64(bitPattern: v), to: &out)
        case .text(let s): out.append(contentsOf: s.utf8)
        case .bytea(let b): out = b
        case .int8Array(let values):
            Self.arrayHeader(count: values.count, element: 20, to: &out)
            for v in values {
                Self.append(UInt32(8), to: &out)
                Self.append(UInt64(bitPattern: v), to: &out)
            }
        case .textArray(let values):
            Self.arrayHeader(count: values.count, element: 25, to: &out)
            for v in values {
                Self.append(UInt32(v.utf8.count), to: &out)
                out.append(contentsOf: v.utf8)
            }
        case .byteaArray(let values):
            out.reserveCapacity(20 + values.reduce(0) { $0 + $1.count + 4 })
            Self.arrayHeader(count: values.count, element: 17, to: &out)
            for v in values {
                Self.append(UInt32(v.count), to: &out)
                out.append(contentsOf: v)
            }
        case .uuid(let v):
            withUnsafeBytes(of: v.uuid) { out.append(contentsOf: $0) }
        case .uuidArray(let values):
            Self.arrayHeader(count: values.count, element: 2950, to: &out)
            for v in values {
                Self.append(UInt32(16), to: &out)
                withUnsafeBytes(of: v.uuid) { out.append(contentsOf: $0) }
            }
        }
        return out
    }

    /// One dimension, no nulls, the element type, the length and a lower bound of 1; an empty array has no
    /// dimension at all, as the server writes one.
    private static func arrayHeader(count: Int, element: UInt32, to out: inout [UInt8]) {
        append(UInt32(count == 0 ? 0 : 1), to: &out)
        append(UInt32(0), to: &out)
        append(element, to: &out)
        guard count > 0 else { return }
        append(UInt32(count), to: &out)
        append(UInt32(1), to: &out)
    }

    private static func append<T: FixedWidthInteger>(_ v: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) }
    }
}
