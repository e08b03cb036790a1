import PawtrailIO

/// The first-use check of one of an index run's files (its `.ridx` or `.eidx`): an open reads only the file's header
/// (``IndexRun/load(directory:segments:)``), and the body is checked the first time a lookup needs it.
///
/// A file that fails the check either could not be mapped at all (gone, or no descriptor or memory to spare, which
/// another try may not meet: sound as far as anyone knows, so kept) or was read and found damaged. Only a damaged
/// file is removed, and only while it is still that file: its mapping is held until then, so that its inode cannot
/// be freed and given to a file written there since (a sound one, which would then pass for it).
struct RunFileCheck<Index> {
    /// The file's path.
    let path: String
    /// The index, once the check passed.
    private(set) var index: Index?
    /// Whether the check was made and failed: lookups then ask the run's segments.
    private(set) var failed = false
    /// Whether the file was read and found damaged, as opposed to not mapped at all.
    private(set) var damaged = false
    /// The file found damaged, held until ``removeIfDamaged()``.
    private var damagedFile: MappedFile?

    init(path: String) {
        self.path = path
    }

    /// Checks the file, unless done.
    ///
    /// - Parameter load: Checks the mapped file whole; `nil` when it is damaged.
    /// - Returns: The index, or `nil` when the check failed (now or before).
    mutating func check(_ load: (MappedFile) -> Index?) -> Index? {
        if let index { return index }
        guard !failed else { return nil }
        if let m = try? MappedFile(path: path) {
            index = load(m)
            if index == nil {
                damaged = true
                damagedFile = m
            }
        }
        failed = index == nil
        return index
    }

    /// Marks a file that passed its check at open as found damaged by a lookup since (a page failed its checksum).
    ///
    /// - Parameter mapping: The index's mapping, held until ``removeIfDamaged()``.
    mutating func markDamaged(mapping: MappedFile) {
        guard index != nil else { return }
        damagedFile = mapping
        index = nil
        failed = true
        damaged = true
    }

    /// Removes the file found damaged, unless another process has replaced it since (the writer's upkeep builds a
    /// run it passed over again), so that later opens pass the run over until then. Does nothing after the first call,
    /// or when the file was not found damaged.
    mutating func removeIfDamaged() {
        defer { damagedFile = nil }
        if let damaged = damagedFile?.fileID, FileSystem.fileID(path) == damaged { try? FileSystem.removeFile(path) }
    }
}
