import EventLog
import PawtrailIO

/// What an open needs of each sealed segment (its header, its footer, and that its index files are in place), kept
/// in one file beside the segments so that an open reads that file instead of every segment's trailer, header, footer
/// and index-file headers (about ten system calls a segment; 77 segments at ten million events).
///
/// A cache only: an entry is used while the segment's file has the identity, size and modification time it had when
/// the entry was made, and its index files the inodes they had (a compaction or a rebuild replaces a file by a
/// rename, which changes both). Anything else (no file, damage, another format, a copy of the store, whose files
/// all have new identities) costs the full reads, never an answer: the entry is passed over and made again.
///
/// File: "PAWTSSC1" | version u32 | entry count u32 | entries | CRC32C u32 of all before it. Entry: name
/// (length-prefixed) | device u64 | inode u64 | size u64 | modified i64 | `.sidx` inode u64 | `.eidx` inode u64 |
/// header (64 bytes) | footer offset u64 | footer frame (length-prefixed).
struct SealedSegmentCache {
    /// One sealed segment as it was when the entry was made.
    struct Entry: Equatable {
        var status: FileStatus
        var streamIndexInode: UInt64
        var idIndexInode: UInt64
        var header: [UInt8]
        var footerOffset: UInt64
        var footer: [UInt8]
    }

    static let fileName = "sealed.cache"
    static let magic = Array("PAWTSSC1".utf8)
    static let version: UInt32 = 1

    /// Entries by segment file name.
    var entries: [String: Entry] = [:]

    /// The segment an entry describes, when the entry still holds for the files: the segment's, opened as `fd`, and
    /// its index files, by their inodes in the directory's listing.
    ///
    /// - Parameters:
    ///   - name: The segment's file name.
    ///   - path: Its path.
    ///   - fd: The segment's file, open.
    ///   - status: That file's status now.
    ///   - inodes: The segments directory's names and inodes.
    /// - Returns: The sealed segment, its index files to be checked at first use; `nil` when there is no entry, or it
    ///   no longer holds, or its bytes do not decode.
    func segment(named name: String, path: String, fd: FileDescriptor, status: FileStatus, inodes: [String: UInt64]) -> SealedSegment? {
        guard let entry = entries[name], status == entry.status else { return nil }
        let base = String(name.dropLast(4))
        guard inodes[base + ".sidx"] == entry.streamIndexInode, inodes[base + ".eidx"] == entry.idIndexInode,
            let header = try? SegmentHeader.decode(entry.header, file: path),
            LogFormat.firstPosition(ofSegmentName: name) == header.firstPosition,
            let footer = try? SegmentFooter.decode(entry.footer, file: path, footerOffset: entry.footerOffset)
        else { return nil }
        return SealedSegment(
            name: name, path: path, fd: fd, header: header, footer: footer, fileSize: status.size, streams: nil, ids: nil)
    }

    /// Records a sealed segment just loaded from its files, when its index files are in the listing.
    ///
    /// - Parameters:
    ///   - segment: The segment.
    ///   - status: Its file's status, taken before the segment was read.
    ///   - inodes: The segments directory's names and inodes.
    /// - Returns: Whether the cache changed.
    mutating func record(_ segment: SealedSegment, status: FileStatus, inodes: [String: UInt64]) -> Bool {
        let base = String(segment.name.dropLast(4))
        guard status.size == segment.fileSize, let sidx = inodes[base + ".sidx"], let eidx = inodes[base + ".eidx"] else { return false }
        let entry = Entry(
            status: status, streamIndexInode: sidx, idIndexInode: eidx, header: segment.header.encoded(),
            footerOffset: segment.footer.dataEnd, footer: segment.footer.frameBytes)
        guard entries[segment.name] != entry else { return false }
        entries[segment.name] = entry
        return true
    }

    /// Keeps only the entries of these segments.
    mutating func keep(_ names: Set<String>) {
        entries = entries.filter { names.contains($0.key) }
    }

    // MARK: - The file

    /// The cache in a directory; empty when the file is missing, damaged or of another version.
    static func load(directory: String) -> SealedSegmentCache {
        guard let fd = try? FileDescriptor.open(directory + "/" + fileName, .readOnly), let size = try? fd.size(),
            size >= 20, size < 1 << 30, let bytes = try? fd.read(at: 0, count: Int(size)), bytes.count == Int(size)
        else { return SealedSegmentCache() }
        return (try? decode(bytes)) ?? SealedSegmentCache()
    }

    /// Writes the cache, replacing the file by a rename; not flushed (a cache), and best effort: a store on a
    /// read-only disk opens as before.
    func save(directory: String) {
        try? FileSystem.writeAtomically(encoded(), to: directory + "/" + Self.fileName, sync: false)
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 16 + entries.values.reduce(0) { $0 + 160 + $1.footer.count })
        w.write(bytes: Self.magic)
        w.write(Self.version)
        w.write(UInt32(entries.count))
        for (name, e) in entries.sorted(by: { $0.key < $1.key }) {
            w.writeLengthPrefixed(name)
            w.write(e.status.id.device)
            w.write(e.status.id.inode)
            w.write(e.status.size)
            w.write(e.status.modified)
            w.write(e.streamIndexInode)
            w.write(e.idIndexInode)
            w.write(bytes: e.header)
            w.write(e.footerOffset)
            w.writeLengthPrefixed(e.footer)
        }
        w.write(CRC32C.checksum(w.bytes))
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> SealedSegmentCache {
        try bytes.withUnsafeBytes { raw throws -> SealedSegmentCache in
            guard raw.count >= 20, Array(raw[0..<8]) == magic else { throw ByteReaderError(reason: "not a sealed-segment cache", offset: 0) }
            let body = UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 4)])
            guard CRC32C.checksum(body) == raw.loadUnaligned(fromByteOffset: raw.count - 4, as: UInt32.self).littleEndian else {
                throw ByteReaderError(reason: "checksum mismatch", offset: raw.count - 4)
            }
            var r = ByteReader(body, offset: 8)
            guard try r.read(UInt32.self) == version else { throw ByteReaderError(reason: "another version", offset: 8) }
            let count = Int(try r.read(UInt32.self))
            var cache = SealedSegmentCache()
            for _ in 0..<count {
                let name = try r.readLengthPrefixedString()
                let status = FileStatus(
                    id: FileID(device: try r.read(UInt64.self), inode: try r.read(UInt64.self)), size: try r.read(UInt64.self),
                    modified: try r.read(Int64.self))
                let sidx = try r.read(UInt64.self)
                let eidx = try r.read(UInt64.self)
                let header = try r.readBytes(LogFormat.segmentHeaderSize)
                let footerOffset = try r.read(UInt64.self)
                let footer = try r.readLengthPrefixedBytes()
                cache.entries[name] = Entry(
                    status: status, streamIndexInode: sidx, idIndexInode: eidx, header: header, footerOffset: footerOffset, footer: footer)
            }
            guard r.remaining == 0 else { throw ByteReaderError(reason: "bytes after the last entry", offset: r.offset) }
            return cache
        }
    }
}
