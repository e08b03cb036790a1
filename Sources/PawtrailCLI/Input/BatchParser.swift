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
        /// The event ids of `lines` as two words each, sorted (by the thread that read the part): the batch's ids are
        /// all distinct, nearly always, and a merge of sorted parts shows it for less than a dictionary of ids costs.
        var sortedIDs: [IDWords] = []
    }

    typealias IDWords = (UInt64, UInt64)

    /// Parses a batch.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - newEventID: Makes the id of an event line without `eventId`.
    /// - Returns: The append, checked (``AppendPlanner/validated(_:proven:)``): entries in file order, expectations in order
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
            // Each line of the first part is one of its lines, all read when none had a problem; otherwise the
            // second part's numbers are never reported, but are counted as they always were.
            parts[1].firstLine =
                parts[0].problem == nil
                ? 1 + parts[0].lines.count : 1 + bytes[start..<(middle + 1)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        } else {
            parts = [read(bytes, from: start, to: bytes.count, isLast: true, newEventID: newEventID)]
        }
        return try merge(parts, idsDistinct: idsDistinct(parts))
    }

    /// Whether no event id repeats among the parts' lines (each part's ids are sorted).
    private static func idsDistinct(_ parts: [Part]) -> Bool {
        func repeats(_ ids: [IDWords]) -> Bool { zip(ids, ids.dropFirst()).contains { $0 == $1 } }
        guard parts.count == 2 else { return !parts.contains { repeats($0.sortedIDs) } }
        let (a, b) = (parts[0].sortedIDs, parts[1].sortedIDs)
        if repeats(a) || repeats(b) { return false }
        var (i, j) = (0, 0)
        while i < a.count && j < b.count {
            if a[i] == b[j] { return false }
            if a[i] < b[j] { i += 1 } else { j += 1 }
        }
        return true
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
                let line = try BatchLine.read(bytes, start..<end, newEventID: newEventID)
                if case .event(_, _, let event) = line {
                    part.sortedIDs.append(event.id.words)
                }
                part.lines.append(line)
            } catch {
                part.problem = error
                break
            }
            start = next
        }
        part.sortedIDs.sort { $0 < $1 }
        return part
    }

    /// Takes the parts' lines in order and checks what they must agree on.
    ///
    /// The lines are read in place (each holds several references, to retain on a copy), and a stream's notes are
    /// looked up once a line. When the ids are known to be distinct (``idsDistinct(_:)``), no dictionary of them is
    /// built; otherwise it names the first repeated id's lines, as always.
    private static func merge(_ parts: [Part], idsDistinct: Bool) throws(CommandFailure) -> AppendRequest {
        var entries: [AppendRequest.Entry] = []
        entries.reserveCapacity(parts.reduce(0) { $0 + $1.lines.count })
        var notes: [StreamID: StreamNotes] = [:]
        notes.reserveCapacity(entries.capacity)
        var expectationOrder: [StreamID] = []
        var idLines: [UUID: Int] = [:]
        if !idsDistinct { idLines.reserveCapacity(entries.capacity) }
        for part in parts {
            let failure: CommandFailure? = part.lines.withUnsafeBufferPointer { lines in
                for k in lines.indices {
                    let n = part.firstLine + k
                    func fail(_ message: String) -> CommandFailure { .invalidInput("line \(n): \(message)") }
                    switch lines[k] {
                    case .blank:
                        continue
                    case .check(let stream, let expected):
                        var note = notes[stream] ?? StreamNotes()
                        if let w = note.writtenOn {
                            return fail("stream '\(stream)' is check-only here but written on line \(w); a stream is either written or checked")
                        }
                        if let e = note.expected {
                            guard e == expected else {
                                return fail("stream '\(stream)' is checked for version \(expected) here but \(e) on line \(note.expectationLine)")
                            }
                            continue
                        }
                        note.expected = expected
                        note.checkOnly = true
                        note.expectationLine = n
                        notes[stream] = note
                        expectationOrder.append(stream)
                    case .event(let stream, let expected, let event):
                        if !idsDistinct, let other = idLines.updateValue(n, forKey: event.id) {
                            return fail("event id \(event.id.uuidString.lowercased()) is also used on line \(other); each event needs its own id")
                        }
                        // One lookup: the note is changed in place, or added for a stream met for the first time.
                        let index = notes.index(forKey: stream)
                        var note = index.map { notes.values[$0] } ?? StreamNotes()
                        if note.expected != nil, note.checkOnly {
                            return fail("stream '\(stream)' is written here but check-only on line \(note.expectationLine); a stream is either written or checked")
                        }
                        if let expected {
                            if let e = note.expected {
                                guard e == expected else {
                                    return fail(
                                        "stream '\(stream)' has expected version \(expected) here but \(e) on line \(note.expectationLine); a stream may have only one")
                                }
                            } else {
                                note.expected = expected
                                note.expectationLine = n
                                expectationOrder.append(stream)
                            }
                        }
                        if note.writtenOn == nil { note.writtenOn = n }
                        if let index { notes.values[index] = note } else { notes[stream] = note }
                        entries.append(AppendRequest.Entry(stream: stream, event: event))
                    }
                }
                return nil
            }
            if let failure { throw failure }
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
        // Each line was checked as it was read (``BatchLine``), and the notes above proved ids and expectations distinct.
        do { return try AppendPlanner.validated(request, proven: [.entries, .distinct]) } catch { throw .invalidInput(error.description) }
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
