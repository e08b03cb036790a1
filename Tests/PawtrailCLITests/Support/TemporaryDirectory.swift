import Foundation

/// A fresh directory for one test, removed when the test ends.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pawtrail-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes a file and returns its path.
    func write(_ name: String, _ contents: String) throws -> String {
        let p = path(name)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }
}
