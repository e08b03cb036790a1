import EventLog
import PawtrailIO
import Projections

extension RunReader {
    /// A row's version in the head (its newest in this run), `nil` when the head has none.
    ///
    /// Lookups of many rows (a view naming the recipients of a day's notifications) each want one entry of a block:
    /// the block's bytes are decompressed once (kept among the recent ones) and scanned in place, and only the entry
    /// found becomes a ``RowVersion``, instead of every entry of the block.
    ///
    /// - Throws: ``EventStoreError/corrupted(location:offset:reason:)`` for a damaged block.
    func headVersion(of key: RowKey) throws -> RowVersion? {
        guard var b = startBlock(.head, key, .max) else { return nil }
        let blocks = sections[Section.head.rawValue]
        // The last block whose first entry comes at or before the key holds it, unless the key's entry opens the next.
        if b + 1 < blocks.count, blocks.firstKey(b + 1) == key { b += 1 }
        let bytes = try cachedBlockBytes(.head, b)
        var start = 0
        if let hint = headHint, hint.block == b, hint.key != key, RunFormat.precedes(hint.key, .max, key, .max) { start = hint.offset }
        var foundAt = 0
        let found: Result<RowVersion?, ByteReaderError> = bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer, offset: start)
            do throws(ByteReaderError) {
                while !r.isAtEnd {
                    foundAt = r.offset
                    let k = try r.readView(Int(try r.readVarint()))
                    let position = try r.readVarint()
                    let flags: UInt8 = try r.read()
                    let value = flags & RunFormat.absentFlag == 0 ? try r.readView(Int(try r.readVarint())) : nil
                    guard RunFormat.sameBytes(k, key.bytes) else { continue }
                    return .success(RowVersion(key: key, position: position, value: value.map { Array($0) }, keep: flags & RunFormat.keptFlag != 0))
                }
                return .success(nil)
            } catch {
                return .failure(error)
            }
        }
        switch found {
        case .success(let v):
            if v != nil { headHint = (b, foundAt, key) }
            return v
        case .failure(let error): throw damaged(.head, b, "a block's entries do not decode: \(error)")
        }
    }
}
