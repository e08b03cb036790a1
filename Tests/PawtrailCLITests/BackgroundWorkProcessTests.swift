import Foundation
import Testing

/// Each CLI call is its own process: background work an append starts (here, training the store's zstd
/// dictionary once it holds 4 MiB of events) must finish before the process exits, or it never happens.
@Suite(.ownThreads) struct BackgroundWorkProcessTests {
    @Test func `an append that makes the dictionary due leaves it trained when the process ends`() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        var lines: [String] = []
        for i in 0..<10_000 {
            let note = String(repeating: "kibble and a walk in the park for pet \(i % 97) ", count: 10)
            lines.append(#"{"stream":"pet-\#(i % 500)","type":"PetNoted","data":{"i":\#(i),"note":"\#(note)"}}"#)
        }
        let batch = try dir.write("batch.jsonl", lines.joined(separator: "\n"))
        let append = try PawtrailProcess.run(["--store", store, "log", "append", "--batch", batch])
        #expect(append.status == 0, "\(append.stderr)")
        let stats = try PawtrailProcess.run(["--store", store, "log", "stats", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(object["events"] as? Int == 10_000)
        #expect(object["dictionaries"] as? Int == 1)
    }
}

/// Endless inputs are refused at their size limit instead of exhausting memory.
@Suite(.ownThreads) struct InputLimitProcessTests {
    @Test(arguments: [["--data-file", "/dev/zero"], ["--batch", "/dev/zero"]])
    func `an endless input is bad input, exit 65`(_ source: [String]) throws {
        let dir = try TemporaryDirectory()
        var arguments = ["--store", dir.path("s"), "log", "append"]
        if source[0] == "--data-file" { arguments += ["--stream", "a", "--type", "T"] }
        let out = try PawtrailProcess.run(arguments + source)
        #expect(out.status == 65)
        #expect(out.stderr.hasPrefix("Error: \(source[0]) /dev/zero is larger than "))
    }
}
