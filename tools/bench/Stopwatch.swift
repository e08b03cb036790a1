#if canImport(Glibc)
import BenchSupport
import Glibc
#endif

/// Monotonic time in seconds, for intervals (immune to wall-clock steps).
enum Stopwatch {
    /// Seconds since an arbitrary fixed point.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    /// CPU seconds used by every thread of this process so far (user and system).
    static func processCPU() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}
