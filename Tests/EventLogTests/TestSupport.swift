import EventLog
@testable import EventLogTestKit
import Foundation

/// A fresh, empty temporary directory for one test, removed when the value is released.
final class TemporaryDirectory: @unchecked Sendable {
    let path: String

    init(_ label: String = "pawtrail") {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/\(label)-\(UUID().uuidString.lowercased())"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

extension ProposedEvent {
    /// A small JSON event for tests.
    static func json(_ type: String, _ json: String, id: UUID = UUID(), metadata: EventMetadata = [:]) -> ProposedEvent {
        ProposedEvent(id: id, type: type, data: Array(json.utf8), metadata: metadata)
    }
}

func stream(_ s: String) -> StreamID { try! StreamID(s) }
