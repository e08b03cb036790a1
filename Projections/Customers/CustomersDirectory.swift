public import Events

/// The customer directory's order and search: the personal index of living accounts by lowercased name, searched by
/// the words of the name, the email, the user id and the phone's digits. An account enters it at sign-up, changes with
/// its name, email or phone, and is erased from it, present and past, when the account is deleted.
public enum CustomersDirectory: PersonalIndexing {
    public static let version = 1
    public static let eventTypes = CustomersProjection.types(AccountSignedUp.self, ProfileUpdated.self, EmailChanged.self, AccountDeleted.self)

    public static func changes(
        _ e: ProjectedEvent, entry: (String) async throws -> PersonalIndexEntry?
    ) async rethrows -> [PersonalIndexChange] {
        switch e.typeID {
        case AccountSignedUp.typeID:
            let x = e.event as! AccountSignedUp
            return [.put(x.userId, make(x.userId, name: x.name, email: x.email, phone: ""), at: e.position)]
        case ProfileUpdated.typeID:
            let x = e.event as! ProfileUpdated
            guard x.name != nil || x.phone != nil, let old = try await entry(x.userId) else { return [] }
            let made = make(x.userId, name: x.name ?? old.values[0], email: old.values[1], phone: x.phone ?? old.values[2])
            return made == old ? [] : [.put(x.userId, made, at: e.position)]
        case EmailChanged.typeID:
            let x = e.event as! EmailChanged
            guard let old = try await entry(x.userId) else { return [] }
            let made = make(x.userId, name: old.values[0], email: x.newEmail, phone: old.values[2])
            return made == old ? [] : [.put(x.userId, made, at: e.position)]
        case AccountDeleted.typeID:
            return [.erase((e.event as! AccountDeleted).userId)]
        default:
            return []
        }
    }

    /// An account's entry.
    static func make(_ userId: String, name: String, email: String, phone: String) -> PersonalIndexEntry {
        let digits = phone.filter(\.isNumber)
        return PersonalIndexEntry(
            values: [name, email, phone], sortKey: name.lowercased(),
            terms: Format.words(name) + Format.words(email) + Format.words(userId) + (digits.isEmpty ? [] : [digits]))
    }
}
