import CLibPQ
import CLibPQLoader
import Foundation

/// The rows of a statement, in binary format, owned once: cleared in `deinit`. Read-only once made, which libpq
/// lets several threads read.
package final class PostgresResult: @unchecked Sendable {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) {
        self.result = result
    }

    deinit {
        ptpq_clear(result)
    }

    /// The number of rows.
    package var count: Int { Int(ptpq_ntuples(result)) }

    /// Whether a field is SQL NULL.
    package func isNull(_ row: Int, _ column: Int) -> Bool {
        ptpq_getisnull(result, Int32(row), Int32(column)) != 0
    }

    /// A field's bytes as the server sent them.
    package func bytes(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer {
        let length = Int(ptpq_getlength(result, Int32(row), Int32(column)))
        guard length > 0, let value = ptpq_getvalue(result, Int32(row), Int32(column)) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: value, count: length)
    }

    /// A `bigint` field; `nil` when NULL.
    package func int64(_ row: Int, _ column: Int) -> Int64? {
        guard !isNull(row, column) else { return nil }
        let b = bytes(row, column)
        guard b.count == 8 else { return nil }
        return Int64(bigEndian: b.loadUnaligned(as: Int64.self))
    }

    /// A `bigint` field of a result in text format (``PostgresConnection/simpleQuery(_:)``); `nil` when NULL.
    package func textInt64(_ row: Int, _ column: Int) -> Int64? {
        isNull(row, column) ? nil : Int64(string(row, column))
    }

    /// An `integer` field; `nil` when NULL.
    package func int32(_ row: Int, _ column: Int) -> Int32? {
        guard !isNull(row, column) else { return nil }
        let b = bytes(row, column)
        guard b.count == 4 else { return nil }
        return Int32(bigEndian: b.loadUnaligned(as: Int32.self))
    }

    /// A `text` field's characters.
    package func string(_ row: Int, _ column: Int) -> String {
        String(decoding: bytes(row, column), as: UTF8.self)
    }

    /// A `bytea` field.
    package func array(_ row: Int, _ column: Int) -> [UInt8] {
        Array(bytes(row, column))
    }

    /// A `uuid` field; `nil` unless it is 16 bytes.
    package func uuid(_ row: Int, _ column: Int) -> UUID? {
        let b = bytes(row, column)
        guard b.count == 16 else { return nil }
        var u = UUID().uuid
        withUnsafeMutableBytes(of: &u) { $0.copyMemory(from: b) }
        return UUID(uuid: u)
    }
}
