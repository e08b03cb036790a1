import BenchSupport
import CSQLite3
import Foundation

/// Where the benchmark ran: what the figures depend on.
struct MachineInfo: Codable, Sendable {
    /// Online CPUs (`nproc`).
    var cpus: Int
    /// The CPU model from /proc/cpuinfo.
    var cpuModel: String
    /// `uname -sr`.
    var kernel: String
    /// Filesystem of the scratch directory, from /proc/mounts (the Glibc module does not export `statfs`) (e.g. `ext4 /dev/vda on /`).
    var filesystem: String
    /// The scratch directory, resolved.
    var scratch: String
    /// libsqlite3 version linked.
    var sqliteVersion: String
    /// `release` or `debug` build of the benchmark.
    var build: String

    /// The 1/5/15-minute load averages (/proc/loadavg): other work on a 2-core machine skews every figure.
    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// Collects the figures for a scratch directory that exists.
    static func collect(scratch: String) -> MachineInfo {
        let resolved = realpath(scratch, nil).map { p in defer { free(p) }; return String(cString: p) } ?? scratch
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: name.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } + " "
            + withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "?"
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        return MachineInfo(
            cpus: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: cpu, kernel: kernel,
            filesystem: mountFor(resolved) ?? "unknown", scratch: resolved,
            sqliteVersion: String(cString: sqlite3_libversion()), build: build)
    }

    /// The /proc/mounts entry with the longest mount point containing `path`, as `type device on mountpoint`.
    private static func mountFor(_ path: String) -> String? {
        guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return nil }
        var best: (point: String, text: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = String(fields[1]).replacingOccurrences(of: "\\040", with: " ")
            let inside = point == "/" || path == point || path.hasPrefix(point + "/")
            if inside && point.count >= (best?.point.count ?? -1) {
                best = (point, "\(fields[2]) \(fields[0]) on \(point)")
            }
        }
        return best?.text
    }
}
