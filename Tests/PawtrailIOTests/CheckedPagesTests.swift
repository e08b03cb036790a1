import Foundation
import PawtrailIO
import Testing

@Suite("Checked pages: a file's checksums page by page")
struct CheckedPagesTests {
    static func file(_ content: [UInt8]) -> [UInt8] {
        var bytes = content
        CheckedPages.appendTable(to: &bytes)
        return bytes
    }

    @Test(arguments: [0, 1, 4095, 4096, 4097, 3 * 4096 + 17])
    func aTableCoversTheContentAndChecksEachPageOnce(length: Int) throws {
        let content = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let bytes = Self.file(content)
        #expect(bytes.count == length + CheckedPages.tableSize(forContent: length))
        try bytes.withUnsafeBytes { raw in
            let pages = try #require(CheckedPages(raw))
            #expect(pages.content.count == length)
            #expect(pages.pageCount == (length + 4095) / 4096)
            #expect(pages.checkedPageCount == 0, "opening checks no page")
            #expect(pages.check(0..<min(1, length)))
            #expect(pages.checkedPageCount == (length == 0 ? 0 : 1))
            #expect(pages.checkAll())
            #expect(pages.checkedPageCount == pages.pageCount)
            #expect(!pages.check(0..<(length + 1)), "a range past the content")
        }
    }

    @Test func aDamagedPageFailsOnlyWhenARangeReachesIt() throws {
        var bytes = Self.file((0..<(3 * 4096)).map { UInt8(truncatingIfNeeded: $0) })
        bytes[4096 + 100] ^= 0x01
        try bytes.withUnsafeBytes { raw in
            let pages = try #require(CheckedPages(raw))
            #expect(pages.check(0..<4096), "the first page is sound")
            #expect(pages.check(8192..<9000), "so is the third")
            #expect(!pages.check(4000..<4200), "a range reaching into the second page")
            #expect(!pages.check(4096..<4097))
            #expect(!pages.checkAll())
        }
    }

    @Test func aDamagedTableOrTrailerIsRefused() throws {
        let sound = Self.file(Array(repeating: 9, count: 10_000))
        for offset in [sound.count - 1, sound.count - 5, sound.count - 9, sound.count - 13, sound.count - 20] {
            var damaged = sound
            damaged[offset] ^= 0x40
            #expect(damaged.withUnsafeBytes { CheckedPages($0) } == nil, "byte \(offset) of \(sound.count)")
        }
        #expect([UInt8](repeating: 0, count: 11).withUnsafeBytes { CheckedPages($0) } == nil)
        #expect(Array(sound.dropLast()).withUnsafeBytes { CheckedPages($0) } == nil)
    }
}
