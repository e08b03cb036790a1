import CPawtrailSupport
#if canImport(Glibc)
import Glibc
#endif

/// The scheduling priority of the calling thread.
public enum ThreadPriority {
    /// The nice value of upkeep threads: the lowest, so they run on cores the foreground leaves idle (as
    /// RocksDB lowers its compaction threads) and still make progress when both are busy.
    public static let background: Int32 = 19

    /// Lowers the calling thread to ``background``.
    ///
    /// Lowering needs no privilege, and a thread that stays at normal priority only runs sooner, so a failure
    /// is reported to the caller to ignore or log, never fatal.
    ///
    /// - Throws: ``SystemError`` from `setpriority`.
    public static func lowerCurrentThread() throws(SystemError) {
        _ = try syscall("setpriority", "thread") { CPawtrailSupport_set_thread_nice(background) }
    }
}
