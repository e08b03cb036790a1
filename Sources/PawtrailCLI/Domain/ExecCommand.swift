import EventLog
import Events
import Foundation
import PawtrailDomain
import PawtrailJSON

/// `pawtrail exec`: domain commands as JSON Lines, one answer line each.
enum ExecCommand {
    /// The longest line `exec` reads: far more than any command needs; a longer line is answered as bad input,
    /// never held.
    static let lineLimit = 8 << 20

    static let spec = CommandSpec(
        name: "exec",
        abstract: "Run domain commands from JSON Lines, answering one JSON line each.",
        discussion: """
            Each input line is one command:
              {"command":"pet.add","as":"u-ann","name":"Rex","species":"dog"}
            with optional "now" (the command's clock), "commandId" and "correlationId". Each answer line is
              {"ok":true,"line":1,"command":"pet.add",...,"events":[{"position":..,"stream":..,"type":..,"data":{..}}]}
            or {"ok":false,"line":1,"command":"pet.add","error":"<kind>","message":"..."}.
            Commands run in order, each atomically on its own, as their lines arrive: each answer line is written
            once its command is durable, so a client may keep one 'exec -' open on a pipe and talk to it line by
            line, and an answer on the output means its command, and every one before it, is on disk. With --stats
            each answer also says what its command read. The exit status is 0 when every command succeeded, else
            that of the first failure (see README); an I/O error stops the run and exits 74.
            """,
        options: [.flag("stop-on-error", help: "Stop at the first command that fails.")],
        positionals: [PositionalSpec(name: "file", help: "The JSON Lines file ('-' for stdin).", isRequired: false)],
        run: run)

    /// The most commands whose answers wait for one flush of the store, and the longest the first of them waits.
    static let maxGroup = 256
    static let maxGroupDelay: Duration = .milliseconds(10)

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let path = context.arguments.positionals.first ?? "-"
        let reader = try LineReader(path: path, limit: lineLimit)
        var handler = try context.commandHandler(cache: StateCache())
        // Commands run one after another, each on the state the ones before it left; their appends are flushed
        // together, and their answers written once they are durable (see `Group`).
        handler.defersFlush = true
        let withStats = context.arguments.flag(GlobalOptions.stats.name)
        var group = Group(context: context, store: handler.store)
        var lineNumber = 0
        var erased: [String] = []
        /// The next line; when the input cannot be read, what ran so far is answered first.
        func nextLine(canWait: Bool) async throws -> LineReader.Next {
            do {
                return try reader.next(canWait: canWait)
            } catch {
                _ = await group.deliver()
                await handler.saveQueuedSnapshots()
                throw error
            }
        }
        reading: while true {
            var next = try await nextLine(canWait: group.isEmpty)
            if case .wouldWait = next {
                // The writer has not sent the next line: what ran so far is answered before waiting for it.
                if await group.deliver() { break }
                next = try await nextLine(canWait: true)
            }
            guard case .line(let line) = next else { break }
            lineNumber += 1
            let answer: Answer
            switch line {
            case .tooLong(let length):
                answer = Answer(
                    json: DomainReport.failureJSON(
                        line: lineNumber, command: nil, kind: ErrorKind.invalidCommand.rawValue,
                        message: "line \(lineNumber) is \(length) bytes long, more than the \(lineLimit) a command may take", extra: []),
                    exit: ErrorKind.invalidCommand.exitCode)
            case .text(var bytes):
                // A byte order mark at the start of the file is skipped, as in a batch file (editors on Windows write one).
                if lineNumber == 1, bytes.starts(with: BatchParser.byteOrderMark) { bytes.removeFirst(BatchParser.byteOrderMark.count) }
                if bytes.allSatisfy(JSONScanner.isWhitespace) { continue }
                answer = await execute(bytes, lineNumber: lineNumber, handler: handler, withStats: withStats)
            }
            erased += answer.erases
            group.add(answer)
            // A broken store would fail every later line too: stop, and let the status say the run was cut short
            // whatever failed before.
            let stop = answer.exit == .ioError || (answer.exit != nil && context.arguments.flag("stop-on-error"))
            if stop || group.isDue {
                if await group.deliver() || stop { break reading }
            }
        }
        _ = await group.deliver()
        await handler.saveQueuedSnapshots()
        _ = try await AccountErasure.finish(erasing: erased, context)
        return group.status
    }

    /// The answers of the commands run since the store was last flushed. Each command appends without waiting for
    /// the disk; before any of their answers is written, one flush makes all of them durable. So an answer on the
    /// output means its command, and every one before it, is on disk, as when each command flushes on its own, and
    /// a flush costs a group what it cost one command. A group is answered when the input has no next line ready,
    /// after ``maxGroup`` commands, or ``maxGroupDelay`` after its first, whichever comes first.
    struct Group {
        let context: CommandContext
        let store: any EventStore
        private var answers: [Answer] = []
        private var since: ContinuousClock.Instant?
        /// The exit status so far: that of the first failure.
        private(set) var status = ExitCode.success

        init(context: CommandContext, store: any EventStore) {
            self.context = context
            self.store = store
        }

        var isEmpty: Bool { answers.isEmpty }

        var isDue: Bool {
            answers.count >= ExecCommand.maxGroup || since.map { ContinuousClock.now - $0 >= ExecCommand.maxGroupDelay } ?? false
        }

        mutating func add(_ answer: Answer) {
            if answers.isEmpty { since = .now }
            answers.append(answer)
        }

        /// Flushes the store and writes the answers.
        ///
        /// - Returns: Whether the run must stop: the flush failed, and every answer waiting became an I/O error (those
        ///   commands are not durable).
        mutating func deliver() async -> Bool {
            guard !answers.isEmpty else { return false }
            defer {
                answers.removeAll(keepingCapacity: true)
                since = nil
            }
            var failed = false
            do {
                try await store.flush()
            } catch {
                failed = true
                let message = "the store could not make this command durable: \(error)"
                answers = answers.map { a in
                    var line: Int64 = 0
                    var command: String?
                    if case .object(let pairs) = a.json {
                        for p in pairs {
                            if p.key == "line", case .int(let n) = p.value { line = n }
                            if p.key == "command", case .string(let c) = p.value { command = c }
                        }
                    }
                    return Answer(
                        json: DomainReport.failureJSON(line: Int(line), command: command, kind: ErrorKind.io.rawValue, message: message, extra: []),
                        exit: .ioError)
                }
            }
            for answer in answers {
                if let load = answer.load { context.stats.handled(load) }
                context.out(answer.json)
                if let failure = answer.exit, status == .success { status = failure }
                // An I/O error cut the run short: that is what the status says, whatever failed before.
                if answer.exit == .ioError { status = .ioError }
            }
            if failed { status = .ioError }
            // The commands are durable: their answers go out now, not when a buffer fills.
            context.console.flush()
            return failed
        }
    }

    /// One answered line: the JSON, and the exit status of a failure.
    struct Answer {
        var json: JSONValue
        var exit: ExitCode?
        /// What the command read, when it ran.
        var load: LoadStats?
        /// The accounts the command erased (``AccountErasure``).
        var erases: [String] = []
    }

    static func execute(_ line: [UInt8], lineNumber: Int, handler: CommandHandler, withStats: Bool = false) async -> Answer {
        var commandName: String?
        func fail(_ kind: ErrorKind, _ message: String, _ extra: [JSONValue.Pair] = []) -> Answer {
            Answer(
                json: DomainReport.failureJSON(
                    line: lineNumber, command: commandName, kind: kind.rawValue, message: message, extra: extra),
                exit: kind.exitCode)
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            return fail(.invalidCommand, "line \(lineNumber) is not JSON: \(error)")
        }
        guard case .string(let name)? = value["command"] else {
            return fail(.invalidCommand, "line \(lineNumber) has no \"command\" string")
        }
        // A name no command has is echoed in its answer, shortened when it is longer than any name could be.
        commandName = name.utf8.count <= 200 ? name : String(name.prefix(64)) + "… (\(name.utf8.count) bytes)"
        guard let type = CommandCatalog.command(named: name) else {
            let known = CommandCatalog.all.map { $0.name }
            let hint = Suggestion.closest(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
            return fail(.invalidCommand, "unknown command '\(commandName ?? name)'\(hint)")
        }
        do {
            let envelope = try envelope(value)
            let outcome = try await type.handleJSON(value, envelope, handler: handler)
            var json = DomainReport.json(outcome)
            if case .object(var pairs) = json {
                pairs.insert(.init(key: "line", value: .int(Int64(lineNumber))), at: 1)
                if withStats { pairs.append(.init(key: "stats", value: Self.json(outcome.loadStats))) }
                json = .object(pairs)
            }
            return Answer(json: json, exit: nil, load: outcome.loadStats, erases: AccountErasure.erasedAccounts(outcome))
        } catch let error as DomainError {
            let actor: String = if case .string(let a)? = value["as"] { a } else { "" }
            let sentence = await LocalizedRefusal.of(error, for: actor, in: handler).sentence
            return fail(ErrorKind(error), error.description, [.init(key: "userMessage", value: .string(sentence))] + DomainReport.details(error))
        } catch let error as FieldError {
            return fail(.invalidCommand, error.description, [.init(key: "field", value: .string(error.field))])
        } catch let error as EventStoreError {
            return fail(ErrorKind(error), ErrorReporter.message(error))
        } catch {
            return fail(.failure, String(describing: error))
        }
    }


    /// What a command read, as `--stats` adds it to its answer.
    static func json(_ load: LoadStats) -> JSONValue {
        .object([
            "streamsLoaded": .int(Int64(load.streams)), "eventsRead": .int(Int64(load.eventsRead)),
            "snapshotHits": .int(Int64(load.snapshotHits)), "cacheHits": .int(Int64(load.cacheHits)),
        ])
    }

    private static func envelope(_ value: JSONValue) throws(FieldError) -> DomainCommandRunner.Envelope {
        guard case .string(let user)? = value["as"] else {
            throw FieldError(field: "as", message: "is missing: every command names the user issuing it")
        }
        var now = Timestamp.now()
        if let v = value["now"] {
            guard case .string(let text) = v, let t = Timestamp(iso8601: text) else {
                throw FieldError(field: "now", message: "expected a UTC ISO-8601 time")
            }
            now = t
        }
        var commandID: UUID?
        if let v = value["commandId"] {
            guard case .string(let text) = v, let id = UUID(uuidString: text) else {
                throw FieldError(field: "commandId", message: "expected a UUID")
            }
            commandID = id
        }
        var correlationID: String?
        if let v = value["correlationId"] {
            guard case .string(let text) = v else { throw FieldError(field: "correlationId", message: "expected a string") }
            correlationID = try DomainCommandRunner.checkedCorrelationID(text)
        }
        var actedFor: String?
        if let v = value["for"] {
            guard case .string(let text) = v else { throw FieldError(field: "for", message: "expected a user id") }
            actedFor = text
        }
        return DomainCommandRunner.Envelope(userID: user, now: now, commandID: commandID, correlationID: correlationID, actedFor: actedFor)
    }
}

extension DomainCommand {
    /// Reads the command from a JSON line and handles it. A static member rather than a generic function, so
    /// that `exec` calls it on the command type it looked up by name.
    static func handleJSON(_ value: JSONValue, _ envelope: DomainCommandRunner.Envelope, handler: CommandHandler)
        async throws -> CommandOutcome
    {
        let command = try JSONFieldReader.read(Self.self, from: value, ignoring: DomainCommandRunner.envelopeKeys)
        return try await DomainCommandRunner.handle(command, envelope, handler: handler)
    }
}
