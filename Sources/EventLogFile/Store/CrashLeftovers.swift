import Foundation
import Glibc
import PawtrailIO

/// Files that a process killed mid-way leaves in a store, none of which is ever read: the temporary file of an
/// atomic write (`NAME.tmp-PID`) whose process is gone, a compaction's `.seg.compacting`, an index run's `.eidx`
/// without the `.ridx` that would make it a run, and the checkpoint of a segment that is no longer the last. The process that recovers a store removes them when it
/// opens it, holding the writer's lock and the upkeep's (so no compaction or run is being written meanwhile).
enum CrashLeftovers {
    /// Removes the leftovers, best effort.
    ///
    /// - Parameter root: The store directory.
    /// - Returns: The paths removed, relative to `root`.
    @discardableResult
    static func remove(root: String) -> [String] {
        var removed: [String] = []
        func drop(_ relative: String) {
            if (try? FileSystem.removeFile(root + "/" + relative)) != nil { removed.append(relative) }
        }
        for directory in ["", LogFormat.segmentsDirectory, LogFormat.runsDirectory, LogFormat.dictionariesDirectory] {
            let prefix = directory.isEmpty ? "" : directory + "/"
            guard let names = try? FileSystem.contentsOfDirectory(root + "/" + directory) else { continue }
            let present = Set(names)
            let activeSegment = names.filter { LogFormat.firstPosition(ofSegmentName: $0) != nil }.max()
            for name in names {
                if let pid = FileSystem.temporaryOwner(ofName: name), !isAlive(pid) {
                    drop(prefix + name)
                } else if directory == LogFormat.segmentsDirectory, name.hasSuffix(".seg.compacting") {
                    drop(prefix + name)
                } else if directory == LogFormat.segmentsDirectory, name.hasSuffix(".ckpt"),
                    LogFormat.firstPosition(ofSegmentName: String(name.dropLast(5)) + ".seg") != nil,
                    String(name.dropLast(5)) + ".seg" != activeSegment
                {
                    // A checkpoint written as its segment was sealed (the seal removes the one before).
                    drop(prefix + name)
                } else if directory == LogFormat.runsDirectory, name.hasSuffix(".eidx"),
                    IndexRun.positions(ofFileName: String(name.dropLast(5)) + ".ridx") != nil,
                    !present.contains(String(name.dropLast(5)) + ".ridx")
                {
                    drop(prefix + name)
                }
            }
        }
        return removed
    }

    /// Whether a process with this id exists (one of another user's counts too).
    private static func isAlive(_ pid: pid_t) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}
