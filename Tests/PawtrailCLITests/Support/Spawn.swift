import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starts a child process with `posix_spawn` and waits for it: what `PawtrailProcess` runs the binary with.
/// Foundation's `Process.run()` on Linux reads past a buffer while it lists `/proc/self/fd`
/// (swift-corelibs-foundation #5472), which crashed a test run once in many; this path opens no directory.
enum Spawn {
    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), which the Glibc module does not import.
    private static let addChdir: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(
            symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
    }()

    /// Runs `executable` to completion with its standard streams on files.
    ///
    /// - Returns: The exit status, or the number of the signal that ended it (as `Process.terminationStatus`).
    /// - Throws: An `NSError` with the `errno` of a failed spawn or wait.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String, stdin: String, stdout: String,
        stderr: String
    ) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard let addChdir = Self.addChdir else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSYS)) }
        _ = addChdir(&actions, directory)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard started == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(started)) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out: Glibc's macros are not imported.
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : signal
    }
}
