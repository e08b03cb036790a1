public import Events

/// `account.update-profile`: the actor changes their name, phone or address. An empty phone or address clears it;
/// the name cannot be cleared.
public struct UpdateProfile: DomainCommand, Hashable {
    public static let name = "account.update-profile"
    public static let summary = "Change your name, phone or address (give at least one; an empty phone or address clears it)."

    public var name: String?
    public var phone: String?
    public var address: String?

    public init(name: String? = nil, phone: String? = nil, address: String? = nil) {
        self.name = name
        self.phone = phone
        self.address = address
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        name = try r.optionalString("name")
        phone = try r.optionalString("phone")
        address = try r.optionalString("address")
    }

    public func write(to w: inout some FieldWriter) {
        w.optionalString("name", name)
        w.optionalString("phone", phone)
        w.optionalString("address", address)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try decide(context, account: try await loader.load(AccountState.self, Streams.account(context.actor.userID)))
    }

    /// The pure decision: the event holds only the fields that change; when none does, nothing is appended.
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - account: The actor's account.
    /// - Returns: ``ProfileUpdated``, or nothing.
    /// - Throws: ``DomainError/invalid(field:reason:)`` when no field is given or one is malformed.
    public func decide(_ context: DecisionContext, account: AccountState) throws(DomainError) -> Decision {
        guard name != nil || phone != nil || address != nil else {
            throw .invalid(field: "profile", reason: "give at least one of name, phone and address")
        }
        let cleanName = try name.map { (n) throws(DomainError) in try Validate.text(n, field: "name", max: 100) }
        let cleanPhone = try phone.map { (p) throws(DomainError) in try Validate.phone(p, field: "phone", allowEmpty: true) }
        let cleanAddress = try address.map { (a) throws(DomainError) in
            try Validate.text(a, field: "address", max: 300, allowEmpty: true)
        }
        let userID = context.actor.userID
        let event = ProfileUpdated(
            userId: userID,
            name: cleanName == account.name ? nil : cleanName,
            phone: cleanPhone == account.phone ? nil : cleanPhone,
            address: cleanAddress == account.address ? nil : cleanAddress)
        guard event.name != nil || event.phone != nil || event.address != nil else { return .nothing }
        return .append(Streams.account(userID), event)
    }
}
