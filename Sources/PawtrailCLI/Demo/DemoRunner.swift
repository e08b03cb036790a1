import EventLog
import Events
import Foundation
import PawtrailDomain

/// Runs the demo's commands through the real handler at the script's clock, with command ids derived from the
/// step number (so every generated id is the same on every run), and tallies what the rules refused.
final class DemoRunner: @unchecked Sendable {
    /// The day the demo plays.
    static let day = "2026-12-01"

    let handler: CommandHandler
    /// Called with one line per command when the user asked for the play-by-play.
    let narrate: (@Sendable (String) -> Void)?
    private(set) var step = 0
    private(set) var accepted = 0
    private(set) var refusals: [String: Int] = [:]

    init(handler: CommandHandler, narrate: (@Sendable (String) -> Void)?) {
        self.handler = handler
        self.narrate = narrate
    }

    /// The instant `HH:MM` of the demo's day.
    static func at(_ time: String) -> Timestamp {
        Timestamp(iso8601: "\(day)T\(time):00Z")!
    }

    /// An instant on another day (`2026-12-03T10:00`).
    static func on(_ dateTime: String) -> Timestamp {
        Timestamp(iso8601: dateTime + ":00Z")!
    }

    /// The command id of a step: fixed, so a replay of the script decides the same ids.
    static func commandID(_ step: Int) -> UUID {
        let digits = String(step)
        return UUID(uuidString: "de300000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits)!
    }

    private func nextStep() -> Int {
        step += 1
        return step
    }

    /// Runs one command; a domain rejection is tallied and returns `nil`, anything else is thrown.
    @discardableResult
    func run<C: DomainCommand>(_ user: String, _ command: C, at time: String, for customer: String? = nil) async throws -> CommandOutcome? {
        let id = nextStep()
        return record(user, C.name, at: time, try await Self.attempt(handler, user, command, Self.at(time), id, for: customer))
    }

    /// Runs commands at once, as racing customers do, and records each outcome.
    func race<C: DomainCommand>(_ entries: [(user: String, command: C)], at time: String) async throws -> [CommandOutcome?] {
        let ids = entries.map { _ in nextStep() }
        let handler = self.handler
        let now = Self.at(time)
        let results = try await withThrowingTaskGroup(of: (Int, Result<CommandOutcome, DomainError>).self) { group in
            for (n, entry) in entries.enumerated() {
                group.addTask { (n, try await Self.attempt(handler, entry.user, entry.command, now, ids[n])) }
            }
            var out: [(Int, Result<CommandOutcome, DomainError>)] = []
            for try await r in group { out.append(r) }
            return out.sorted { $0.0 < $1.0 }.map(\.1)
        }
        return zip(entries, results).map { record($0.user, C.name, at: time, $1) }
    }

    private static func attempt<C: DomainCommand>(
        _ handler: CommandHandler, _ user: String, _ command: C, _ now: Timestamp, _ step: Int, for customer: String? = nil
    ) async throws -> Result<CommandOutcome, DomainError> {
        do {
            return .success(
                try await handler.handle(
                    command, as: user, now: now, commandID: commandID(step), correlationID: "demo-\(step)", actedFor: customer))
        } catch let error as DomainError {
            return .failure(error)
        }
    }

    private func record(_ user: String, _ name: String, at time: String, _ result: Result<CommandOutcome, DomainError>)
        -> CommandOutcome?
    {
        switch result {
        case .success(let outcome):
            accepted += 1
            let n = outcome.events.count
            narrate?("\(time)  \(name.padding(toLength: 28, withPad: " ", startingAt: 0)) \(user.padding(toLength: 10, withPad: " ", startingAt: 0)) "
                + (n == 0 ? "ok, nothing to change" : "ok, \(n) event\(n == 1 ? "" : "s")"))
            return outcome
        case .failure(let error):
            refusals[error.kind, default: 0] += 1
            narrate?("\(time)  \(name.padding(toLength: 28, withPad: " ", startingAt: 0)) \(user.padding(toLength: 10, withPad: " ", startingAt: 0)) refused (\(error.kind)): \(error)")
            return nil
        }
    }
}
