@testable import PawtrailCLI
import Testing

@Suite struct ArgumentParserTests {
    let parser = ArgumentParser(root: PawtrailCommand.root)

    func parsed(_ words: [String]) throws -> (CommandSpec, ParsedArguments) {
        guard case .run(let command, let arguments) = try parser.parse(words) else {
            Issue.record("expected a command to run for \(words)")
            throw UsageError(message: "not a run", commandPath: [])
        }
        return (command, arguments)
    }

    @Test func selectsVerbAndCollectsOptions() throws {
        let (command, args) = try parsed(["log", "append", "--stream", "order-1", "--type=OrderPlaced", "--json", "--meta", "a=1", "--meta", "b=2"])
        #expect(command.name == "append")
        #expect(args.commandPath == ["pawtrail", "log", "append"])
        #expect(args.value("stream") == "order-1")
        #expect(args.value("type") == "OrderPlaced")
        #expect(args.flag("json"))
        #expect(!args.flag("no-sync"))
        #expect(args.allValues("meta") == ["a=1", "b=2"])
    }

    @Test func storeIsAcceptedBeforeTheGroupAndAfterTheVerb() throws {
        #expect(try parsed(["--store", "/a", "log", "stats"]).1.value("store") == "/a")
        #expect(try parsed(["log", "stats", "--store=/b"]).1.value("store") == "/b")
        #expect(try parsed(["log", "--store", "/c", "stats"]).1.value("store") == "/c")
    }

    @Test func dashIsAValueAndDoubleDashEndsOptions() throws {
        #expect(try parsed(["log", "append", "--batch", "-"]).1.value("batch") == "-")
        #expect(try parsed(["log", "inspect", "--", "--weird-name"]).1.positionals == ["--weird-name"])
    }

    @Test func helpRequests() throws {
        for words in [["--help"], ["log", "--help"], ["log", "append", "--help"], ["help", "log", "append"], ["log", "append", "-h"], [], ["log"]] {
            guard case .help(let path) = try parser.parse(words) else {
                Issue.record("expected help for \(words)")
                continue
            }
            #expect(path.first?.name == "pawtrail")
        }
        guard case .help(let path) = try parser.parse(["help", "log", "append"]) else { return }
        #expect(path.map(\.name) == ["pawtrail", "log", "append"])
    }

    @Test func unknownOptionSuggestsTheClosest() {
        #expect {
            _ = try parser.parse(["log", "read", "--all", "--josn"])
        } throws: { error in
            let e = error as? UsageError
            return e?.message == "unknown option '--josn'; did you mean '--json'?" && e?.commandPath == ["pawtrail", "log", "read"]
        }
    }

    @Test func unknownCommandSuggestsTheClosest() {
        #expect {
            _ = try parser.parse(["log", "apend"])
        } throws: { error in
            (error as? UsageError)?.message == "unknown command 'apend' for 'pawtrail log'; did you mean 'append'?"
        }
        #expect(throws: UsageError.self) { _ = try parser.parse(["frobnicate"]) }
    }

    @Test func missingValueFlagWithValueAndPositionals() {
        #expect(throws: UsageError.self) { _ = try parser.parse(["log", "append", "--stream"]) }
        #expect(throws: UsageError.self) { _ = try parser.parse(["log", "read", "--json=yes"]) }
        #expect(throws: UsageError.self) { _ = try parser.parse(["log", "inspect"]) }
        #expect(throws: UsageError.self) { _ = try parser.parse(["log", "stats", "extra"]) }
    }

    @Test func typedAccessorsRejectBadValues() throws {
        let (_, args) = try parsed(["log", "read", "--all", "--limit", "zero"])
        #expect(throws: UsageError.self) { _ = try LogReadCommand.invocation(args) }
        let (_, none) = try parsed(["log", "read"])
        #expect(throws: UsageError.self) { _ = try LogReadCommand.invocation(none) }
        let (_, two) = try parsed(["log", "read", "--all", "--stream", "a"])
        #expect(throws: UsageError.self) { _ = try LogReadCommand.invocation(two) }
        let (_, ok) = try parsed(["log", "read", "--category", "order", "--backward", "--from", "7", "--limit", "3", "--type", "A", "--type", "B"])
        let read = try LogReadCommand.invocation(ok)
        #expect(read.source == .category("order"))
        #expect(read.direction == .backward)
        #expect(read.from == 7)
        #expect(read.limit == 3)
        #expect(read.eventTypes == ["A", "B"])
    }

    @Test func suggestionDistance() {
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance("josn", "json") == 1)
        #expect(Suggestion.closest(to: "stram", among: ["stream", "store"]) == "stream")
        #expect(Suggestion.closest(to: "xyz", among: ["stream", "store"]) == nil)
    }
}
