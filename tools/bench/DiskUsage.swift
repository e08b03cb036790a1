import BenchSupport
import Foundation

/// `du`-style sizes of files and directories.
struct DiskUsage: Codable, Sendable {
    /// Sum of file sizes (`du --apparent-size -b`).
    var apparentBytes: UInt64 = 0
    /// Sum of allocated blocks (`du -B1`).
    var allocatedBytes: UInt64 = 0

    /// Adds one path: a file, or a directory walked recursively (symbolic links are not followed).
    mutating func add(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                add(path + "/" + name)
            }
        } else {
            apparentBytes += UInt64(info.st_size)
            allocatedBytes += UInt64(info.st_blocks) * 512
        }
    }

    /// The usage of several paths (missing ones count zero).
    static func of(_ paths: [String]) -> DiskUsage {
        var usage = DiskUsage()
        for p in paths { usage.add(p) }
        return usage
    }
}
