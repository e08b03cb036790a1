public import EventLog

/// Reads the encoding of ``BinaryFieldWriter``, checking every length against the bytes that remain, so damaged
/// or hostile bytes give a ``FieldError`` and never a crash or a huge allocation.
public struct BinaryFieldReader: FieldReader {
    @usableFromInline let bytes: [UInt8]
    /// The offset of the next unread byte.
    /// Where the next field starts.
    public var offset: Int
    /// Where personal values come from: in line (events written before personal sections), or the event's section.
    public var personalValues: PersonalValues = .inline
    /// How many personal values have been read: the next one's ordinal (``PersonalReference/ordinal``).
    public var personalOrdinal = 0
    /// When not `nil`, every personal value read is added to it, in order.
    public var capturedPersonalValues: [String]? = nil

    /// Where a reader finds personal values.
    public enum PersonalValues: Sendable {
        /// Each one is a string in its place.
        case inline
        /// The body holds indexes into these values.
        case section([String])
        /// The body holds indexes, and the values were erased.
        case erased
        /// Each personal value reads as a token naming it in the event at this position (``PersonalReference``),
        /// and every other string has the tokens' scalars taken out, so that none can name a value. `inline` says
        /// where the values are: in their places (events written before personal sections) or in the section.
        case references(position: UInt64, inline: Bool)
    }

    /// Creates a reader over bytes, from an offset.
    @inlinable
    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    public mutating func personal(_ key: String) throws(FieldError) -> String {
        let value: String
        switch personalValues {
        case .inline: value = try raw(key)
        case .erased:
            _ = try varint(key)
            value = PersonalSection.erasedText
        case .section(let values):
            let i = try varint(key)
            guard i < UInt64(values.count) else {
                throw FieldError(field: key, message: "personal value \(i) is not in the event's \(values.count)")
            }
            value = values[Int(i)]
        case .references(let position, let inline):
            if inline { offset += try count(key) } else { _ = try varint(key) }
            value = PersonalReference(position: position, ordinal: personalOrdinal).token
        }
        personalOrdinal += 1
        capturedPersonalValues?.append(value)
        return value
    }

    public mutating func optionalPersonal(_ key: String) throws(FieldError) -> String? {
        try present(key) ? try personal(key) : nil
    }

    /// Whether every byte has been read.
    @inlinable
    public var isAtEnd: Bool { offset == bytes.count }

    @inlinable func truncated(_ key: String) -> FieldError {
        FieldError(field: key, message: "the binary encoding ends early at byte \(offset)")
    }

    /// Reads an unsigned LEB128 varint.
    @inlinable
    public mutating func varint(_ key: String) throws(FieldError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw truncated(key) }
            let b = bytes[offset]
            offset += 1
            guard shift < 64 else { throw FieldError(field: key, message: "varint longer than 64 bits") }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
        }
    }

    @inlinable mutating func signed(_ key: String) throws(FieldError) -> Int64 {
        let v = try varint(key)
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    @inlinable mutating func count(_ key: String) throws(FieldError) -> Int {
        let n = try varint(key)
        // Every item takes at least one byte, so a count beyond the bytes left is damage, not a reason to allocate.
        guard n <= UInt64(bytes.count - offset) else { throw truncated(key) }
        return Int(n)
    }

    @inlinable mutating func raw(_ key: String) throws(FieldError) -> String {
        let n = try count(key)
        defer { offset += n }
        let text = String(decoding: bytes[offset..<offset + n], as: UTF8.self)
        if case .references = personalValues { return PersonalReference.defused(text) }
        return text
    }

    @inlinable mutating func present(_ key: String) throws(FieldError) -> Bool {
        guard offset < bytes.count else { throw truncated(key) }
        let b = bytes[offset]
        offset += 1
        switch b {
        case 0: return false
        case 1: return true
        default: throw FieldError(field: key, message: "presence byte \(b) is neither 0 nor 1")
        }
    }

    @inlinable
    public mutating func string(_ key: String) throws(FieldError) -> String { try raw(key) }

    @inlinable
    public mutating func optionalString(_ key: String) throws(FieldError) -> String? {
        try present(key) ? try raw(key) : nil
    }

    @inlinable
    public mutating func int(_ key: String) throws(FieldError) -> Int64 { try signed(key) }

    @inlinable
    public mutating func optionalInt(_ key: String) throws(FieldError) -> Int64? {
        try present(key) ? try signed(key) : nil
    }

    @inlinable
    public mutating func bool(_ key: String) throws(FieldError) -> Bool { try present(key) }

    @inlinable
    public mutating func timestamp(_ key: String) throws(FieldError) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: try signed(key))
    }

    @inlinable
    public mutating func optionalTimestamp(_ key: String) throws(FieldError) -> Timestamp? {
        try present(key) ? try timestamp(key) : nil
    }

    @inlinable
    public mutating func money(_ key: String) throws(FieldError) -> Money {
        let minor = try signed(key)
        return Money(minor, try raw(key))
    }

    @inlinable
    public mutating func optionalMoney(_ key: String) throws(FieldError) -> Money? {
        try present(key) ? try money(key) : nil
    }

    @inlinable
    public mutating func strings(_ key: String) throws(FieldError) -> [String] {
        let n = try count(key)
        var out: [String] = []
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try raw(key)) }
        return out
    }

    @inlinable
    public mutating func choice<C: FieldChoice>(_ key: String, _ type: C.Type) throws(FieldError) -> C {
        try C.parse(try raw(key), key: key)
    }

    @inlinable
    public mutating func optionalChoice<C: FieldChoice>(_ key: String, _ type: C.Type) throws(FieldError) -> C? {
        try present(key) ? try choice(key, type) : nil
    }

    @inlinable
    public mutating func records<R: FieldCodable>(_ key: String, _ type: R.Type) throws(FieldError) -> [R] {
        let n = try count(key)
        var out: [R] = []
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try R(reading: &self)) }
        return out
    }

    /// Reads a dictionary written by ``FieldWriter/keyed(_:_:)`` straight into its storage, without the records
    /// in between.
    @inlinable
    public mutating func keyed<V: FieldCodable>(_ key: String, _ type: V.Type) throws(FieldError) -> [String: V] {
        let n = try count(key)
        var out: [String: V] = [:]
        out.reserveCapacity(n)
        for _ in 0..<n {
            let k = try raw(key)
            out[k] = try V(reading: &self)
        }
        return out
    }
}
