import EventLog
import PawtrailIO
import Projections

extension RunReader {
    /// Visits, for every row under a prefix (a table's id, or a group's prefix) that the history section holds, its
    /// newest version there at or before a position, in stored order.
    ///
    /// A past read of a table whose rows change often (a product's units sold, at every order) passes over many
    /// versions for each one it keeps, so the entries are read in place from the block's bytes, and only the kept
    /// ones become ``RowVersion``s: the cost is the bytes decompressed, not an allocation per version passed over.
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
                        }
                        guard !settled, at <= position else { continue }
                        settled = true
                        let version = RowVersion(
                            key: RowKey(bytes: current), position: at, value: value.map { Array($0) },
                            keep: flags & RunFormat.keptFlag != 0)
                        body(version)
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
            b += 1
        }
    }
}
