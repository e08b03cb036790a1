import EventLog
import Foundation
@testable import PawtrailCLI
import PawtrailJSON
import Testing

/// The cheaper scan of objects with plain keys reads every line as the general scan does: the same members, the same
/// line, the same problem. Lines are drawn from valid ones and damaged at random, byte by byte and key by key.
@Suite struct BatchLinePlainScanTests {
    static let valid: [String] = [
        #"{"stream":"order-1","type":"OrderNoted","data":{"total":12.50,"b":[1,{"c":null}],"a":"x\"y"},"eventId":"0E6D6F4A-0000-4000-8000-000000000001","metadata":{"actor":"sam","correlationId":"c-1"},"expectedVersion":"no-stream"}"#,
        #"{"stream":"inventory-litter","type":"StockHeld","data":[1, 2],"expectedVersion":3}"#,
        #"{"stream":"pet-1","expectedVersion":"stream-exists","check":true}"#,
        #"  { "stream" : "pet-é" , "type" : "Fed" , "data" : "🐈" , "check" : false }  "#,
        #"{"stream":"a-1","type":"T","data":{},"metadata":{}}"#,
    ]
    /// Bytes that change what JSON means.
    static let alphabet: [UInt8] = Array(#"{}[]:,"\ ab0-9eE.tfnu"#.utf8) + [0x00, 0x0A, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF]

    func outcome(_ line: [UInt8], plain: Bool) -> String {
        do {
            return "\(try BatchLine.read(line, 0..<line.count, newEventID: { UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)) }, plainFirst: plain))"
        } catch {
            return "problem: \(error.message)"
        }
    }

    func mutate(_ line: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var out = line
        for _ in 0..<(1 + Int(rng.next() % 3)) where !out.isEmpty {
            let at = Int(rng.next() % UInt64(out.count))
            switch rng.next() % 6 {
            case 0: out.remove(at: at)
            case 1: out.insert(Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))], at: at)
            case 2: out[at] = Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))]
            case 3:
                // A key repeated, or written with an escape, or renamed.
                let text = String(decoding: out, as: UTF8.self)
                let swaps = [("\"type\"", "\"t\\u0079pe\""), ("\"data\":", "\"data\":1,\"data\":"), ("\"stream\"", "\"streams\""), ("\"actor\"", "\"act\\u006fr\""), ("\"actor\":\"sam\"", "\"actor\":\"sam\",\"actor\":\"x\"")]
                let (a, b) = swaps[Int(rng.next() % UInt64(swaps.count))]
                out = Array(text.replacingOccurrences(of: a, with: b).utf8)
            case 4: out.insert(contentsOf: Array("\u{65}\u{301}".utf8), at: at)
            default: out.append(contentsOf: out[at...].prefix(3))
            }
        }
        return out
    }

    @Test func plainAndGeneralScansReadEveryLineAlike() {
        var rng = SplitMix64(seed: 7)
        var plainRead = 0
        var problems = 0
        for round in 0..<6_000 {
            let base = Array(Self.valid[round % Self.valid.count].utf8)
            let line = round < Self.valid.count ? base : mutate(base, &rng)
            let general = outcome(line, plain: false)
            #expect(outcome(line, plain: true) == general, "\(String(decoding: line, as: UTF8.self))")
            if general.hasPrefix("problem") { problems += 1 }
            // The scanner alike: whatever the plain scan takes, the general one reads to the same members.
            var plain: [JSONScanner.PlainMember] = []
            if JSONScanner.plainMembers(line[...], into: &plain) {
                plainRead += 1
                let members = try? JSONScanner.objectMembers(line)
                #expect(members?.map(\.key) == plain.map { String(decoding: line[$0.key], as: UTF8.self) })
                #expect(members?.map(\.kind) == plain.map(\.kind))
                #expect(members?.map(\.range) == plain.map(\.range))
            }
        }
        // Both kinds were met many times: the comparison was not of one side only.
        #expect(plainRead > 1_000)
        #expect(problems > 1_000)
    }
}
