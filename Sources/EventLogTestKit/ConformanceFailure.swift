/// A conformance case that found its implementation wrong: what was expected, and where the case checked it.
public struct ConformanceFailure: Error, CustomStringConvertible {
    /// What was wrong.
    public var message: String
    /// The case's source file.
    public var file: String
    /// The case's source line.
    public var line: Int

    public var description: String { "\(file):\(line): \(message)" }
}

/// Throws a ``ConformanceFailure`` unless `condition` holds.
///
/// - Parameters:
///   - condition: What the implementation must satisfy.
///   - message: What it means when it does not.
/// - Throws: ``ConformanceFailure``.
public func require(
    _ condition: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String, file: String = #fileID, line: Int = #line
) throws {
    guard try condition() else { throw ConformanceFailure(message: message(), file: file, line: line) }
}
