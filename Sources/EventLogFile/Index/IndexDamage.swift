/// An index file found damaged by a lookup: a page that fails its checksum (see ``CheckedPages``), or bytes that do
/// not decode where its checked pages said they would. The store rebuilds the index from its segment's data and
/// asks again; the error reaches no caller of the store.
struct IndexDamage: Error, CustomStringConvertible {
    /// The index file.
    var file: String
    /// What was wrong.
    var reason: String

    var description: String { "\(file): \(reason)" }
}
