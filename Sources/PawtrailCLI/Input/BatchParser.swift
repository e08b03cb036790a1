import Dispatch
import EventLog
import Foundation
import PawtrailJSON

/// Parses a `log append --batch` file: JSON Lines, one event per line
/// (`{"stream":..,"type":..,"data":..,"eventId":..,"metadata":{..},"expectedVersion":..}`) or one check-only
/// condition (`{"stream":..,"expectedVersion":..,"check":true}`); blank lines, CRLF line ends and a UTF-8 byte
/// order mark at the start of the file are ignored. The whole file is one atomic ``AppendRequest``.
///
/// A large file is read in two parts at once, each line on its own (``BatchLine``); then its lines are taken in
/// order to check what they must agree on. The first line with a problem is reported, as a reading line by line
/// would; of two problems on one line, one the line has by itself comes first.
enum BatchParser {
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// Files at least this large are read in two parts, on two cores.
    static let parallelThreshold = 256 << 10

    /// What the parser tracks per stream: its expectation, to name both lines when two disagree, and the first
    /// line that writes it. One entry a stream, so a line costs one lookup of its stream.
    private struct StreamNotes {
        var expected: ExpectedVersion?
        var checkOnly = false
        var expectationLine = 0
        var writtenOn: Int?
    }

    /// One part's lines, read until the first that has a problem.
    private struct Part {
        /// The number of the part's first line in the file.
        var firstLine = 1
        var lines: [BatchLine] = []
        /// The problem of the line after `lines`, if one has.
        var problem: BatchLine.Problem?
    }

    /// Parses a batch.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - newEventID: Makes the id of an event line without `eventId`.
    /// - Returns: The append, checked (``AppendPlanner/validated(_:)``): entries in file order, expectations in order
    ///   of first mention.
    /// - Throws: ``CommandFailure`` (bad input) whose message starts with `line N: `.
    static func parse(_ bytes: [UInt8], newEventID: @escaping @Sendable () -> UUID = { .random() }) throws(CommandFailure) -> AppendRequest {
        // A UTF-8 byte order mark, which some editors write, may start the file (RFC 8259 lets a parser ignore it).
        let start = bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
        var parts = [Part]()
        if bytes.count - start >= parallelThreshold, let middle = lineEnd(bytes, from: start + (bytes.count - start) / 2), middle + 1 < bytes.count {
            // Two parts, split after a line feed: the first part's lines end there, the second's run to the end.
            let ranges = [(start, middle + 1, false), (middle + 1, bytes.count, true)]
            let slots = PartSlots(count: 2)
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                // Each part reads its own copy: the lines' slices of one shared array would have the two cores
                // count references to the same buffer, contending for one cache line at every slice.
                let own = Array(bytes[ranges[i].0..<ranges[i].1])
                slots.store(read(own, from: 0, to: own.count, isLast: ranges[i].2, newEventID: newEventID), at: i)
            }
            parts = slots.take()
            parts[1].firstLine = 1 + bytes[start..<(middle + 1)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        } else {
            parts = [read(bytes, from: start, to: bytes.count, isLast: true, newEventID: newEventID)]
        }
        return try merge(parts)
    }

    /// Reads the lines of a part of the file, until one has a problem.
    private static func read(_ bytes: [UInt8], from: Int, to: Int, isLast: Bool, newEventID: () -> UUID) -> Part {
        var part = Part()
        var start = from
        // The last part's last line runs to the end of the file; another part ends with its line feed.
        while isLast ? start <= to : start < to {
            var end = min(lineEnd(bytes, from: start) ?? to, to)
            let next = end + 1
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            do {
                part.lines.append(try BatchLine.read(bytes, start..<end, newEventID: newEventID))
            } catch {
                part.problem = error
                break
            }
            start = next
        }
        return part
    }

    /// Takes the parts' lines in order and checks what they must agree on.
    private static func merge(_ parts: [Part]) throws(CommandFailure) -> AppendRequest {
        var entries: [AppendRequest.Entry] = []
        entries.reserveCapacity(parts.reduce(0) { $0 + $1.lines.count })
        var notes: [StreamID: StreamNotes] = [:]
        notes.reserveCapacity(entries.capacity)
        var expectationOrder: [StreamID] = []
        var idLines: [UUID: Int] = [:]
        idLines.reserveCapacity(entries.capacity)
        for part in parts {
            for (k, line) in part.lines.enumerated() {
                let n = part.firstLine + k
                func fail(_ message: String) -> CommandFailure { .invalidInput("line \(n): \(message)") }
                switch line {
                case .blank:
                    continue
                case .check(let stream, let expected):
                    var note = notes[stream] ?? StreamNotes()
                    if let w = note.writtenOn {
                        throw fail("stream '\(stream)' is check-only here but written on line \(w); a stream is either written or checked")
                    }
                    if let e = note.expected {
                        guard e == expected else {
                            throw fail("stream '\(stream)' is checked for version \(expected) here but \(e) on line \(note.expectationLine)")
                        }
                        continue
                    }
                    note.expected = expected
                    note.checkOnly = true
                    note.expectationLine = n
                    notes[stream] = note
                    expectationOrder.append(stream)
                case .event(let stream, let expected, let event):
                    if let other = idLines.updateValue(n, forKey: event.id) {
                        throw fail("event id \(event.id.uuidString.lowercased()) is also used on line \(other); each event needs its own id")
                    }
                    var note = notes[stream] ?? StreamNotes()
                    if note.expected != nil, note.checkOnly {
                        throw fail("stream '\(stream)' is written here but check-only on line \(note.expectationLine); a stream is either written or checked")
                    }
                    if let expected {
                        if let e = note.expected {
                            guard e == expected else {
                                throw fail(
                                    "stream '\(stream)' has expected version \(expected) here but \(e) on line \(note.expectationLine); a stream may have only one")
                            }
                        } else {
                            note.expected = expected
                            note.expectationLine = n
                            expectationOrder.append(stream)
                        }
                    }
                    if note.writtenOn == nil { note.writtenOn = n }
                    notes[stream] = note
                    entries.append(AppendRequest.Entry(stream: stream, event: event))
                }
            }
            if let problem = part.problem {
                throw .invalidInput("line \(part.firstLine + part.lines.count): \(problem.message)")
            }
        }

        guard !entries.isEmpty || !expectationOrder.isEmpty else {
            throw .invalidInput("the batch holds no events and no checks")
        }
        let request = AppendRequest(
            entries: entries,
            expectations: expectationOrder.compactMap { s in
                notes[s].flatMap { note in note.expected.map { AppendRequest.Expectation(stream: s, expected: $0, checkOnly: note.checkOnly) } }
            })
        do { return try AppendPlanner.validated(request) } catch { throw .invalidInput(error.description) }
    }

    /// The index of the next line feed at or after `start`, or `nil` when there is none.
    private static func lineEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { b in
            guard start < b.count, let base = b.baseAddress, let found = memchr(base + start, 0x0A, b.count - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Where the parts read at once put what they read: each into its own slot, read only after all have finished.
    private final class PartSlots: @unchecked Sendable {
        private let slots: UnsafeMutablePointer<Part>
        private let count: Int

        init(count: Int) {
            self.count = count
            slots = .allocate(capacity: count)
            slots.initialize(repeating: Part(), count: count)
        }

        deinit {
            slots.deinitialize(count: count)
            slots.deallocate()
        }

        func store(_ part: Part, at i: Int) { slots[i] = part }

        func take() -> [Part] { Array(UnsafeBufferPointer(start: slots, count: count)) }
    }
}
