import PawtrailIO

extension LogState {
    /// Whether sealed segments lack index files that the upkeep should try to save again: some do, and no attempt
    /// failed since the last roll (a failure that lasts, such as a read-only directory, is retried once a roll).
    var indexFilesSaveDue: Bool {
        !unsavedIndexFiles.isEmpty && indexFilesSaveFailedAt != sealed.count
    }

    /// Writes the index files of the sealed segments that serve their indexes from memory because saving them
    /// failed when they were sealed or loaded (descriptors exhausted, a full disk), so that the next open, `log
    /// verify` and other processes find them. Best effort, like every write of derived data.
    ///
    /// - Returns: Whether every such segment now has its files.
    @discardableResult
    func saveUnsavedIndexFiles() -> Bool {
        for segment in sealed where unsavedIndexFiles.contains(segment.firstPosition) {
            // A segment whose indexes were rebuilt holds both (see `rebuildIndexes`).
            func save(_ index: MappedFile?, _ suffix: String) -> Bool {
                index.map { (try? FileSystem.writeAtomically([UInt8]($0.bytes), to: segment.indexFilePath(suffix), sync: false)) != nil } ?? true
            }
            guard save(segment.checkedStreams?.mapped, ".sidx"), save(segment.ids?.mapped, ".eidx")
            else {
                indexFilesSaveFailedAt = sealed.count
                return false
            }
            unsavedIndexFiles.remove(segment.firstPosition)
        }
        return true
    }
}
