import BenchSupport
import Foundation

/// The scratch directory's housekeeping.
enum Scratch {
    /// Removes a file or directory tree if present.
    static func remove(_ path: String) throws {
        if FileManager.default.fileExists(atPath: path) {
            try FileManager.default.removeItem(atPath: path)
        }
    }

    /// Removes an SQLite database and its side files.
    static func removeDatabase(_ path: String) throws {
        for suffix in ["", "-wal", "-shm", "-journal"] { try remove(path + suffix) }
    }

    /// Creates a directory and its parents.
    static func makeDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
}
