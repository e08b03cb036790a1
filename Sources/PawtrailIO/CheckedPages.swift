import CPawtrailSupport

/// CRC-32C checksums of a file's content page by page, each page checked the first time a read reaches it: an index
/// file is then checked in proportion to what lookups read of it, not to its size, which grows with the store.
///
/// A file with checked pages ends with a page table: one CRC-32C for each 4 KiB page of the content before it (the
/// last page may be short), then a trailer of the page count (u32), the CRC-32C of the page table (u32) and a magic
/// (u32). Opening the file checks only the trailer and the table. A page's check is recorded in a bitmap that every
/// thread reading the file shares; two threads checking one page at once both compute its checksum, which is
/// harmless.
public final class CheckedPages: @unchecked Sendable {
    /// The bytes each checksum covers.
    public static let pageSize = 4096
    /// The trailer's size.
    public static let trailerSize = 12
    static let magic: UInt32 = 0x4B43_4750  // "PGCK"

    /// The content the pages cover: the file without its page table.
    public let content: UnsafeRawBufferPointer
    private let table: UnsafeRawPointer
    /// How many pages there are.
    public let pageCount: Int
    private let bits: UnsafeMutablePointer<UInt64>
    private let words: Int

    /// Takes up the page table at the end of a file's bytes.
    ///
    /// - Parameter file: The whole file (content, page table, trailer).
    /// - Returns: `nil` when the file has no trailer, its table's size does not fit the file, or the table's checksum
    ///   fails.
    public init?(_ file: UnsafeRawBufferPointer) {
        guard file.count >= Self.trailerSize, let base = file.baseAddress else { return nil }
        let trailer = file.count - Self.trailerSize
        let pages = Int(file.loadUnaligned(fromByteOffset: trailer, as: UInt32.self).littleEndian)
        let tableCRC = file.loadUnaligned(fromByteOffset: trailer + 4, as: UInt32.self).littleEndian
        guard file.loadUnaligned(fromByteOffset: trailer + 8, as: UInt32.self).littleEndian == Self.magic, trailer >= pages * 4 else { return nil }
        let contentLength = trailer - pages * 4
        guard pages == (contentLength + Self.pageSize - 1) / Self.pageSize else { return nil }
        let tableBytes = UnsafeRawBufferPointer(start: base + contentLength, count: pages * 4)
        guard CRC32C.checksum(tableBytes) == tableCRC else { return nil }
        content = UnsafeRawBufferPointer(start: base, count: contentLength)
        table = base + contentLength
        pageCount = pages
        words = max(1, (pages + 63) / 64)
        bits = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
        bits.initialize(repeating: 0, count: words)
    }

    deinit {
        bits.deallocate()
    }

    /// Checks the pages a byte range of the content touches (once each).
    ///
    /// - Parameter range: Offsets into ``content``.
    /// - Returns: `false` when the range lies outside the content or a page's checksum fails.
    @inline(__always)
    public func check(_ range: Range<Int>) -> Bool {
        guard range.lowerBound >= 0, range.upperBound <= content.count else { return false }
        guard !range.isEmpty else { return true }
        let first = range.lowerBound / Self.pageSize
        let last = (range.upperBound - 1) / Self.pageSize
        for page in first...last where !isChecked(page) {
            guard checkPage(page) else { return false }
        }
        return true
    }

    /// Checks every page.
    ///
    /// - Returns: `false` when a page's checksum fails.
    public func checkAll() -> Bool {
        content.isEmpty || check(0..<content.count)
    }

    /// How many pages have been checked so far (for tests and `--stats`).
    public var checkedPageCount: Int {
        (0..<pageCount).reduce(0) { $0 + (isChecked($1) ? 1 : 0) }
    }

    @inline(__always)
    private func isChecked(_ page: Int) -> Bool {
        CPawtrailSupport_load_acquire(bits + page / 64) & (1 << UInt64(page % 64)) != 0
    }

    private func checkPage(_ page: Int) -> Bool {
        let start = page * Self.pageSize
        let end = min(content.count, start + Self.pageSize)
        let stored = table.loadUnaligned(fromByteOffset: page * 4, as: UInt32.self).littleEndian
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: content[start..<end])) == stored else { return false }
        CPawtrailSupport_or_release(bits + page / 64, 1 << UInt64(page % 64))
        return true
    }

    /// The page table and trailer for a file's content, to append after it.
    ///
    /// - Parameter content: Everything the file holds before its page table.
    /// - Returns: The bytes to append.
    public static func table(for content: UnsafeRawBufferPointer) -> [UInt8] {
        let pages = (content.count + pageSize - 1) / pageSize
        var out: [UInt8] = []
        out.reserveCapacity(pages * 4 + trailerSize)
        for page in 0..<pages {
            let slice = UnsafeRawBufferPointer(rebasing: content[(page * pageSize)..<min(content.count, (page + 1) * pageSize)])
            withUnsafeBytes(of: CRC32C.checksum(slice).littleEndian) { out.append(contentsOf: $0) }
        }
        let tableCRC = out.withUnsafeBytes { CRC32C.checksum($0) }
        withUnsafeBytes(of: UInt32(pages).littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: tableCRC.littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: magic.littleEndian) { out.append(contentsOf: $0) }
        return out
    }

    /// The size of the page table and trailer for content of a length.
    public static func tableSize(forContent length: Int) -> Int {
        (length + pageSize - 1) / pageSize * 4 + trailerSize
    }

    /// Appends the page table for everything in `bytes` to it.
    public static func appendTable(to bytes: inout [UInt8]) {
        let t = bytes.withUnsafeBytes { table(for: $0) }
        bytes.append(contentsOf: t)
    }
}
