import EventLog
import PawtrailIO
import Projections

extension RunReader {
    /// Visits, for every row under a prefix (a table's id, or a group's prefix) that the history section holds, its
    /// newest version there at or before a position, in stored order.
    ///
    /// A past read of a table whose rows change often (a product's units sold, at every order) would pass over many
    /// versions for each one it keeps. A row's versions that span blocks are skipped by the block index: the read
    /// goes to the block holding its version at the position, then to the block of its oldest. Within a block the
    /// entries are read in place, and only the kept ones become ``RowVersion``s.
    ///
    /// - Throws: ``EventStoreError/corrupted(location:offset:reason:)`` for a damaged block.
    func scanHistory(_ prefix: [UInt8], asOf position: UInt64, _ body: (RowVersion) -> Void) throws {
        guard let table = prefix.first else { return }
        let tableOnly = prefix.count == 1
        let target = RowKey(bytes: prefix)
        guard var b = tableOnly ? firstBlock(.history, ofTable: table) : startBlock(.history, target, .max) else { return }
        /// The key of the row whose versions are being passed, and whether its version at the position was found.
        var current: [UInt8] = []
        var settled = false
        var done = false
        while !done, b < blockCount(.history) {
            let bytes = try blockBytes(.history, b)
            /// The block to go on from, when the rest of this one holds only versions to pass over.
            var jump: Int?
            let outcome: Result<Bool, ByteReaderError> = bytes.withUnsafeBytes { buffer in
                var r = ByteReader(buffer)
                do throws(ByteReaderError) {
                    while !r.isAtEnd {
                        let key = try r.readView(Int(try r.readVarint()))
                        let at = try r.readVarint()
                        let flags: UInt8 = try r.read()
                        let value = flags & RunFormat.absentFlag == 0 ? try r.readView(Int(try r.readVarint())) : nil
                        guard let first = key.first else { continue }
                        if tableOnly {
                            if first < table { continue }
                            guard first == table else { return .success(true) }
                        } else if !key.starts(with: prefix) {
                            // Only the rows around the group's are out of it: where they sort decides.
                            let k = RowKey(bytes: Array(key))
                            if RunFormat.precedes(k, at, target, .max) { continue }
                            guard k.groupHash == target.groupHash, RowKey.compareBytes(k, target) < 0 else { return .success(true) }
                            continue
                        }
                        if !RunFormat.sameBytes(key, current) {
                            current = Array(key)
                            settled = false
                            // A row with many versions after the position spans blocks: go to the one where its
                            // version at the position is, rather than through the blocks before it.
                            if at > position, let t = blockAfter(b, ofRow: current, at: position) {
                                jump = t
                                return .success(false)
                            }
                        }
                        guard !settled, at <= position else { continue }
                        settled = true
                        let version = RowVersion(
                            key: RowKey(bytes: current), position: at, value: value.map { Array($0) },
                            keep: flags & RunFormat.keptFlag != 0)
                        body(version)
                        // Its older versions may span blocks too: go to the block of its oldest.
                        if let t = blockAfter(b, ofRow: current, at: 0) {
                            jump = t
                            return .success(false)
                        }
                    }
                    return .success(false)
                } catch {
                    return .failure(error)
                }
            }
            switch outcome {
            case .success(let stop): done = stop
            case .failure(let error):
                throw damaged(.history, b, "a block's entries do not decode: \(error)")
            }
            b = jump ?? b + 1
        }
    }

    /// The block after `b` holding a row's version at a position (or the last of its versions before that position's,
    /// in stored order), when the row goes on past block `b`; `nil` when it ends there. Only a row whose versions reach
    /// the next block costs a search of the block index.
    private func blockAfter(_ b: Int, ofRow key: [UInt8], at position: UInt64) -> Int? {
        let blocks = sections[Section.history.rawValue]
        guard b + 1 < blocks.count, blocks.startsWithRow(b + 1, key), let t = startBlock(.history, RowKey(bytes: key), position), t > b else {
            return nil
        }
        return t
    }
}
