import EventLog
import EventLogFile
import EventLogSealing
import ProjectionStateFile
import Foundation
import ProjectionRuntime
import Synchronization

/// Opens a ``FileEventStore`` with the CLI's options, and remembers what it opened so the process can let
/// each store finish its background work (compaction of a segment the command sealed, dictionary training)
/// before it exits: otherwise every short-lived CLI process would cut that work off.
public final class FileStoreOpener: StoreOpener, OfflineLogMaintenance {
    private let opened = Mutex<[FileEventStore]>([])

    /// Creates the opener.
    public init() {}

    public func open(location path: String, access: StoreAccess) throws -> OpenedStore {
        var options = FileEventStoreOptions()
        // Small segments, runs and checkpoint intervals make rolls, compaction, index runs and checkpoints happen
        // within a few hundred events, so that fault injection (`tools/crash-loop.sh --segment-events N`) reaches
        // them; never needed otherwise.
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["PAWTRAIL_SEGMENT_EVENTS"] {
            guard let n = UInt64(decimal: text), (2...UInt64(options.maxSegmentEvents)).contains(n) else {
                throw EventStoreError.invalidRequest("PAWTRAIL_SEGMENT_EVENTS must be a number from 2 to \(options.maxSegmentEvents), not '\(text)'")
            }
            options.maxSegmentEvents = Int(n)
        }
        if let text = environment["PAWTRAIL_INDEX_RUN_SEGMENTS"] {
            guard let n = UInt64(decimal: text), n <= 1 << 16 else {
                throw EventStoreError.invalidRequest("PAWTRAIL_INDEX_RUN_SEGMENTS must be a number from 0 to 65536, not '\(text)'")
            }
            options.indexRunSegments = Int(n)
        }
        if let text = environment["PAWTRAIL_CHECKPOINT_EVENTS"] {
            guard let n = UInt64(decimal: text), n <= UInt64(options.maxSegmentEvents) else {
                throw EventStoreError.invalidRequest("PAWTRAIL_CHECKPOINT_EVENTS must be a number from 0 to \(options.maxSegmentEvents), not '\(text)'")
            }
            options.checkpointInterval = Int(n)
        }
        if access == .readWhenNeeded { options.loadsOnFirstUse = true }
        if case .write(let sync) = access {
            options.createIfMissing = true
            options.durability = sync ? .sync : .noSync
        }
        let store = try FileEventStore.open(path: path, options: options)
        opened.withLock { $0.append(store) }
        return OpenedStore(
            events: SealingEventStore(base: store, keys: FilePersonalDataKeys(storePath: path)), maintenance: store, recovery: store.recovery?.description,
            states: FileProjectionStateStore(storePath: path), snapshots: SQLiteSnapshotStore(storePath: path))
    }

    public func verifyWithoutOpening(location: String) throws -> VerifyReport {
        try FileEventStore.verifyWithoutOpening(path: location)
    }

    public func inspectWithoutOpening(location: String, segment: String) throws -> SegmentInspection {
        try FileEventStore.inspectWithoutOpening(path: location, segment: segment)
    }

    /// Waits for the background work of every store opened, then forgets them.
    public func finish() {
        for store in opened.withLock({ stores in defer { stores = [] }; return stores }) { store.close() }
    }
}
