import EventLog
import Foundation
import PawtrailIO

/// Catching up on the active segment's frames, and telling a torn tail from damage.
extension LogState {
    /// Indexes the active segment's frames beyond what this view has seen.
    func catchUp(_ a: ActiveSegment, durableEnd: UInt64?, writer: Bool) throws {
        guard activeDamage == nil else { return }
        let size = try a.fd.size()
        if writer { a.allocatedEnd = max(a.allocatedEnd, size) }
        defer {
            // The head moves only after a flush: a file shorter than it says has lost acknowledged commits, even
            // when it ends cleanly on a frame boundary (which the scan below takes for the end of the data).
            if activeDamage == nil, let durableEnd, size < durableEnd {
                activeDamage = .corrupted(
                    location: a.path, offset: size, reason: "the file ends at byte \(size), but the head says commits up to byte \(durableEnd) were acknowledged")
            }
        }
        // A reader goes only as far as the head says is durable; without a head it sees nothing new (a writer
        // may be mid-way through its first commit). A writer, holding the lock, examines everything on disk.
        let end = writer ? size : min(size, durableEnd ?? a.endOffset)
        guard a.endOffset < end else { return }
        defer {
            // Frames found past the durable end were written by a writer that died before flushing them, or
            // before moving the head: flush them before the head exposes them to readers.
            if writer, a.endOffset > (durableEnd ?? UInt64(LogFormat.segmentHeaderSize)) {
                try? a.fd.synchronizeData()
            }
        }
        var scanner = FrameScanner(fd: a.fd, from: a.endOffset, to: end)
        while true {
            var payload: [UInt8] = []
            var problem: String?
            let (found, stop) = try scanner.next { body, header in
                guard header.type == .commit else {
                    problem = "a block frame in a segment of single commits"
                    return
                }
                guard header.firstPosition == a.firstPosition + a.eventCount else {
                    problem = "frame holds positions from \(header.firstPosition), expected \(a.firstPosition + a.eventCount)"
                    return
                }
                do {
                    payload = try FrameIO.payload(of: body, header: header, decompressor: self.decompressor, dictionaries: self.dictionaries)
                } catch {
                    problem = "frame payload does not decompress: \(error)"
                }
            }
            if let f = found, problem == nil {
                do {
                    try a.index(frame: f.ref, payload: payload, header: f.header)
                    continue
                } catch {
                    problem = "frame events do not decode: \(error)"
                }
            }
            guard let offset = found?.offset ?? stop?.offset else { return }
            let reason = problem ?? stop?.reason ?? "end"
            // The head moves only after a flush, so nothing before its end was ever a write in progress: a file
            // that ends, or goes bad, before it has lost acknowledged commits.
            let insideAcknowledged = durableEnd.map { offset < $0 } ?? false
            if insideAcknowledged {
                // Acknowledged data is damaged (zeros included): never cut it off, never skip it.
                activeDamage = .corrupted(location: a.path, offset: offset, reason: reason)
                return
            }
            let later = try validFrame(in: a, after: offset, fileSize: size, from: a.firstPosition + a.eventCount)
            if let later, later.groupIndex == 0 {
                // A later group commit starts after the bad bytes, so the group they belong to was flushed
                // before it was written: this is damage, not a torn write.
                activeDamage = .corrupted(location: a.path, offset: offset, reason: reason)
                return
            }
            if case .zeroFill = stop, later == nil {
                // Preallocated space: the data ends here, cleanly.
                a.allocatedEnd = max(a.allocatedEnd, size)
                return
            }
            // A torn last group: nothing after the bad bytes, or only frames of the same group (after a power
            // loss, its later pages may have reached the disk before its first).
            if writer {
                try a.fd.truncate(to: offset)
                try a.fd.synchronizeData()
                a.allocatedEnd = offset
                recoveries.append(RecoveryReport(segment: a.name, truncatedAt: offset, bytesRemoved: size - offset, reason: reason))
            }
            return
        }
    }

    /// The index of the first byte that is not zero, eight at a time.
    static func firstNonzero(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { raw in
            let n = raw.count
            var z = 0
            while z + 8 <= n, raw.loadUnaligned(fromByteOffset: z, as: UInt64.self) == 0 { z += 8 }
            while z < n, raw[z] == 0 { z += 1 }
            return z < n ? z : nil
        }
    }

    /// The header of the first whole, checksummed commit frame at or past `position` that starts after
    /// `offset`, if any: what tells damage in the middle of the log from a torn last write (the `head` file,
    /// not being flushed, may be missing or behind after a power loss).
    func validFrame(in a: ActiveSegment, after offset: UInt64, fileSize: UInt64, from position: UInt64) throws -> FrameHeader? {
        guard fileSize > offset + 1 else { return nil }
        // The preallocated space is zeros, and every open that recovers reads it: find its first nonzero byte a
        // chunk at a time, so that an open reads the zeros through one small buffer rather than a new one the size
        // of the rest of the file. A frame's length (its first four bytes) is not zero, so none starts more than
        // three bytes before that byte.
        var start = offset + 1
        var nonzero: UInt64?
        while start < fileSize, nonzero == nil {
            let chunk = try a.fd.read(at: start, count: Int(min(64 << 10, fileSize - start)))
            guard !chunk.isEmpty else { break }
            nonzero = Self.firstNonzero(chunk).map { start + UInt64($0) }
            start += UInt64(chunk.count)
        }
        guard let nonzero else { return nil }
        let from = max(offset + 1, nonzero >= 3 ? nonzero - 3 : 0)
        let rest = try a.fd.read(at: from, count: Int(fileSize - from))
        return rest.withUnsafeBytes { raw in
            let n = raw.count
            var i = 0
            while i + LogFormat.frameOverhead + LogFormat.frameHeaderSize <= n {
                defer { i += 1 }
                // Cheap header checks first, so random bytes rarely reach the checksum.
                guard raw[i + 4] == FrameType.commit.rawValue, raw[i + 5] <= 2 else { continue }
                let length = Int(raw.loadUnaligned(fromByteOffset: i, as: UInt32.self).littleEndian)
                guard length >= LogFormat.frameHeaderSize, length <= n - i - LogFormat.frameOverhead else { continue }
                let first = raw.loadUnaligned(fromByteOffset: i + 12, as: UInt64.self).littleEndian
                guard first >= position, first - position < (1 << 32) else { continue }
                let body = UnsafeRawBufferPointer(rebasing: raw[(i + 4)..<(i + 4 + length)])
                let crc = raw.loadUnaligned(fromByteOffset: i + 4 + length, as: UInt32.self).littleEndian
                if let h = FrameIO.openBody(body, storedCRC: crc) { return h }
            }
            return nil
        }
    }
}
