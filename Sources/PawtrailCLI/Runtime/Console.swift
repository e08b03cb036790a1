/// Where commands print: the process's standard streams in the tool, a buffer in tests.
public protocol Console: Sendable {
    /// Writes text (the caller adds newlines).
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - stream: Standard output or standard error.
    func write(_ text: String, to stream: ConsoleStream)

    /// Pushes buffered output out (after each event when following the log).
    func flush()
}
