import EventLog

/// Copies a log into another store as it was recorded, in atomic batches, and checks the copy event by event: what
/// `pawtrail store migrate` runs. A destination that holds events already must hold the source's first events
/// exactly; the copy then goes on after them, so a migration that stopped resumes.
struct StoreMigration {
    let source: any EventStore
    let destination: any EventImporting
    let batch: Int

    /// How many events the source holds, and how many this run copied.
    struct Outcome {
        var events: UInt64
        var copied: UInt64
    }

    func run() async throws -> Outcome {
        let there = try await destination.lastPosition().map { $0 + 1 } ?? 0
        // Refused before anything is written: the destination's events must be the source's first ones.
        if there > 0 {
            try await compare(from: 0, to: there, what: "the destination holds events that are not the source's first ones")
        }
        var next = there
        var copied: UInt64 = 0
        while true {
            let page = try await source.read(ReadRequest(source: .all, from: next, limit: batch))
            guard !page.events.isEmpty else { break }
            try await destination.importEvents(page.events)
            copied += UInt64(page.events.count)
            next = page.events.last!.position + 1
        }
        let total = try await source.lastPosition().map { $0 + 1 } ?? 0
        guard try await destination.lastPosition().map({ $0 + 1 }) ?? 0 == total else {
            throw CommandFailure(kind: .failure, message: "the source grew while it was copied; run the migration again")
        }
        try await compare(from: 0, to: total, what: "the copy differs from the source")
        return Outcome(events: total, copied: copied)
    }

    /// Compares the events of both stores at positions `from..<to`, field by field.
    private func compare(from: UInt64, to: UInt64, what: String) async throws {
        var at = from
        while at < to {
            let limit = Int(min(UInt64(batch), to - at))
            let a = try await source.read(ReadRequest(source: .all, from: at, limit: limit)).events
            let b = try await destination.read(ReadRequest(source: .all, from: at, limit: limit)).events
            guard !a.isEmpty else { throw CommandFailure(kind: .failure, message: "\(what): the source ends before position \(at)") }
            for (x, y) in zip(a, b) where x != y {
                throw CommandFailure(kind: .failure, message: "\(what): position \(x.position) is \(x.stream)@\(x.version) \(x.type) there, \(y.stream)@\(y.version) \(y.type) here")
            }
            guard b.count == a.count else { throw CommandFailure(kind: .failure, message: "\(what): the copy ends before position \(at + UInt64(a.count))") }
            at += UInt64(a.count)
        }
    }
}
