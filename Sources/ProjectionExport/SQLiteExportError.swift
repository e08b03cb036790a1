/// Why an export failed.
public struct SQLiteExportError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
