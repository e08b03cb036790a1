import Foundation

/// Growable byte buffers for ``ColumnarEncoder``: its columns, and a scratch buffer (the shape being built), owned
/// here and freed in `deinit`. An array of `ByteWriter`s checked the uniqueness of two arrays and retained them for
/// every value written, a fifth of the split's time; these are plain pointers, grown geometrically.
final class ColumnBuffers {
    private struct Buffer {
        var base: UnsafeMutablePointer<UInt8>?
        var count = 0
        var capacity = 0
    }

    private var buffers: UnsafeMutablePointer<Buffer>
    private var capacity: Int
    /// The number of columns.
    private(set) var count = 0
    /// The index of the scratch buffer (not a column).
    private let scratch = 0

    /// Creates `columns` empty columns, and the scratch buffer.
    init(columns: Int) {
        capacity = max(16, columns + 1)
        buffers = .allocate(capacity: capacity)
        buffers.initialize(repeating: Buffer(), count: capacity)
        count = columns
    }

    deinit {
        for i in 0..<capacity { buffers[i].base?.deallocate() }
        buffers.deallocate()
    }

    /// Adds an empty column.
    func addColumn() {
        if count + 1 >= capacity {
            let bigger = UnsafeMutablePointer<Buffer>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: buffers, count: capacity)
            (bigger + capacity).initialize(repeating: Buffer(), count: capacity)
            buffers.deallocate()
            buffers = bigger
            capacity *= 2
        }
        count += 1
    }

    /// Makes room for `n` more bytes in buffer `i` (scratch is 0, column `c` is `c + 1`).
    @inline(__always)
    private func reserve(_ i: Int, _ n: Int) -> UnsafeMutablePointer<UInt8> {
        let b = buffers + i
        if b.pointee.count + n > b.pointee.capacity {
            let grown = max(b.pointee.capacity * 2, b.pointee.count + n, 64)
            let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            if let old = b.pointee.base {
                fresh.update(from: old, count: b.pointee.count)
                old.deallocate()
            }
            b.pointee.base = fresh
            b.pointee.capacity = grown
        }
        return b.pointee.base! + b.pointee.count
    }

    @inline(__always)
    private func write(_ i: Int, _ bytes: UnsafeRawBufferPointer) {
        guard let src = bytes.baseAddress, !bytes.isEmpty else { return }
        let dst = reserve(i, bytes.count)
        UnsafeMutableRawPointer(dst).copyMemory(from: src, byteCount: bytes.count)
        buffers[i].count += bytes.count
    }

    @inline(__always)
    private func write(_ i: Int, byte: UInt8) {
        reserve(i, 1).pointee = byte
        buffers[i].count += 1
    }

    @inline(__always)
    private func writeVarint(_ i: Int, _ value: UInt64) {
        let dst = reserve(i, 10)
        var v = value
        var n = 0
        while v >= 0x80 {
            dst[n] = UInt8(truncatingIfNeeded: v) | 0x80
            v >>= 7
            n += 1
        }
        dst[n] = UInt8(v)
        buffers[i].count += n + 1
    }

    // Columns.

    /// Appends bytes to column `c`.
    @inline(__always)
    func write(column c: Int, _ bytes: UnsafeRawBufferPointer) { write(c + 1, bytes) }

    /// Appends an unsigned varint to column `c`.
    @inline(__always)
    func writeVarint(column c: Int, _ value: UInt64) { writeVarint(c + 1, value) }

    /// Appends a zigzag varint to column `c`.
    @inline(__always)
    func writeSignedVarint(column c: Int, _ value: Int64) { writeVarint(c + 1, UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    /// Appends a 64-bit integer, big-endian, to column `c`.
    @inline(__always)
    func writeBigEndian(column c: Int, _ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { write(c + 1, $0) }
    }

    /// Column `c`'s bytes, valid until it is next written.
    func bytes(column c: Int) -> UnsafeRawBufferPointer {
        let b = buffers[c + 1]
        return UnsafeRawBufferPointer(start: b.base, count: b.count)
    }

    // The scratch buffer.

    /// Empties the scratch buffer, keeping its memory.
    func clearScratch() { buffers[scratch].count = 0 }

    /// Appends bytes to the scratch buffer.
    @inline(__always)
    func writeScratch(_ bytes: UnsafeRawBufferPointer) { write(scratch, bytes) }

    /// Appends a byte to the scratch buffer.
    @inline(__always)
    func writeScratch(byte: UInt8) { write(scratch, byte: byte) }

    /// Appends an unsigned varint to the scratch buffer.
    @inline(__always)
    func writeScratchVarint(_ value: UInt64) { writeVarint(scratch, value) }

    /// The scratch buffer's bytes, valid until it is next written.
    var scratchBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: buffers[scratch].base, count: buffers[scratch].count)
    }
}
