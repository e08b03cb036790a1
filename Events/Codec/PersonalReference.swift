/// A personal value named instead of copied: the event that holds it (its log position) and which of the event's
/// personal values it is (the order its decoder reads them in), written into a string as a token that read models
/// keep in place of the value. A view or an export opens the tokens it shows from the log, so a read model that
/// keeps tokens holds no personal data: erasing an account (destroying its key) erases every copy at once, and a
/// rebuild gives the same rows whether or not the key still exists.
///
/// A token is `U+FDD0` position `.` ordinal [`.` length] `U+FDD1`: noncharacters, which the decoder that makes
/// tokens takes out of every other string of an event (``BinaryFieldReader/PersonalValues/references(position:inline:)``),
/// so no text a user wrote can name another person's value. A length shows the value as a one-line preview of at
/// most that many characters (``preview(_:_:)``).
public struct PersonalReference: Hashable, Sendable {
    /// The position of the event that holds the value.
    public var position: UInt64
    /// Which of the event's personal values, from 0, in the order its decoder reads them.
    public var ordinal: Int
    /// The most characters of a one-line preview, or `nil` for the whole value.
    public var preview: Int?

    /// The first scalar of a token.
    public static let start = Unicode.Scalar(UInt16(0xFDD0))!
    /// The last scalar of a token.
    public static let end = Unicode.Scalar(UInt16(0xFDD1))!
    /// What a token's scalars become in a string that is not a token.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// Creates a reference.
    public init(position: UInt64, ordinal: Int, preview: Int? = nil) {
        self.position = position
        self.ordinal = ordinal
        self.preview = preview
    }

    /// The token.
    public var token: String {
        "\(Self.start)\(position).\(ordinal)" + (preview.map { ".\($0)" } ?? "") + "\(Self.end)"
    }

    /// Whether a string holds a token's first scalar (a quick test before ``pieces(of:)``).
    public static func mayHoldTokens(_ text: String) -> Bool {
        text.utf8.contains(0xEF) && text.unicodeScalars.contains(start)
    }

    /// Text and references in order: a string split at its tokens.
    public enum Piece: Hashable, Sendable {
        case text(Substring)
        case reference(PersonalReference)
    }

    /// A string split at its well-formed tokens; anything else is text.
    ///
    /// - Parameter text: The string.
    /// - Returns: Its pieces, in order.
    public static func pieces(of text: String) -> [Piece] {
        var out: [Piece] = []
        var rest = text[...]
        while let open = rest.unicodeScalars.firstIndex(of: start) {
            let after = rest.unicodeScalars.index(after: open)
            guard let close = rest.unicodeScalars[after...].firstIndex(of: end),
                let reference = parse(rest.unicodeScalars[after..<close])
            else {
                out.append(.text(rest[..<after]))
                rest = rest[after...]
                continue
            }
            if open > rest.startIndex { out.append(.text(rest[..<open])) }
            out.append(.reference(reference))
            rest = rest[rest.unicodeScalars.index(after: close)...]
        }
        if !rest.isEmpty { out.append(.text(rest)) }
        return out
    }

    private static func parse(_ body: Substring.UnicodeScalarView) -> PersonalReference? {
        let parts = String(body).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
            let position = UInt64(parts[0]), let ordinal = Int(parts[1])
        else { return nil }
        let preview = parts.count == 3 ? Int(parts[2]) : nil
        guard parts.count == 2 || (preview ?? 0) > 0 else { return nil }
        return PersonalReference(position: position, ordinal: ordinal, preview: preview)
    }

    /// A value as a one-line preview of at most `length` characters (its whitespace runs as single spaces, cut
    /// with "…" when longer): for a token, the same token asking for that preview, which the view opening it makes.
    ///
    /// - Parameters:
    ///   - value: A personal value as a fold received it: a token or (from a decoder that opens values) text.
    ///   - length: The most characters shown, at least 1.
    /// - Returns: The preview, or a token for it.
    public static func preview(_ value: String, _ length: Int) -> String {
        let pieces = pieces(of: value)
        if pieces.count == 1, case .reference(var reference) = pieces[0] {
            reference.preview = min(reference.preview ?? length, length)
            return reference.token
        }
        return previewed(value, max(1, length))
    }

    /// Text as a one-line preview of at most `length` characters.
    public static func previewed(_ text: String, _ length: Int) -> String {
        let oneLine = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard oneLine.count > length else { return oneLine }
        return String(oneLine.prefix(length - 1)) + "…"
    }

    /// A string with every token's scalars replaced, so that it names no value.
    public static func defused(_ text: String) -> String {
        guard text.utf8.contains(0xEF), text.unicodeScalars.contains(where: { $0 == start || $0 == end }) else { return text }
        var scalars = String.UnicodeScalarView()
        for s in text.unicodeScalars { scalars.append(s == start || s == end ? replacement : s) }
        return String(scalars)
    }
}
