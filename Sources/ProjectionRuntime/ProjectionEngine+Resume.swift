import EventLog
import Foundation

/// Whether a stored state may be resumed on this log: its checkpoint's position and the event there.
extension ProjectionEngine {
    /// Whether a checkpoint can belong to this log: one that reflects positions the log does not have, or whose
    /// position holds another event than the one it recorded (a promoted replica that lost the last commits and
    /// took new ones, a log restored from an older copy, another store's states), would be served as if it were
    /// right and then catch up from the wrong place, so it is rebuilt instead.
    func fits(_ checkpoint: CheckpointInfo, _ last: UInt64?) async throws -> Bool {
        var reason: String?
        return try await fits(checkpoint, last, &reason)
    }

    /// ``fits(_:_:)``, saying why not in `reason`.
    func fits(_ checkpoint: CheckpointInfo, _ last: UInt64?, _ reason: inout String?) async throws -> Bool {
        guard let p = checkpoint.position else { return true }
        guard let last, p <= last else {
            reason = "its checkpoint is at position \(p), and the log ends \(last.map { "at \($0)" } ?? "before position 0")"
            return false
        }
        guard let recorded = checkpoint.eventID else { return true }
        let here = try await eventID(at: p)
        guard here == recorded else {
            reason = "its checkpoint at position \(p) names event \(recorded.uuidString.lowercased()), and the log holds \(here.map { $0.uuidString.lowercased() } ?? "none") there"
            return false
        }
        return true
    }

    /// The id of the event at a position, `nil` for none.
    func eventID(at position: UInt64?) async throws -> UUID? {
        guard let position else { return nil }
        return try await store.event(at: position)?.id
    }
}
