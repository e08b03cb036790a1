import EventLog
import Foundation

/// Whether a stored state may be resumed on this log: its checkpoint's position and the event there (its id and
/// when it was recorded).
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
        // Caught up to a head the store knows without reading the log: the head's last commit is the checkpoint's
        // (the same position and microsecond; a log that diverged has other commits there, made at other times).
        if p == last, let time = checkpoint.eventRecordedAt, let head = try await store.knownHead(), head == LogHead(position: p, recordedAt: time) {
            return true
        }
        let here = try await commit(at: p)
        guard here.id == recorded else {
            reason = "its checkpoint at position \(p) names event \(recorded.uuidString.lowercased()), and the log holds \(here.id.map { $0.uuidString.lowercased() } ?? "none") there"
            return false
        }
        if let time = checkpoint.eventRecordedAt, let hereTime = here.recordedAt, time != hereTime {
            reason = "its checkpoint at position \(p) names event \(recorded.uuidString.lowercased()) recorded at \(time.iso8601), and the log holds it recorded at \(hereTime.iso8601)"
            return false
        }
        return true
    }

    /// The id and commit time of the event at a position, `nil`s for none.
    func commit(at position: UInt64?) async throws -> (id: UUID?, recordedAt: Timestamp?) {
        guard let position, let e = try await store.event(at: position) else { return (nil, nil) }
        return (e.id, e.recordedAt)
    }
}
