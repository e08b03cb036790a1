import EventLog
import EventLogFile
import EventLogMemory
@testable import EventLogTestKit
import Foundation
import Testing

/// The backends every conformance case runs against.
///
/// - `memory`: ``InMemoryEventStore``, the reference.
/// - `file`: ``FileEventStore`` with the default (large) segment size: everything stays in the active segment.
/// - `fileSmallSegments`: ``FileEventStore`` with 4 KiB segments, so that most cases roll over to new segments
///   (and a single commit is often larger than a whole segment), and an index run every 2 sealed segments; each
///   ``Harness/checkpoint()`` waits for the upkeep, so reads and later appends go through the runs.
/// - `fileReopened`: ``FileEventStore`` reopened (a fresh `FileEventStore.open` on the same directory) at every
///   ``Harness/checkpoint()``, i.e. between the appends of a case and its reads: proves what was read came from disk.
///   It checkpoints the active segment's index after every commit group, so each reopen starts from the checkpoint
///   (see ``ActiveCheckpoint``) and the appends after it index from the frames: both halves of the active index.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case file
    case fileSmallSegments
    case fileReopened

    /// Only the file-backed variants.
    static let fileBacked: [Backend] = [.file, .fileSmallSegments, .fileReopened]

    var isFile: Bool { self != .memory }

    var testDescription: String { rawValue }

    var segmentSize: Int {
        switch self {
        case .fileSmallSegments: return 4096
        default: return 64 << 20
        }
    }
}

/// A fresh store of one backend in a fresh temporary directory, removed when the harness goes away.
final class Harness: StoreHarness, @unchecked Sendable {
    let backend: Backend
    /// The temporary directory (also the store directory of the file backends).
    let directory: String
    private var current: (any EventStore)?

    /// The store under test.
    var store: any EventStore { current! }

    init(_ backend: Backend) throws {
        self.backend = backend
        self.directory = try makeTemporaryDirectory()
        switch backend {
        case .memory: current = InMemoryEventStore()
        default: current = try FileEventStore.open(path: directory, options: Self.options(backend))
        }
    }

    deinit {
        current = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    static func options(_ backend: Backend) -> FileEventStoreOptions {
        FileEventStoreOptions(
            createIfMissing: true, segmentSize: backend.segmentSize, indexRunSegments: backend == .fileSmallSegments ? 2 : 16,
            checkpointInterval: backend == .fileReopened ? 1 : 16_384)
    }

    /// Closes the file store (drops the only reference) and opens it again on the same directory. The memory
    /// backend keeps its store (it has nothing to reopen).
    func reopen() throws {
        guard backend.isFile else { return }
        // Lets the upkeep write its checkpoint first.
        (current as? FileEventStore)?.close()
        current = nil
        current = try FileEventStore.open(path: directory, options: Self.options(backend))
    }

    /// For `fileSmallSegments`: asserts the store has rolled over to more than one segment (the premise of cases
    /// that mean to read across segments), and that index runs cover its sealed segments once the upkeep is done.
    /// Does nothing for the other backends.
    func expectRolledOver(sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard backend == .fileSmallSegments, let file = current as? FileEventStore else { return }
        let segments = try file.segmentNames()
        #expect(segments.count > 1, "4 KiB segments should have rolled over", sourceLocation: sourceLocation)
        // Once the upkeep is done, runs of two cover every pair of sealed segments (the active one is never sealed).
        file.close()
        let stats = try file.stats()
        let sealed = stats.segments - 1
        #expect(stats.indexedSegments == sealed / 2 * 2, "index runs cover \(stats.indexedSegments) of \(sealed) sealed segments", sourceLocation: sourceLocation)
    }

    /// Called by cases between appends and reads: reopens the `fileReopened` backend, waits for the upkeep (and so
    /// the index runs) of `fileSmallSegments`, does nothing for the others.
    func checkpoint() throws {
        if backend == .fileReopened { try reopen() }
        if backend == .fileSmallSegments, let file = current as? FileEventStore { file.close() }
    }
}

/// Creates a fresh, empty temporary directory.
func makeTemporaryDirectory() throws -> String {
    let base = FileManager.default.temporaryDirectory.path
    var template = Array("\(base)/pawtrail-test-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard made != nil else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
