import EventLog

/// A step of ``PostgresConnection/pipeline(_:)``.
package enum PostgresStep {
    /// Statements without parameters; their last rows come back in text format.
    case simple(String)
    /// One statement with parameters; its rows come back in binary format.
    case query(String, [PostgresValue])
    /// A `COPY ... FROM STDIN (FORMAT binary)` and its rows.
    case copy(String, PostgresCopyRows)
}

extension PostgresConnection {
    /// Runs steps in order, sent together where the wire client serves the connection (one round trip for all of
    /// them), one after another through libpq. Meant for the steps of one transaction: a step that fails aborts it,
    /// and the steps after it fail too.
    ///
    /// - Parameter steps: The steps.
    /// - Returns: Each step's rows.
    /// - Throws: ``PostgresFailure``: the first step that failed, or a lost connection.
    package func pipeline(_ steps: [PostgresStep]) throws(PostgresFailure) -> [PostgresResult] {
        if let wire {
            return try wire.pipeline(
                steps.map { step in
                    switch step {
                    case .simple(let sql): .simple(sql)
                    case .query(let sql, let parameters):
                        .extended(sql, types: parameters.map(\.oid), values: parameters.map { if case .null = $0 { nil } else { $0.bytes } })
                    case .copy(let sql, let rows): .copy(sql, data: rows.finished())
                    }
                })
        }
        var results: [PostgresResult] = []
        for step in steps {
            switch step {
            case .simple(let sql): results.append(try simpleQuery(sql))
            case .query(let sql, let parameters): results.append(try query(sql, parameters))
            case .copy(let sql, let rows):
                try copyIn(sql, rows: rows)
                results.append(PostgresResult(data: [], fields: [], columns: 0))
            }
        }
        return results
    }
}
