import EventLogFile
@testable import EventLogTestKit

/// A fresh file store in a fresh temporary directory, filled by `fill` and closed: the directory (removed when
/// released).
func filledStore(
    _ options: FileEventStoreOptions, _ fill: (FileEventStore) async throws -> Void
) async throws -> TemporaryDirectory {
    let dir = TemporaryDirectory()
    let store = try FileEventStore.open(path: dir.path, options: options)
    try await fill(store)
    store.close()
    return dir
}
