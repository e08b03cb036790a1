@testable import PawtrailCLI
import PawtrailJSON
import Testing

@Suite struct JSONScannerTests {
    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test(arguments: [
        #"{}"#, #"[]"#, #"0"#, #"-0.5e+10"#, #""a\u00e9\n""#, "true", "false", "null", #"{"a":[1,{"b":null}],"c":"d"}"#,
        "  \n{\"x\" : 1 }\t", #""héllo 🐈""#,
    ])
    func acceptsValidJSON(_ text: String) throws {
        _ = try JSONScanner.validate(bytes(text))
    }

    @Test(arguments: [
        "", "   ", "{", #"{"a":}"#, #"{"a" 1}"#, "[1,]", "01", "1.", "-", "tru", #""unterminated"#, "{} {}", #"{'a':1}"#,
        "\"tab\tinside\"", #""\x""#, "NaN", "[1 2]",
    ])
    func rejectsInvalidJSON(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { _ = try JSONScanner.validate(bytes(text)) }
    }

    @Test func rejectsInvalidUTF8AndDeepNesting() {
        #expect(throws: JSONSyntaxError.self) { _ = try JSONScanner.validate([0x22, 0xFF, 0x22]) }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { _ = try JSONScanner.validate(bytes(deep)) }
    }

    @Test func reportsTheColumn() {
        #expect {
            _ = try JSONScanner.validate(bytes(#"{"a":1 "b":2}"#))
        } throws: { error in
            (error as? JSONSyntaxError)?.offset == 7
        }
    }

    @Test func trimsWhitespaceButKeepsBytes() throws {
        let text = bytes("  {\"b\":1.50, \"a\":2}\n")
        let range = try JSONScanner.validate(text).range
        #expect(String(decoding: text[range], as: UTF8.self) == "{\"b\":1.50, \"a\":2}")
    }

    @Test func membersKeepRawValueRanges() throws {
        let line = bytes(#"{"stream":"order-1","data":{"z":1.0,"a":[1, 2]},"n":7}"#)
        let members = try JSONScanner.objectMembers(line)
        #expect(members.map(\.key) == ["stream", "data", "n"])
        #expect(members.map(\.kind) == [.string, .object, .number])
        #expect(String(decoding: line[members[1].range], as: UTF8.self) == #"{"z":1.0,"a":[1, 2]}"#)
        #expect(JSONScanner.decodeString(line, members[0].range) == "order-1")
    }

    @Test func membersRejectDuplicatesAndNonObjects() {
        #expect(throws: JSONSyntaxError.self) { _ = try JSONScanner.objectMembers(bytes(#"{"a":1,"a":2}"#)) }
        #expect(throws: JSONSyntaxError.self) { _ = try JSONScanner.objectMembers(bytes("[1]")) }
    }

    @Test func decodesEscapes() {
        let s = bytes(#""a\"b\\c\/d\u00e9\ud83d\udc08\n""#)
        #expect(JSONScanner.decodeString(s, 0..<s.count) == "a\"b\\c/dé🐈\n")
    }

    @Test func minifyKeepsStringsIntact() {
        #expect(JSONScanner.minified(bytes("{ \"a b\" : [ 1 ,\n 2 ] }")[...]) == bytes(#"{"a b":[1,2]}"#))
    }

    @Test func writerEscapesAndKeepsOrder() {
        let v = JSONValue.object(["z": .string("a\"b\n\u{1}"), "a": .array([.uint(1), .null, .bool(true)]), "r": .raw(bytes("{\"x\":1.0}"))])
        #expect(v.serialized == #"{"z":"a\"b\n\u0001","a":[1,null,true],"r":{"x":1.0}}"#)
    }
}
