import EventLog
import Events
import Foundation
import PawtrailDomain
import PawtrailJSON

/// Runs domain commands for the CLI: one from a verb's options, or many from `pawtrail exec`.
enum DomainCommandRunner {
    /// The keys of a JSON command line that are not the command's fields.
    static let envelopeKeys: Set<String> = ["command", "as", "now", "commandId", "correlationId", "for"]

    /// Who, when and which ids, as given by options or a JSON line.
    struct Envelope {
        var userID: String
        var now: Timestamp
        /// The id given (`--command-id`, `"commandId"`); `nil` for a random one.
        var commandID: UUID?
        var correlationID: String?
        /// The customer a staff member acts for (`--for`, `"for"`).
        var actedFor: String? = nil
    }

    /// Runs a verb: options to JSON, JSON to the command, the command through the handler.
    static func runVerb<C: DomainCommand>(_ type: C.Type, _ context: CommandContext) async throws -> ExitCode {
        let arguments = context.arguments
        let command: C
        do {
            command = try JSONFieldReader.read(C.self, from: try optionsObject(C.fields, arguments))
        } catch {
            throw usageError(error, arguments)
        }
        let envelope = Envelope(
            userID: try arguments.required("as", "user"),
            now: try arguments.converted("now", expecting: "a UTC ISO-8601 time") { Timestamp(iso8601: $0) } ?? .now(),
            commandID: try arguments.converted("command-id", expecting: "a UUID") { UUID(uuidString: $0) },
            correlationID: try correlationOption(arguments), actedFor: arguments.value("for"))
        let (handler, opened) = try context.commandStore()
        let outcome: CommandOutcome
        do {
            outcome = try await handle(command, envelope, handler: handler)
        } catch let refusal as DomainError {
            throw await LocalizedRefusal.of(refusal, for: envelope.userID, in: handler)
        }
        context.stats.handled(outcome.loadStats)
        let erased = AccountErasure.erasedAccounts(outcome)
        let erasure: AccountErasure.Report?
        if erased.isEmpty {
            erasure = nil
        } else if let opened {
            // On the store the command ran on: a second open is a second connection on a server.
            erasure = try await AccountErasure.finish(erasing: erased, in: opened, handler: handler, now: .now())
        } else {
            erasure = try await AccountErasure.finish(erasing: erased, context)
        }
        if context.wantsJSON {
            context.out(DomainReport.json(outcome))
        } else {
            DomainReport.lines(outcome).forEach(context.out)
            if let erasure {
                context.out(
                    "Ended: \(erasure.pets) pet(s) removed, their bookings cancelled; \(erasure.orders) order(s) not yet shipped cancelled.")
                let rebuilt = erasure.rebuilt.isEmpty ? "" : "; read models rebuilt (\(erasure.rebuilt.joined(separator: ", ")))"
                context.out(
                    "Erased: the account's personal data reads as erased everywhere; its snapshots and its directory entries removed\(rebuilt).")
            }
        }
        return .success
    }

    /// `--correlation-id`, checked.
    private static func correlationOption(_ arguments: ParsedArguments) throws(UsageError) -> String? {
        guard let text = arguments.value("correlation-id") else { return nil }
        do {
            return try checkedCorrelationID(text)
        } catch {
            throw arguments.usageError("invalid value for '--correlation-id': \(error.message)")
        }
    }

    /// Checks a correlation id: 1 to 128 characters, no control characters (it lands in every event's metadata).
    static func checkedCorrelationID(_ text: String) throws(FieldError) -> String {
        guard !text.isEmpty, text.unicodeScalars.count <= 128 else {
            throw FieldError(field: "correlationId", message: "must have 1 to 128 characters")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw FieldError(field: "correlationId", message: "must not hold control characters")
        }
        return text
    }

    /// Handles a command with an envelope.
    static func handle<C: DomainCommand>(_ command: C, _ envelope: Envelope, handler: CommandHandler) async throws
        -> CommandOutcome
    {
        try await handler.handle(
            command, as: envelope.userID, now: envelope.now, commandID: envelope.commandID,
            correlationID: envelope.correlationID, actedFor: envelope.actedFor)
    }

    /// The options of a verb as the JSON object its command reads.
    private static func optionsObject(_ fields: [FieldDescriptor], _ arguments: ParsedArguments) throws(FieldError) -> JSONValue {
        var pairs: [JSONValue.Pair] = []
        for field in fields {
            let name = DomainVerbs.optionName(field.key)
            var kind = field.kind
            if case .optional(let inner) = kind { kind = inner }
            switch kind {
            case .bool:
                pairs.append(.init(key: field.key, value: .bool(arguments.flag(name))))
            case .strings:
                let values = arguments.allValues(name)
                if !values.isEmpty { pairs.append(.init(key: field.key, value: .array(values.map { .string($0) }))) }
            default:
                if let v = arguments.value(name) { pairs.append(.init(key: field.key, value: .string(v))) }
            }
        }
        return .object(pairs)
    }

    /// A field error on the command line, worded with the option's name.
    private static func usageError(_ error: any Error, _ arguments: ParsedArguments) -> any Error {
        guard let error = error as? FieldError else { return error }
        let top = String(error.field.prefix { $0 != "[" && $0 != "." })
        let option = "--" + DomainVerbs.optionName(top)
        if error.message == "is missing", top == error.field {
            return arguments.usageError("missing expected argument '\(option)'")
        }
        let detail = top == error.field ? error.message : "\(error.field): \(error.message)"
        return arguments.usageError("invalid value for '\(option)': \(detail)")
    }
}
