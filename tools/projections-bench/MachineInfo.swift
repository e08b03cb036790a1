import BenchSupport
import PawtrailSQLite
import Foundation

/// Where the benchmark ran: what the figures depend on.
struct MachineInfo: Codable {
    var cpus: Int
    var cpuModel: String
    var kernel: String
    var memory: String
    var sqliteVersion: String
    var build: String

    /// The 1/5/15-minute load averages: other work on a 2-core machine skews every figure.
    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    static func collect() -> MachineInfo {
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: name.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } + " "
            + withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        func field(_ file: String, _ prefix: String) -> String {
            (try? String(contentsOfFile: file, encoding: .utf8))?
                .split(separator: "\n").first { $0.hasPrefix(prefix) }
                .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "?"
        }
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        return MachineInfo(
            cpus: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: field("/proc/cpuinfo", "model name"), kernel: kernel,
            memory: field("/proc/meminfo", "MemTotal"), sqliteVersion: SQLiteDatabase.version, build: build)
    }
}
