import EventLog

extension PostgresWire {
    /// A request of a pipeline.
    enum Request {
        /// Statements without parameters, as one simple query.
        case simple(String)
        /// One statement with binary parameters (type OIDs and values, `nil` for NULL).
        case extended(String, types: [UInt32], values: [[UInt8]?])
        /// A `COPY ... FROM STDIN` and its data.
        case copy(String, data: [UInt8])
    }

    /// Sends every request at once, then reads their responses in order: one round trip where one a request would
    /// cost several (a COPY's data goes with its statement, not after the server asks for it). The server runs them
    /// in order, each as if sent alone; one that fails in a transaction leaves those after it failing too, and the
    /// failure thrown is the first.
    ///
    /// - Parameter requests: The requests.
    /// - Returns: Each request's last rows.
    /// - Throws: ``PostgresFailure``: the first request the server refused (after every response is read, so the
    ///   connection stays in step), or a lost connection.
    func pipeline(_ requests: [Request]) throws(PostgresFailure) -> [PostgresResult] {
        var out: [UInt8] = []
        for r in requests {
            switch r {
            case .simple(let sql):
                var m = MessageWriter()
                m.cString(sql)
                out += m.bytes(type: UInt8(ascii: "Q"))
            case .extended(let sql, let types, let values):
                out += Self.extendedMessages(sql, types: types, values: values)
            case .copy(let sql, let data):
                // Should the COPY fail to start, the server drops the data that follows it, as the protocol says.
                var m = MessageWriter()
                m.cString(sql)
                out += m.bytes(type: UInt8(ascii: "Q"))
                Self.appendCopyMessages(data, to: &out)
            }
        }
        try send(out)
        var results: [PostgresResult] = []
        var first: PostgresFailure?
        for _ in requests {
            do {
                results.append(try collect(copyData: nil, copySent: true))
            } catch {
                if case .connectionLost = error { throw error }
                first = first ?? error
                results.append(PostgresResult(data: [], fields: [], columns: 0))
            }
        }
        if let first { throw first }
        return results
    }
}
