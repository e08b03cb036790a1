public import Events

/// `account.change-image`: the actor sets their profile image, given as its SHA-256 and byte size (the bytes
/// live in a blob store, never in the log).
public struct ChangeProfileImage: DomainCommand, Hashable {
    public static let name = "account.change-image"
    public static let summary = "Change your profile image: its SHA-256 (64 lowercase hex digits) and size (at most 2 MiB)."

    /// The most bytes a profile image may have: 2 MiB.
    public static let maxByteSize: Int64 = 2 * 1024 * 1024

    /// The SHA-256 of the image's bytes, 64 lowercase hex digits.
    public var contentHash: String
    /// The image's size in bytes.
    public var byteSize: Int64

    public init(contentHash: String, byteSize: Int64) {
        self.contentHash = contentHash
        self.byteSize = byteSize
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        contentHash = try r.string("contentHash")
        byteSize = try r.int("byteSize")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("contentHash", contentHash)
        w.int("byteSize", byteSize)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try decide(context, account: try await loader.load(AccountState.self, Streams.account(context.actor.userID)))
    }

    /// The pure decision; the image the account has already (same hash and size) appends nothing.
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - account: The actor's account.
    /// - Returns: ``ProfileImageChanged``, or nothing.
    /// - Throws: ``DomainError/invalid(field:reason:)`` for a malformed hash, an empty image or one over 2 MiB.
    public func decide(_ context: DecisionContext, account: AccountState) throws(DomainError) -> Decision {
        let isHex = contentHash.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        guard contentHash.utf8.count == 64, isHex else {
            throw .invalid(field: "contentHash", reason: "'\(contentHash)' is not a SHA-256: 64 lowercase hex digits")
        }
        guard byteSize >= 1 else { throw .invalid(field: "byteSize", reason: "an image has at least 1 byte, got \(byteSize)") }
        guard byteSize <= Self.maxByteSize else {
            throw .invalid(
                field: "byteSize", reason: "an image of \(byteSize) bytes is over the 2 MiB limit (\(Self.maxByteSize) bytes)")
        }
        guard account.imageHash != contentHash || account.imageByteSize != byteSize else { return .nothing }
        let userID = context.actor.userID
        return .append(Streams.account(userID), ProfileImageChanged(userId: userID, contentHash: contentHash, byteSize: byteSize))
    }
}
