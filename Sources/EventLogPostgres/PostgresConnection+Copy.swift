import CLibPQ
import CLibPQLoader
import EventLog
import Foundation

extension PostgresConnection {
    /// Runs a `COPY ... FROM STDIN (FORMAT binary)` and sends it rows encoded in PostgreSQL's binary copy format.
    ///
    /// - Parameters:
    ///   - sql: The COPY statement.
    ///   - rows: The rows.
    /// - Throws: ``PostgresFailure``: the server refused the statement or a row, or the connection was lost.
    package func copyIn(_ sql: String, rows: PostgresCopyRows) throws(PostgresFailure) {
        if let wire { return try wire.copyIn(sql, data: rows.finished()) }
        guard let started = ptpq_exec(connection, sql) else { throw .connectionLost(Self.trimmed(ptpq_errorMessage(connection))) }
        guard ptpq_resultStatus(started) == PGRES_COPY_IN else {
            _ = try check(started)
            throw .statement(sqlstate: "XX000", message: "the server did not start the COPY")
        }
        ptpq_clear(started)
        let bytes = rows.finished()
        var sent = 0
        var lost = false
        bytes.withUnsafeBytes { raw in
            while sent < raw.count {
                let n = min(1 << 20, raw.count - sent)
                guard ptpq_putCopyData(connection, raw.baseAddress!.advanced(by: sent).assumingMemoryBound(to: CChar.self), Int32(n)) == 1 else {
                    lost = true
                    return
                }
                sent += n
            }
        }
        if lost || ptpq_putCopyEnd(connection, nil) != 1 { throw .connectionLost(Self.trimmed(ptpq_errorMessage(connection))) }
        // The COPY's outcome, then a null result that ends it.
        var failure: PostgresFailure?
        while let result = ptpq_getResult(connection) {
            do { _ = try check(result) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }
}

/// Rows in PostgreSQL's binary COPY format: a signature, rows of length-prefixed big-endian fields, a trailer.
package struct PostgresCopyRows {
    /// The statement that copies rows of ``event(position:stream:version:id:type:recordedAt:metadata:data:run:)`` into
    /// the store's events.
    package static let copyEvents =
        "COPY events (position, stream_id, version, event_id, type, recorded_at, metadata, metadata_pairs, data, run_category, run_length) FROM STDIN (FORMAT binary)"

    /// One row of the events table, in ``copyEvents``'s column order.
    ///
    /// - Parameter run: The run the event starts (see `PostgresEventRuns`), `nil` when it continues one.
    package mutating func event(
        position: Int64, stream: StreamID, version: UInt64, id: UUID, type: String, recordedAt: Int64, metadata: EventMetadata, data: [UInt8],
        run: (category: String, length: Int32)?
    ) {
        row(fields: 11)
        int8(position)
        text(stream.rawValue)
        int8(Int64(version))
        uuid(id.uuid)
        text(type)
        int8(recordedAt)
        bytes(metadata.encoded)
        int4(Int32(metadata.count))
        bytes(data)
        if let run {
            text(run.category)
            int4(run.length)
        } else {
            null()
            null()
        }
    }

    private var bytes: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]

    package init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity + 32)
    }

    /// Starts a row of `fields` fields.
    package mutating func row(fields: Int) {
        append(UInt16(fields))
    }

    package mutating func int8(_ v: Int64) {
        append(UInt32(8))
        append(UInt64(bitPattern: v))
    }

    package mutating func int4(_ v: Int32) {
        append(UInt32(4))
        append(UInt32(bitPattern: v))
    }

    /// A NULL field.
    package mutating func null() {
        append(UInt32(bitPattern: -1))
    }

    package mutating func text(_ s: String) {
        var s = s
        s.withUTF8 { bytes($0) }
    }

    package mutating func bytes(_ b: some Collection<UInt8>) {
        append(UInt32(b.count))
        bytes.append(contentsOf: b)
    }

    package mutating func uuid(_ u: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)) {
        append(UInt32(16))
        withUnsafeBytes(of: u) { bytes.append(contentsOf: $0) }
    }

    /// The rows with the trailer.
    func finished() -> [UInt8] {
        bytes + [0xFF, 0xFF]
    }

    private mutating func append<T: FixedWidthInteger>(_ v: T) {
        withUnsafeBytes(of: v.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
