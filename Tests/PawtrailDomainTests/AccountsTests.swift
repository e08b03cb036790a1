import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Accounts: sign-up and roles")
struct AccountsTests {
    @Test func signUpCreatesTheAccountLogsInAndClaimsTheEmail() async throws {
        let (session, appended) = try await DomainScenario().signUp(
            "u-ann", SignUp(name: " Ann ", email: "Ann@Example.com", language: .bnBD))
        #expect(session.hasPrefix("ss-"))
        expectAppended(
            appended,
            [
                (stream("account-u-ann"), AccountSignedUp(userId: "u-ann", name: "Ann", email: "ann@example.com", language: .bnBD)),
                (stream("account-u-ann"), LoggedIn(userId: "u-ann", sessionId: session)),
                (Streams.email("ann@example.com"), EmailClaimed(email: "ann@example.com", userId: "u-ann")),
            ])
    }

    @Test func theSessionSignUpOpensIsOpenUntilLoggedOut() async throws {
        let s = DomainScenario()
        let (session, _) = try await s.signUp("u-ann", SignUp(name: "Ann", email: "ann@example.com"))
        try await s.then(
            "u-ann", Logout(sessionId: session), appends: [(stream("account-u-ann"), LoggedOut(userId: "u-ann", sessionId: session))])
        try await s.then(
            "u-ann", Logout(sessionId: session),
            throws: .invalidState("session '\(session)' of 'u-ann' is logged out; only an open session can be logged out"))
    }

    @Test func signUpDefaultsToEnglish() async throws {
        let appended = try await DomainScenario().when("u-ann", SignUp(name: "Ann", email: "ann@example.com"))
        #expect((appended.first?.1 as? AccountSignedUp)?.language == .enUS)
    }

    @Test func anEmailBelongsToOneAccount() async throws {
        let s = DomainScenario()
        try await s.given(stream("email-ann@example.com"), EmailClaimed(email: "ann@example.com", userId: "u-ann"))
        try await s.then(
            "u-bob", SignUp(name: "Bob", email: "ANN@example.com"),
            throws: .alreadyExists("the email ann@example.com is already used by another account"))
    }

    @Test func aUserSignsUpOnce() async throws {
        let s = DomainScenario()
        try await s.given(stream("account-u-ann"), AccountSignedUp(userId: "u-ann", name: "Ann", email: "ann@example.com", language: .enUS))
        try await s.then(
            "u-ann", SignUp(name: "Ann", email: "other@example.com"), throws: .alreadyExists("user 'u-ann' already has an account"))
    }

    @Test(arguments: [
        "ann", "ann@", "@example.com", "ann@example", "ann @example.com", "ann@example.", "ann\u{80}@example.com",
        "ann\u{200B}@example.com", String(repeating: "a", count: 239) + "@example.com",
    ])
    func malformedEmailsAreRejected(_ email: String) async throws {
        try await DomainScenario().then(
            "u-ann", SignUp(name: "Ann", email: email), throws: .invalid(field: "email", reason: "'\(email)' is not an email address"))
    }

    @Test func theLongestEmailStillMakesAValidClaimStream() async throws {
        let email = String(repeating: "a", count: 238) + "@example.com"
        let appended = try await DomainScenario().when("u-ann", SignUp(name: "Ann", email: email))
        #expect(appended.count == 3 && appended.last?.0 == Streams.email(email))
    }

    @Test func anEmptyNameIsRejected() async throws {
        try await DomainScenario().then(
            "u-ann", SignUp(name: "  ", email: "ann@example.com"), throws: .invalid(field: "name", reason: "must not be empty"))
    }

    @Test func guestsCannotSignUpAsThemselves() async throws {
        try await DomainScenario().then(
            "guest-1", SignUp(name: "G", email: "g@example.com"),
            throws: .forbidden("guests cannot account.signup; sign up or log in first"))
    }

    static func withAccounts(_ ids: String...) async throws -> DomainScenario {
        let s = DomainScenario()
        for id in ids {
            try await s.given(Streams.account(id), AccountSignedUp(userId: id, name: id, email: "\(id)@example.com", language: .enUS))
        }
        return s
    }

    @Test func theFirstAdminBootstrapsOnce() async throws {
        let s = try await Self.withAccounts("u-ann", "u-bob")
        try await s.then("u-ann", BootstrapAdmin(), appends: [(Streams.roles, AdminBootstrapped(userId: "u-ann"))])
        try await s.then(
            "u-bob", BootstrapAdmin(), throws: .rejected("an admin exists already (u-ann); ask one to grant roles"))
    }

    @Test func bootstrapNeedsAnAccount() async throws {
        try await DomainScenario().then("u-nobody", BootstrapAdmin(), throws: .forbidden("user 'u-nobody' has no account"))
    }

    @Test func adminsGrantAndRevokeRoles() async throws {
        let s = try await Self.withAccounts("u-ann", "u-sam")
        try await s.given(Streams.roles, AdminBootstrapped(userId: "u-ann"))
        try await s.then(
            "u-ann", GrantRole(userId: "u-sam", role: .staff),
            appends: [(Streams.roles, RoleGranted(userId: "u-sam", role: .staff, grantedBy: "u-ann"))])
        try await s.then(
            "u-ann", GrantRole(userId: "u-sam", role: .staff), throws: .alreadyExists("user 'u-sam' already holds the staff role"))
        try await s.then(
            "u-ann", RevokeRole(userId: "u-sam", role: .staff),
            appends: [(Streams.roles, RoleRevoked(userId: "u-sam", role: .staff, revokedBy: "u-ann"))])
    }

    @Test func grantingNeedsAnAccountToGrantTo() async throws {
        let s = try await Self.withAccounts("u-ann")
        try await s.given(Streams.roles, AdminBootstrapped(userId: "u-ann"))
        try await s.then("u-ann", GrantRole(userId: "u-ghost", role: .staff), throws: .notFound("user 'u-ghost' has no account"))
    }

    @Test func theLastAdminCannotBeRevoked() async throws {
        let s = try await Self.withAccounts("u-ann")
        try await s.given(Streams.roles, AdminBootstrapped(userId: "u-ann"))
        try await s.then(
            "u-ann", RevokeRole(userId: "u-ann", role: .admin), throws: .rejected("'u-ann' is the last admin; grant another admin first"))
    }

    @Test func onlyAdminsGrantOrRevoke() async throws {
        let s = try await Self.withAccounts("u-ann", "u-sam", "u-cat")
        try await s.given(Streams.roles, AdminBootstrapped(userId: "u-ann"), RoleGranted(userId: "u-sam", role: .staff, grantedBy: "u-ann"))
        try await s.then(
            "u-sam", GrantRole(userId: "u-cat", role: .admin), throws: .forbidden("only admins grant roles; staff 'u-sam' is not one"))
        try await s.then(
            "u-cat", RevokeRole(userId: "u-sam", role: .staff), throws: .forbidden("only admins revoke roles; customer 'u-cat' is not one"))
    }
}
