/// The personal data of one event, kept apart from its other fields so that it can be sealed under its subject's
/// key and erased by destroying that key, while the rest of the event stays readable forever.
///
/// An event that carries personal data is stored as: the byte `0x01`, its schema version as a varint, the length
/// of its body as a varint, the body (the fields, where each personal field is an index into the section), then
/// the section:
///
/// | tag | after the subject |
/// |---|---|
/// | 0 plain | a varint count, then each value as a varint length and UTF-8 |
/// | 1 sealed | a 24-byte nonce, then the plain values' bytes encrypted and authenticated |
/// | 2 erased | nothing: every value reads as ``erasedText`` |
/// | 3 erases the subject | nothing: appending it destroys the subject's key |
///
/// The store protocol carries these bytes as they are; a sealing store seals plain sections on the way in and
/// opens sealed ones on the way out. This type only reads and writes the layout.
public struct PersonalSection: Hashable, Sendable {
    /// The first byte of an event with a personal section.
    public static let marker: UInt8 = 1
    /// What an erased personal field reads as.
    public static let erasedText = "[erased]"

    /// The section's state.
    public enum Content: Hashable, Sendable {
        /// The values in the clear (in memory, or in a store that does not seal).
        case plain([String])
        /// The values encrypted: a nonce and the ciphertext.
        case sealed(nonce: [UInt8], ciphertext: [UInt8])
        /// The subject's key is gone: the values cannot be read.
        case erased
        /// Not data: the event erases its subject's personal data.
        case erasesSubject
    }

    /// Whose key seals the values: an account's id.
    public var subject: String
    /// The values, sealed or not.
    public var content: Content

    /// Creates a section.
    public init(subject: String, content: Content) {
        self.subject = subject
        self.content = content
    }

    /// Where an event's parts lie in its data.
    public struct Layout: Sendable {
        /// The schema version.
        public var schemaVersion: UInt64
        /// The body's bytes.
        public var body: Range<Int>
        /// The section's first byte.
        public var sectionStart: Int
    }

    /// Finds the parts of data in this layout.
    ///
    /// - Parameter data: An event's data.
    /// - Returns: The layout, or `nil` when data does not start with ``marker`` or its lengths do not fit.
    public static func layout(of data: [UInt8]) -> Layout? {
        guard data.first == marker else { return nil }
        var offset = 1
        guard let version = varint(data, &offset), let bodyCount = varint(data, &offset),
            bodyCount <= UInt64(data.count - offset)
        else { return nil }
        let body = offset..<(offset + Int(bodyCount))
        return Layout(schemaVersion: version, body: body, sectionStart: body.upperBound)
    }

    /// Reads the section of data.
    ///
    /// - Parameter data: An event's data.
    /// - Returns: The layout and the section, or `nil` when data is not in this layout or its section is malformed.
    public static func parse(_ data: [UInt8]) -> (Layout, PersonalSection)? {
        guard let layout = layout(of: data) else { return nil }
        var offset = layout.sectionStart
        guard offset < data.count else { return nil }
        let tag = data[offset]
        offset += 1
        guard let subject = string(data, &offset) else { return nil }
        let content: Content
        switch tag {
        case 0:
            guard let values = values(data, &offset), offset == data.count else { return nil }
            content = .plain(values)
        case 1:
            guard data.count - offset >= 24 else { return nil }
            content = .sealed(nonce: Array(data[offset..<offset + 24]), ciphertext: Array(data[(offset + 24)...]))
        case 2:
            guard offset == data.count else { return nil }
            content = .erased
        case 3:
            guard offset == data.count else { return nil }
            content = .erasesSubject
        default:
            return nil
        }
        return (layout, PersonalSection(subject: subject, content: content))
    }

    /// The data of an event: the header, the body and this section.
    ///
    /// - Parameters:
    ///   - schemaVersion: The event's schema version.
    ///   - body: The body's bytes.
    /// - Returns: The data.
    public func data(schemaVersion: UInt64, body: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = [Self.marker]
        out.reserveCapacity(body.count + 64)
        Self.append(varint: schemaVersion, to: &out)
        Self.append(varint: UInt64(body.count), to: &out)
        out.append(contentsOf: body)
        append(to: &out)
        return out
    }

    /// The same data with another section: what a sealing store stores or returns.
    ///
    /// - Parameters:
    ///   - data: An event's data in this layout.
    ///   - layout: Its layout.
    /// - Returns: The data up to the section, then this section.
    public func replacingSection(of data: [UInt8], layout: Layout) -> [UInt8] {
        var out = Array(data[..<layout.sectionStart])
        append(to: &out)
        return out
    }

    /// The plain values' bytes, as sealed: a varint count, then each value.
    public static func encode(values: [String]) -> [UInt8] {
        var out: [UInt8] = []
        append(varint: UInt64(values.count), to: &out)
        for v in values { append(string: v, to: &out) }
        return out
    }

    /// Reads bytes written by ``encode(values:)``.
    public static func decode(values bytes: [UInt8]) -> [String]? {
        var offset = 0
        guard let v = values(bytes, &offset), offset == bytes.count else { return nil }
        return v
    }

    private func append(to out: inout [UInt8]) {
        switch content {
        case .plain(let values):
            out.append(0)
            Self.append(string: subject, to: &out)
            out.append(contentsOf: Self.encode(values: values))
        case .sealed(let nonce, let ciphertext):
            out.append(1)
            Self.append(string: subject, to: &out)
            out.append(contentsOf: nonce)
            out.append(contentsOf: ciphertext)
        case .erased:
            out.append(2)
            Self.append(string: subject, to: &out)
        case .erasesSubject:
            out.append(3)
            Self.append(string: subject, to: &out)
        }
    }

    private static func values(_ data: [UInt8], _ offset: inout Int) -> [String]? {
        guard let count = varint(data, &offset), count <= UInt64(data.count - offset) else { return nil }
        var out: [String] = []
        out.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let s = string(data, &offset) else { return nil }
            out.append(s)
        }
        return out
    }

    private static func string(_ data: [UInt8], _ offset: inout Int) -> String? {
        guard let n = varint(data, &offset), n <= UInt64(data.count - offset) else { return nil }
        let end = offset + Int(n)
        guard let s = String(validating: data[offset..<end], as: UTF8.self) else { return nil }
        offset = end
        return s
    }

    private static func varint(_ data: [UInt8], _ offset: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < data.count, shift < 64 {
            let b = data[offset]
            offset += 1
            value |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    private static func append(varint value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    private static func append(string: String, to out: inout [UInt8]) {
        let utf8 = Array(string.utf8)
        append(varint: UInt64(utf8.count), to: &out)
        out.append(contentsOf: utf8)
    }
}
