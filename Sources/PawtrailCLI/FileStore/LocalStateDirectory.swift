import EventLog
import Foundation
import ProjectionRuntime
import ProjectionStateFile

/// Read-model states kept in a directory of this machine (`--state-dir`), whatever store the events come from.
enum LocalStateDirectory {
    /// The state store in a directory, created when missing.
    ///
    /// - Parameter path: The directory.
    /// - Returns: Its state store.
    /// - Throws: ``EventStoreError/Code/io`` when the directory cannot be made.
    static func states(at path: String) throws -> any ProjectionStateStore {
        var made = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            made += "/" + part
            if mkdir(made, 0o755) != 0 && errno != EEXIST { throw EventStoreError.io(operation: "mkdir", path: made, errno: errno) }
        }
        return FileProjectionStateStore(storePath: path)
    }
}
