import Foundation
import Testing

/// The README's tour works as written: every complete `pawtrail` command of its code blocks (those without
/// placeholders such as `[--json]`, `|`, or a word in capitals: `ID`, `FILE`) runs, in order, on a fresh store, and
/// succeeds.
@Suite(.ownThreads) struct ReadmeTourProcessTests {
    static let readme: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    /// The commands of the README's `sh` blocks, continuation lines joined and comments dropped.
    static var commands: [[String]] {
        var out: [[String]] = []
        var inBlock = false
        var pending = ""
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock = line == "```sh"
                continue
            }
            guard inBlock else { continue }
            var text = String(line)
            if let hash = text.range(of: "  #") { text = String(text[..<hash.lowerBound]) }
            text = text.trimmingCharacters(in: .whitespaces)
            if text.hasSuffix("\\") {
                pending += text.dropLast() + " "
                continue
            }
            let command = pending + text
            pending = ""
            guard command.hasPrefix("pawtrail "), !command.contains("["), !command.contains("|"), !command.contains("...") else { continue }
            let words = Self.words(String(command.dropFirst("pawtrail ".count)))
            let placeholder = words.contains { $0.count >= 2 && $0.allSatisfy { $0.isUppercase || $0 == "_" } }
            if !placeholder { out.append(words) }
        }
        return out
    }

    /// Shell words: spaces split, double and single quotes group.
    static func words(_ s: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for c in s {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
                inWord = true
            } else if c == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(c)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    @Test func everyCompleteCommandOfTheTourRunsOnAFreshStore() throws {
        let commands = Self.commands
        #expect(commands.count >= 10, "commands found in the README: \(commands.count)")
        #expect(commands.contains { $0.starts(with: ["order", "place"]) } && commands.contains { $0.starts(with: ["projections", "export"]) })
        let dir = try TemporaryDirectory()
        for words in commands {
            let out = try PawtrailProcess.run(words, environment: ["PAWTRAIL_STORE": dir.path("s")])
            #expect(out.status == 0, "pawtrail \(words.joined(separator: " ")): \(out.status) \(out.stderr)")
        }
    }
}
