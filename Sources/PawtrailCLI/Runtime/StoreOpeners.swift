/// The openers of every kind of store this build has, picked by each store's location: a URL's scheme names a
/// server's kind, anything else is a directory of the file store. A new backend is one more entry in ``standard()``.
public final class StoreOpeners: StoreOpener {
    /// One kind of store: the URL schemes that name it (none for the directory kind), and its opener.
    public struct Kind: Sendable {
        /// What the kind is called in messages.
        public var name: String
        /// The URL schemes that select it (`postgresql`); empty for the kind that takes directories.
        public var schemes: [String]
        /// Its opener; `nil` when this build cannot open the kind (the message says so).
        public var opener: (any StoreOpener)?

        /// Creates a kind.
        public init(name: String, schemes: [String], opener: (any StoreOpener)?) {
            self.name = name
            self.schemes = schemes
            self.opener = opener
        }
    }

    private let kinds: [Kind]

    /// Creates the openers of some kinds of store.
    ///
    /// - Parameter kinds: The kinds; the one without schemes takes every location that is not a URL.
    public init(_ kinds: [Kind]) {
        self.kinds = kinds
    }

    /// The kinds the `pawtrail` tool opens.
    public static func standard() -> StoreOpeners {
        StoreOpeners([
            Kind(name: "file store", schemes: [], opener: FileStoreOpener()),
            Kind(name: "PostgreSQL store", schemes: ["postgresql", "postgres"], opener: PostgresStoreOpener()),
        ])
    }

    /// The scheme of a location that is a URL (`postgresql://...`), lowercased; `nil` for a path.
    static func scheme(of location: String) -> String? {
        guard let colon = location.firstIndex(of: ":"), location[colon...].hasPrefix("://") else { return nil }
        let scheme = location[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }

    /// The opener for a location, `nil` when no kind this build knows takes it or the kind has no opener here.
    func opener(for location: String) -> (any StoreOpener)? {
        kind(for: location)?.opener
    }

    private func kind(for location: String) -> Kind? {
        let scheme = Self.scheme(of: location)
        return kinds.first { scheme.map($0.schemes.contains) ?? $0.schemes.isEmpty }
    }

    public func open(location: String, access: StoreAccess) throws -> OpenedStore {
        guard let kind = kind(for: location) else {
            // The URL's scheme alone: the rest may hold a password.
            let known = kinds.flatMap(\.schemes).map { "\($0)://" }.joined(separator: ", ")
            throw CommandFailure(
                kind: .usage,
                message: "no kind of store is named by '\(Self.scheme(of: location) ?? "")://' URLs; a store is a directory or a URL starting \(known)")
        }
        guard let opener = kind.opener else {
            throw CommandFailure(kind: .usage, message: "this build of pawtrail cannot open a \(kind.name) (\(kind.schemes.map { "\($0)://" }.joined(separator: ", ")))")
        }
        return try opener.open(location: location, access: access)
    }

    public func finish() {
        for kind in kinds { kind.opener?.finish() }
    }
}
