import Foundation

/// Runs the built `pawtrail` binary as a child process.
enum PawtrailProcess {
    /// The binary: next to the test bundle (`.build/<triple>/debug`), else `.build/debug` of the package.
    static let executable: URL = {
        let besideBundle = Bundle.main.bundleURL.appendingPathComponent("pawtrail")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return package.appendingPathComponent(".build/debug/pawtrail")
    }()

    /// Runs `pawtrail <arguments>` to completion.
    ///
    /// - Parameters:
    ///   - arguments: The words after `pawtrail`.
    ///   - stdin: Bytes for standard input.
    ///   - environment: Extra environment variables (`PAWTRAIL_STORE` is removed unless given here).
    /// - Returns: Status and output.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> CommandOutcome {
        let scratch = try TemporaryDirectory()
        let outPath = scratch.path("stdout")
        let errPath = scratch.path("stderr")
        let inPath = try scratch.write("stdin", stdin)
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "PAWTRAIL_STORE")
        env.merge(environment) { $1 }
        let status = try Spawn.run(
            executable.path, arguments, environment: env, directory: scratch.url.path, stdin: inPath, stdout: outPath, stderr: errPath)
        let out = String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
        let err = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
        return CommandOutcome(status: status, stdout: out, stderr: err)
    }
}
