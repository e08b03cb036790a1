import Events
import PawtrailJSON

/// Event data given on the command line or in a file: checked to be one JSON value and kept as the exact
/// bytes given, trimmed of surrounding whitespace.
enum EventData {
    /// Validates data and trims it.
    ///
    /// - Parameters:
    ///   - bytes: What the user gave.
    ///   - source: How to name it in errors (`--data`, `--data-file payload.json`).
    /// - Returns: The JSON value's bytes, without the surrounding whitespace.
    /// - Throws: ``CommandFailure`` (bad input, exit 65) naming the problem and its column.
    static func validated(_ bytes: [UInt8], source: String) throws(CommandFailure) -> [UInt8] {
        do {
            let range = try JSONScanner.validate(bytes).range
            return Array(bytes[range])
        } catch {
            throw .invalidInput("\(source) is not valid JSON: \(error)")
        }
    }

    /// The data to store for an event of a type: for a type of the domain's catalog, its JSON fields read as that
    /// event and stored in the domain's binary encoding (what its commands append, and what the read models fold);
    /// for any other type, the JSON as given.
    ///
    /// - Parameters:
    ///   - json: The validated JSON.
    ///   - type: The event's type.
    ///   - source: How to name the data in errors.
    /// - Returns: The bytes to store.
    /// - Throws: ``CommandFailure`` (bad input, exit 65) naming the field that does not fit the event.
    static func stored(_ json: [UInt8], type: String, source: String) throws(CommandFailure) -> [UInt8] {
        guard EventCatalog.domain.eventType(named: type) != nil else { return json }
        do {
            let value = try JSONValue.parse(json)
            return try EventCatalog.domain.encode(type: type, json: value) ?? json
        } catch let error as FieldError {
            throw .invalidInput("\(source) does not fit the fields of the domain event \(type): \(error) (see 'pawtrail events list')")
        } catch {
            throw .invalidInput("\(source) does not fit the fields of the domain event \(type): \(error)")
        }
    }
}
