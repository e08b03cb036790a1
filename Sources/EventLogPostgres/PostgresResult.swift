import CLibPQ
import CLibPQLoader
import Foundation

/// The rows of a statement, owned once and released in `deinit`: libpq's `PGresult`, or the rows the wire client
/// read (``PostgresWire``) in one buffer. Read-only once made, so several threads may read it.
package final class PostgresResult: @unchecked Sendable {
    private enum Storage {
        case libpq(OpaquePointer)
        /// Every field's bytes in one buffer; per field its start and length (-1: NULL), row by row.
        case rows(buffer: UnsafeMutableRawBufferPointer, fields: [Int], columns: Int, count: Int)
    }

    private let storage: Storage

    init(_ result: OpaquePointer) {
        storage = .libpq(result)
    }

    /// Rows read off the wire.
    ///
    /// - Parameters:
    ///   - data: The fields' bytes, one after another.
    ///   - fields: Per field, its start in `data` and its length (-1 for NULL), row by row.
    ///   - columns: Fields a row.
    init(data: [UInt8], fields: [Int], columns: Int) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 8)
        data.withUnsafeBytes { buffer.copyMemory(from: $0) }
        storage = .rows(buffer: buffer, fields: fields, columns: columns, count: columns == 0 ? 0 : fields.count / 2 / columns)
    }

    deinit {
        switch storage {
        case .libpq(let result): ptpq_clear(result)
        case .rows(let buffer, _, _, _): buffer.deallocate()
        }
    }

    /// The number of rows.
    package var count: Int {
        switch storage {
        case .libpq(let result): Int(ptpq_ntuples(result))
        case .rows(_, _, _, let count): count
        }
    }

    /// Whether a field is SQL NULL.
    package func isNull(_ row: Int, _ column: Int) -> Bool {
        switch storage {
        case .libpq(let result): ptpq_getisnull(result, Int32(row), Int32(column)) != 0
        case .rows(_, let fields, let columns, let count):
            // Out of range reads as NULL, as libpq answers.
            row >= count || column >= columns || fields[(row * columns + column) * 2 + 1] < 0
        }
    }

    /// A field's bytes as the server sent them, valid only while this result lives: read them inside a method of
    /// its own (``bool(_:_:)``, ``array(_:_:)``...), never from a temporary result.
    func bytes(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer {
        switch storage {
        case .libpq(let result):
            let length = Int(ptpq_getlength(result, Int32(row), Int32(column)))
            guard length > 0, let value = ptpq_getvalue(result, Int32(row), Int32(column)) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return UnsafeRawBufferPointer(start: value, count: length)
        case .rows(let buffer, let fields, let columns, let count):
            let i = (row * columns + column) * 2
            guard row < count, column < columns, fields[i + 1] > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return UnsafeRawBufferPointer(rebasing: buffer[fields[i]..<(fields[i] + fields[i + 1])])
        }
    }

    /// A `boolean` field (binary format); `nil` when NULL.
    package func bool(_ row: Int, _ column: Int) -> Bool? {
        isNull(row, column) ? nil : bytes(row, column).first == 1
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
        // A zero template: UUID() would draw 16 random bytes (an open of /dev/urandom) for every event read.
        var u: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &u) { $0.copyMemory(from: b) }
        return UUID(uuid: u)
    }
}
