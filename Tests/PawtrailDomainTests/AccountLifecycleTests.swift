import EventLog
import Events
import Foundation
import PawtrailDomain
import Testing

/// A time `seconds` (and `micros`) before the scenario's clock.
func beforeNow(seconds: Int64, micros: Int64 = 0) -> Timestamp {
    Timestamp(microsecondsSinceEpoch: DomainScenario.now.microsecondsSinceEpoch - seconds * 1_000_000 - micros)
}

/// Expects exactly these events, stream by stream, in order.
func expectAppended(
    _ actual: [(StreamID, any DomainEvent)], _ expected: [(StreamID, any DomainEvent)],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        actual.count == expected.count && zip(actual, expected).allSatisfy { $0.0 == $1.0 && DomainScenario.same($0.1, $1.1) },
        "appended \(DomainScenario.describe(actual)), expected \(DomainScenario.describe(expected))",
        sourceLocation: sourceLocation)
}

extension DomainScenario {
    /// A scenario where these users signed up, each with `<id>@example.com` claimed.
    static func signedUp(_ ids: String...) async throws -> DomainScenario {
        let s = DomainScenario()
        for id in ids {
            try await s.given(Streams.account(id), AccountSignedUp(userId: id, name: id, email: "\(id)@example.com", language: .enUS))
            try await s.given(Streams.email("\(id)@example.com"), EmailClaimed(email: "\(id)@example.com", userId: id))
        }
        return s
    }

    /// Logs in under a known command id, so the session the login must open is known.
    ///
    /// - Returns: The session id derived from the command id, and what the login appended.
    func logIn(_ userID: String, guestId: String? = nil) async throws -> (session: String, appended: [(StreamID, any DomainEvent)]) {
        try await opensSession(userID, Login(guestId: guestId))
    }

    /// Signs up under a known command id, so the session the sign-up must open is known.
    ///
    /// - Returns: The session id derived from the command id, and what the sign-up appended.
    func signUp(_ userID: String, _ command: SignUp) async throws -> (session: String, appended: [(StreamID, any DomainEvent)]) {
        try await opensSession(userID, command)
    }

    private func opensSession<C: DomainCommand>(_ userID: String, _ command: C) async throws
        -> (session: String, appended: [(StreamID, any DomainEvent)])
    {
        let commandID = UUID()
        let context = DecisionContext(
            actor: Actor(userID: userID, role: .customer), now: Self.now, commandID: commandID, correlationID: "",
            commandName: C.name)
        let outcome = try await handler.handle(command, as: userID, now: Self.now, commandID: commandID)
        return (context.newID("ss"), outcome.events.map { ($0.stream, $0.event) })
    }
}

@Suite("Accounts: sessions, password, email, profile, deletion")
struct AccountLifecycleTests {
    static let hash = String(repeating: "ab", count: 32)

    // MARK: Sessions

    @Test func loginOpensANewSession() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        let (session, appended) = try await s.logIn("u-ann")
        #expect(session.hasPrefix("ss-"))
        expectAppended(appended, [(stream("account-u-ann"), LoggedIn(userId: "u-ann", sessionId: session))])
        let (second, _) = try await s.logIn("u-ann")
        #expect(second != session, "each log-in opens its own session")
    }

    @Test func logoutClosesAnOpenSessionOnce() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.given(stream("account-u-ann"), LoggedIn(userId: "u-ann", sessionId: "s-1"))
        try await s.then("u-ann", Logout(sessionId: "s-1"), appends: [(stream("account-u-ann"), LoggedOut(userId: "u-ann", sessionId: "s-1"))])
        try await s.then(
            "u-ann", Logout(sessionId: "s-1"),
            throws: .invalidState("session 's-1' of 'u-ann' is logged out; only an open session can be logged out"))
    }

    @Test func restoringKeepsTheSessionOpen() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.given(stream("account-u-ann"), LoggedIn(userId: "u-ann", sessionId: "s-1"))
        try await s.then(
            "u-ann", RestoreSession(sessionId: "s-1"), appends: [(stream("account-u-ann"), SessionRestored(userId: "u-ann", sessionId: "s-1"))])
        try await s.then(
            "u-ann", RestoreSession(sessionId: "s-1"), appends: [(stream("account-u-ann"), SessionRestored(userId: "u-ann", sessionId: "s-1"))])
        try await s.then("u-ann", Logout(sessionId: "s-1"), appends: [(stream("account-u-ann"), LoggedOut(userId: "u-ann", sessionId: "s-1"))])
        try await s.then(
            "u-ann", RestoreSession(sessionId: "s-1"),
            throws: .invalidState("session 's-1' of 'u-ann' is logged out; only an open session can be restored"))
    }

    @Test func unknownSessionsAreNotFound() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then("u-ann", Logout(sessionId: "s-9"), throws: .notFound("session 's-9' is not a session of 'u-ann'"))
        try await s.then("u-ann", RestoreSession(sessionId: "s-9"), throws: .notFound("session 's-9' is not a session of 'u-ann'"))
    }

    @Test func nobodyElseEndsOrRestoresYourSession() async throws {
        let s = try await DomainScenario.signedUp("u-ann", "u-bob", "u-sam")
        try await s.given(Streams.roles, AdminBootstrapped(userId: "u-sam"))
        try await s.given(stream("account-u-ann"), LoggedIn(userId: "u-ann", sessionId: "s-1"))
        for other in ["u-bob", "u-sam"] {
            try await s.then(other, Logout(sessionId: "s-1"), throws: .notFound("session 's-1' is not a session of '\(other)'"))
            try await s.then(other, RestoreSession(sessionId: "s-1"), throws: .notFound("session 's-1' is not a session of '\(other)'"))
        }
    }

    @Test func malformedSessionIdsAreRejected() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then("u-ann", Logout(sessionId: ""), throws: .invalid(field: "sessionId", reason: "an id must have 1 to 64 characters"))
        try await s.then(
            "u-ann", RestoreSession(sessionId: "s 1"), throws: .invalid(field: "sessionId", reason: "'s 1' may hold only letters, digits and - _ . : @"))
    }

    // MARK: Password

    @Test func passwordResetGoesToTheCurrentEmail() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then(
            "u-ann", RequestPasswordReset(),
            appends: [(stream("account-u-ann"), PasswordResetRequested(userId: "u-ann", email: "u-ann@example.com"))])
        try await s.given(
            stream("account-u-ann"),
            EmailChanged(userId: "u-ann", oldEmail: "u-ann@example.com", newEmail: "ann@new.example", reauthenticatedAt: beforeNow(seconds: 60)))
        try await s.then(
            "u-ann", RequestPasswordReset(),
            appends: [(stream("account-u-ann"), PasswordResetRequested(userId: "u-ann", email: "ann@new.example"))])
    }

    @Test func passwordChangeIsRecordedWithoutThePassword() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        let proof = beforeNow(seconds: 30)
        try await s.then(
            "u-ann", ChangePassword(reauthenticatedAt: proof),
            appends: [(stream("account-u-ann"), PasswordChanged(userId: "u-ann", reauthenticatedAt: proof))])
    }

    @Test func passwordChangeNeedsAFreshReauthentication() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then(
            "u-ann", ChangePassword(reauthenticatedAt: Self.staleProof),
            throws: .invalid(field: "reauthenticatedAt", reason: Self.staleReason))
        try await s.then(
            "u-ann", ChangePassword(reauthenticatedAt: Self.futureProof),
            throws: .invalid(field: "reauthenticatedAt", reason: Self.futureReason))
        try await s.then(
            "u-ann", ChangePassword(reauthenticatedAt: beforeNow(seconds: 300)),
            appends: [(stream("account-u-ann"), PasswordChanged(userId: "u-ann", reauthenticatedAt: beforeNow(seconds: 300)))])
    }

    @Test func noAccountEventOrCommandCarriesAPassword() {
        var keys = AccountEvents.all.flatMap { $0.schemaFields.map(\.key) }
        keys += CommandCatalog.all.filter { $0.name.hasPrefix("account.") }.flatMap { $0.fields.map(\.key) }
        #expect(!keys.contains { $0.lowercased().contains("password") || ($0.lowercased().contains("hash") && $0 != "contentHash") })
        #expect(ChangePassword.fields.map(\.key) == ["reauthenticatedAt"] && RequestPasswordReset.fields.isEmpty)
    }

    // MARK: Email

    @Test func changingEmailClaimsTheNewAddressAndReleasesTheOld() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        let proof = beforeNow(seconds: 60)
        try await s.then(
            "u-ann", ChangeEmail(newEmail: " Ann@New.Example ", reauthenticatedAt: proof),
            appends: [
                (stream("account-u-ann"), EmailChanged(userId: "u-ann", oldEmail: "u-ann@example.com", newEmail: "ann@new.example", reauthenticatedAt: proof)),
                (Streams.email("ann@new.example"), EmailClaimed(email: "ann@new.example", userId: "u-ann")),
                (Streams.email("u-ann@example.com"), EmailReleased(email: "u-ann@example.com", userId: "u-ann")),
            ])
        // The old address is free for anyone now.
        let (session, appended) = try await s.signUp("u-bob", SignUp(name: "Bob", email: "u-ann@example.com"))
        expectAppended(
            appended,
            [
                (stream("account-u-bob"), AccountSignedUp(userId: "u-bob", name: "Bob", email: "u-ann@example.com", language: .enUS)),
                (stream("account-u-bob"), LoggedIn(userId: "u-bob", sessionId: session)),
                (Streams.email("u-ann@example.com"), EmailClaimed(email: "u-ann@example.com", userId: "u-bob")),
            ])
    }

    @Test func aReleasedAddressCanBeClaimedAgain() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.given(
            stream("email-old@example.com"), EmailClaimed(email: "old@example.com", userId: "u-bob"),
            EmailReleased(email: "old@example.com", userId: "u-bob"))
        let proof = beforeNow(seconds: 10)
        try await s.then(
            "u-ann", ChangeEmail(newEmail: "old@example.com", reauthenticatedAt: proof),
            appends: [
                (stream("account-u-ann"), EmailChanged(userId: "u-ann", oldEmail: "u-ann@example.com", newEmail: "old@example.com", reauthenticatedAt: proof)),
                (Streams.email("old@example.com"), EmailClaimed(email: "old@example.com", userId: "u-ann")),
                (Streams.email("u-ann@example.com"), EmailReleased(email: "u-ann@example.com", userId: "u-ann")),
            ])
    }

    @Test func theNewEmailMustBeFree() async throws {
        let s = try await DomainScenario.signedUp("u-ann", "u-bob")
        try await s.then(
            "u-ann", ChangeEmail(newEmail: "U-BOB@example.com", reauthenticatedAt: beforeNow(seconds: 60)),
            throws: .alreadyExists("the email u-bob@example.com is already used by another account"))
    }

    @Test func theCurrentEmailChangesNothing() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then("u-ann", ChangeEmail(newEmail: "U-Ann@Example.com", reauthenticatedAt: beforeNow(seconds: 60)), appends: [])
    }

    @Test func aMalformedNewEmailIsRejected() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then(
            "u-ann", ChangeEmail(newEmail: "ann@", reauthenticatedAt: beforeNow(seconds: 60)),
            throws: .invalid(field: "newEmail", reason: "'ann@' is not an email address"))
    }

    static let staleProof = beforeNow(seconds: 300, micros: 1)
    static let futureProof = beforeNow(seconds: 0, micros: -1)
    static let staleReason =
        "\(staleProof.iso8601) is more than 5 minutes before the command's clock (\(DomainScenario.now.iso8601)); reauthenticate and try again"
    static let futureReason =
        "\(futureProof.iso8601) is after the command's clock (\(DomainScenario.now.iso8601)); a reauthentication cannot come from the future"

    @Test func emailChangeNeedsAFreshReauthentication() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then(
            "u-ann", ChangeEmail(newEmail: "ann@new.example", reauthenticatedAt: Self.staleProof),
            throws: .invalid(field: "reauthenticatedAt", reason: Self.staleReason))
        try await s.then(
            "u-ann", ChangeEmail(newEmail: "ann@new.example", reauthenticatedAt: Self.futureProof),
            throws: .invalid(field: "reauthenticatedAt", reason: Self.futureReason))
    }

    @Test(arguments: [Int64(300), 0]) func theProofsWindowIncludesItsEnds(_ secondsAgo: Int64) async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        let appended = try await s.when("u-ann", ChangeEmail(newEmail: "ann@new.example", reauthenticatedAt: beforeNow(seconds: secondsAgo)))
        #expect(appended.count == 3)
        let deleted = try await s.when("u-ann", DeleteAccount(reauthenticatedAt: beforeNow(seconds: secondsAgo)))
        #expect(deleted.count == 2)
    }

    // MARK: Deletion

    @Test func deletionReleasesTheEmailAndEndsTheAccount() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        let proof = beforeNow(seconds: 120)
        try await s.then(
            "u-ann", DeleteAccount(reauthenticatedAt: proof),
            appends: [
                (stream("account-u-ann"), AccountDeleted(userId: "u-ann", reauthenticatedAt: proof)),
                (Streams.email("u-ann@example.com"), EmailReleased(email: "u-ann@example.com", userId: "u-ann")),
            ])
        try await s.then("u-ann", DeleteAccount(reauthenticatedAt: proof), throws: .forbidden("the account of 'u-ann' is deleted"))
        try await s.then("u-ann", SignUp(name: "Ann", email: "ann@example.com"), throws: .alreadyExists("user 'u-ann' already has an account"))
        let appended = try await s.when("u-bob", SignUp(name: "Bob", email: "u-ann@example.com"))
        #expect(appended.contains { $0.1 is EmailClaimed }, "the deleted account's email is free")
    }

    @Test func aDeletedAccountMayOnlyWindDownWhatItLeftOpen() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.given(stream("pet-rex"), PetAdded(petId: "rex", ownerId: "u-ann", name: "Rex", species: .dog))
        try await s.given(stream("pet-tom"), PetAdded(petId: "tom", ownerId: "u-bob", name: "Tom", species: .cat))
        _ = try await s.when("u-ann", DeleteAccount(reauthenticatedAt: beforeNow(seconds: 60)))
        try await s.then("u-ann", RemovePet(petId: "rex"), appends: [(stream("pet-rex"), PetRemoved(petId: "rex"))])
        try await s.then("u-ann", RemovePet(petId: "tom"), throws: .forbidden("pet 'tom' belongs to another owner; customer 'u-ann' may not act on it"))
        try await s.then(
            "u-ann", AddPet(petId: "max", name: "Max", species: .dog), throws: .forbidden("the account of 'u-ann' is deleted"))
        try await s.then("u-ann", AddToCart(productId: "p-1", quantity: 1), throws: .forbidden("the account of 'u-ann' is deleted"))
        #expect(RemovePet.windsDownDeletedAccount && CancelOrder.windsDownDeletedAccount)
        #expect(CommandCatalog.all.filter { $0.windsDownDeletedAccount }.map { $0.name }.sorted() == ["order.cancel", "pet.remove"])
    }

    @Test func theLastAdminCannotDeleteTheirAccountAndOtherRolesGoWithTheAccount() async throws {
        let s = try await DomainScenario.signedUp("u-ann", "u-ada", "u-sam")
        try await s.given(
            Streams.roles, AdminBootstrapped(userId: "u-ada"), RoleGranted(userId: "u-sam", role: .staff, grantedBy: "u-ada"))
        let proof = beforeNow(seconds: 60)
        try await s.then(
            "u-ada", DeleteAccount(reauthenticatedAt: proof),
            throws: .rejected("'u-ada' is the last admin and cannot delete their account; grant another admin first"))
        try await s.then(
            "u-sam", DeleteAccount(reauthenticatedAt: proof),
            appends: [
                (stream("account-u-sam"), AccountDeleted(userId: "u-sam", reauthenticatedAt: proof)),
                (Streams.email("u-sam@example.com"), EmailReleased(email: "u-sam@example.com", userId: "u-sam")),
                (Streams.roles, RoleRevoked(userId: "u-sam", role: .staff, revokedBy: "u-sam")),
            ])
        try await s.given(Streams.roles, RoleGranted(userId: "u-ann", role: .admin, grantedBy: "u-ada"))
        try await s.then(
            "u-ada", DeleteAccount(reauthenticatedAt: proof),
            appends: [
                (stream("account-u-ada"), AccountDeleted(userId: "u-ada", reauthenticatedAt: proof)),
                (Streams.email("u-ada@example.com"), EmailReleased(email: "u-ada@example.com", userId: "u-ada")),
                (Streams.roles, RoleRevoked(userId: "u-ada", role: .admin, revokedBy: "u-ada")),
            ])
        // The remaining admin is now the last one, and can neither be revoked nor delete their account.
        try await s.then(
            "u-ann", RevokeRole(userId: "u-ann", role: .admin), throws: .rejected("'u-ann' is the last admin; grant another admin first"))
    }

    @Test func deletionNeedsAFreshReauthentication() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then(
            "u-ann", DeleteAccount(reauthenticatedAt: Self.staleProof), throws: .invalid(field: "reauthenticatedAt", reason: Self.staleReason))
        try await s.then(
            "u-ann", DeleteAccount(reauthenticatedAt: Self.futureProof), throws: .invalid(field: "reauthenticatedAt", reason: Self.futureReason))
    }

    // MARK: Profile

    @Test func profileUpdatesRecordTheChangedFields() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then(
            "u-ann", UpdateProfile(name: " Ann Rahman ", phone: " +880 1711-000000 ", address: "12 Road 5\nDhaka"),
            appends: [
                (stream("account-u-ann"), ProfileUpdated(userId: "u-ann", name: "Ann Rahman", phone: "+880 1711-000000", address: "12 Road 5\nDhaka"))
            ])
        try await s.then(
            "u-ann", UpdateProfile(name: "Ann Rahman", phone: "+880 1711-000000", address: "7 Lake Road"),
            appends: [(stream("account-u-ann"), ProfileUpdated(userId: "u-ann", address: "7 Lake Road"))])
        try await s.then("u-ann", UpdateProfile(name: "Ann Rahman"), appends: [])
        try await s.then("u-ann", UpdateProfile(name: "Ann Rahman", phone: "+880 1711-000000"), appends: [])
    }

    @Test func anEmptyPhoneOrAddressClearsIt() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.given(stream("account-u-ann"), ProfileUpdated(userId: "u-ann", phone: "01711000000", address: "Dhaka"))
        try await s.then(
            "u-ann", UpdateProfile(phone: "", address: " "),
            appends: [(stream("account-u-ann"), ProfileUpdated(userId: "u-ann", phone: "", address: ""))])
        try await s.then("u-ann", UpdateProfile(phone: ""), appends: [])
    }

    @Test func aProfileUpdateNamesAtLeastOneField() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then(
            "u-ann", UpdateProfile(), throws: .invalid(field: "profile", reason: "give at least one of name, phone and address"))
    }

    @Test func theNameCannotBeClearedOrTooLong() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then("u-ann", UpdateProfile(name: " "), throws: .invalid(field: "name", reason: "must not be empty"))
        try await s.then(
            "u-ann", UpdateProfile(name: String(repeating: "a", count: 101)), throws: .invalid(field: "name", reason: "must be at most 100 characters"))
        try await s.then(
            "u-ann", UpdateProfile(address: String(repeating: "a", count: 301)),
            throws: .invalid(field: "address", reason: "must be at most 300 characters"))
    }

    @Test(arguments: ["call me", "12+3456789", "01711-abc"]) func phonesWithOtherCharactersAreRejected(_ phone: String) async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then(
            "u-ann", UpdateProfile(phone: phone),
            throws: .invalid(field: "phone", reason: "'\(phone)' is not a phone number; use digits, spaces, - . ( ) and an optional leading +"))
    }

    @Test(arguments: [("12345", 5), ("+1 (555) 0100-0000-0000-0", 17)]) func phonesNeedSixToFifteenDigits(_ phone: String, _ digits: Int) async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then(
            "u-ann", UpdateProfile(phone: phone), throws: .invalid(field: "phone", reason: "'\(phone)' has \(digits) digits; a phone number has 6 to 15"))
    }

    // MARK: Image

    @Test func theImageIsRecordedByHashAndSize() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then(
            "u-ann", ChangeProfileImage(contentHash: Self.hash, byteSize: 2_097_152),
            appends: [(stream("account-u-ann"), ProfileImageChanged(userId: "u-ann", contentHash: Self.hash, byteSize: 2_097_152))])
        try await s.then("u-ann", ChangeProfileImage(contentHash: Self.hash, byteSize: 2_097_152), appends: [])
        let other = String(repeating: "0f", count: 32)
        try await s.then(
            "u-ann", ChangeProfileImage(contentHash: other, byteSize: 1),
            appends: [(stream("account-u-ann"), ProfileImageChanged(userId: "u-ann", contentHash: other, byteSize: 1))])
    }

    @Test func imagesOver2MiBAreRejected() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then(
            "u-ann", ChangeProfileImage(contentHash: Self.hash, byteSize: 2_097_153),
            throws: .invalid(field: "byteSize", reason: "an image of 2097153 bytes is over the 2 MiB limit (2097152 bytes)"))
    }

    @Test(arguments: [Int64(0), -1]) func emptyImagesAreRejected(_ size: Int64) async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then(
            "u-ann", ChangeProfileImage(contentHash: Self.hash, byteSize: size),
            throws: .invalid(field: "byteSize", reason: "an image has at least 1 byte, got \(size)"))
    }

    @Test(arguments: ["", String(repeating: "AB", count: 32), String(repeating: "a", count: 63), String(repeating: "g", count: 64), String(repeating: "a", count: 65)])
    func hashesThatAreNotASHA256AreRejected(_ hash: String) async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then(
            "u-ann", ChangeProfileImage(contentHash: hash, byteSize: 1000),
            throws: .invalid(field: "contentHash", reason: "'\(hash)' is not a SHA-256: 64 lowercase hex digits"))
    }

    // MARK: Language

    @Test func languageChangesOnlyWhenDifferent() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then("u-ann", ChangeLanguage(language: .enUS), appends: [])
        try await s.then(
            "u-ann", ChangeLanguage(language: .bnBD), appends: [(stream("account-u-ann"), LanguageChanged(userId: "u-ann", language: .bnBD))])
        try await s.then("u-ann", ChangeLanguage(language: .bnBD), appends: [])
    }

    // MARK: Authorisation

    static let accountCommands: [any DomainCommand] = [
        Login(), Login(guestId: "guest-7"), Logout(sessionId: "s-1"), RestoreSession(sessionId: "s-1"), RequestPasswordReset(),
        ChangePassword(reauthenticatedAt: beforeNow(seconds: 1)), ChangeEmail(newEmail: "x@example.com", reauthenticatedAt: beforeNow(seconds: 1)),
        DeleteAccount(reauthenticatedAt: beforeNow(seconds: 1)), UpdateProfile(name: "X"),
        ChangeProfileImage(contentHash: hash, byteSize: 1), ChangeLanguage(language: .bnBD),
    ]

    @Test(arguments: accountCommands) func guestsHaveNoAccountToActOn(_ command: any DomainCommand) async throws {
        try await DomainScenario().then(
            "guest-7", command, throws: .forbidden("guests cannot \(type(of: command).name); sign up or log in first"))
    }

    @Test(arguments: accountCommands) func usersWithoutAnAccountAreRefused(_ command: any DomainCommand) async throws {
        try await DomainScenario.signedUp("u-ann").then("u-nobody", command, throws: .forbidden("user 'u-nobody' has no account"))
    }

    @Test(arguments: accountCommands) func aDeletedAccountAcceptsNoFurtherCommands(_ command: any DomainCommand) async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.given(
            stream("account-u-ann"), LoggedIn(userId: "u-ann", sessionId: "s-1"),
            AccountDeleted(userId: "u-ann", reauthenticatedAt: beforeNow(seconds: 60)))
        try await s.then("u-ann", command, throws: .forbidden("the account of 'u-ann' is deleted"))
    }
}

/// `PasswordChanged` version 1 had no reauthentication; version 2 records it.
@Suite("Accounts: PasswordChanged schema evolution")
struct PasswordChangedUpcastTests {
    @Test func version1ReadsAsAChangeWithoutAReauthentication() throws {
        var w = BinaryFieldWriter()
        w.varint(UInt64(DomainEventCodec.marker))
        w.varint(1)
        w.string("userId", "u-ann")
        let event = try #require(try EventCatalog.domain.decode(type: "PasswordChanged", data: w.bytes) as? PasswordChanged)
        #expect(event == PasswordChanged(userId: "u-ann", reauthenticatedAt: nil))
        let json = try #require(try EventCatalog.domain.json(type: "PasswordChanged", data: w.bytes))
        #expect(json["userId"] == .string("u-ann"))
        let proof = beforeNow(seconds: 10)
        let current = PasswordChanged(userId: "u-ann", reauthenticatedAt: proof)
        #expect(DomainEventCodec.encode(current).prefix(2) == [0, 2])
        #expect(try EventCatalog.domain.decode(type: "PasswordChanged", data: DomainEventCodec.encode(current)) as? PasswordChanged == current)
    }
}
