import BenchSupport
import EventLog
import Events
import PawtrailDomain

// Accounts and visits: sign-ups, log-ins and session restores (with the repeats the activity history collapses),
// bursts of profile edits, and the rarer account changes.
extension Business {
    /// `account.signup`: the account and the email claim.
    func signUp(id: String, name: String, email: String, language: Language, role: Role) {
        command(
            "account.signup", as: id, role: role,
            [
                (Streams.account(id), AccountSignedUp(userId: id, name: name, email: email, language: language)),
                (Streams.email(email), EmailClaimed(email: email, userId: id)),
            ])
    }

    /// A new customer signs up and starts a first visit soon after.
    func signUpCustomer() {
        let first = rng.pick(Names.first)
        let last = rng.pick(Names.last)
        let id = newID("u")
        let email = "\(first.lowercased()).\(last.lowercased()).\(customers.count)@mail.example"
        let language: Language = rng.chance(0.75) ? .enUS : .bnBD
        signUp(id: id, name: "\(first) \(last)", email: email, language: language, role: .customer)
        customers.append(Customer(id: id, name: "\(first) \(last)", email: email, language: language))
        schedule(.visit(customers.count - 1, steps: rng.int(3...10), burst: -1), after: (2 * Self.minute)...(40 * Self.minute))
    }

    /// One step of a visit: the opening log-in or restore, a pending profile edit, or one action.
    func visit(_ c: Int, steps: Int, burst: Int) {
        guard !customers[c].deleted else { return }
        if burst < 0 {
            openSession(c)
            schedule(.visit(c, steps: steps, burst: 0), after: (10 * Self.second)...(2 * Self.minute))
            return
        }
        if burst > 0 {
            editProfile(c)
            schedule(.visit(c, steps: steps, burst: burst - 1), after: (15 * Self.second)...(90 * Self.second))
            return
        }
        var nextBurst = 0
        switch rng.below(100) {
        case 0..<40: shop(c)
        case 40..<58: petCare(c)
        case 58..<63: bookingAction(c)
        case 63..<65: submitVetRequest(c)
        case 65..<70: messaging(c)
        case 70..<75:
            editProfile(c)
            nextBurst = rng.chance(0.5) ? rng.int(1...3) : 0
        case 75..<77: accountChange(c)
        case 77..<85: checkout(c)
        default: shop(c)
        }
        guard !customers[c].deleted else { return }
        if steps > 1 || nextBurst > 0 {
            schedule(.visit(c, steps: steps - 1, burst: nextBurst), after: (20 * Self.second)...(4 * Self.minute))
        } else {
            closeSession(c)
        }
    }

    /// `account.restore-session` of an open session, else `account.login`; an app that restarts restores again.
    private func openSession(_ c: Int) {
        let id = customers[c].id
        if !customers[c].sessions.isEmpty && rng.chance(0.65) {
            let session = rng.pick(customers[c].sessions)
            command("account.restore-session", as: id, role: .customer, [(Streams.account(id), SessionRestored(userId: id, sessionId: session))])
            customers[c].currentSession = session
            if rng.chance(0.2) {
                command("account.restore-session", as: id, role: .customer, [(Streams.account(id), SessionRestored(userId: id, sessionId: session))])
            }
        } else {
            let session = newID("ss")
            command("account.login", as: id, role: .customer, [(Streams.account(id), LoggedIn(userId: id, sessionId: session))])
            customers[c].sessions.append(session)
            if customers[c].sessions.count > 4 { customers[c].sessions.removeFirst() }
            customers[c].currentSession = session
        }
    }

    /// The end of a visit: a third log out.
    private func closeSession(_ c: Int) {
        defer { customers[c].currentSession = nil }
        guard let session = customers[c].currentSession, rng.chance(0.3) else { return }
        let id = customers[c].id
        command("account.logout", as: id, role: .customer, [(Streams.account(id), LoggedOut(userId: id, sessionId: session))])
        customers[c].sessions.removeAll { $0 == session }
    }

    /// `account.update-profile` with one to three of name, phone and address.
    func editProfile(_ c: Int) {
        let id = customers[c].id
        var name: String?
        var phone: String?
        var address: String?
        switch rng.below(4) {
        case 0: name = "\(rng.pick(Names.first)) \(rng.pick(Names.last))"
        case 1: phone = "+880 17\(rng.int(10...99)) \(rng.int(100_000...999_999))"
        case 2: address = "House \(rng.int(1...120)), Road \(rng.int(1...30)), \(rng.pick(Names.areas)), Dhaka"
        default:
            phone = "+880 18\(rng.int(10...99)) \(rng.int(100_000...999_999))"
            address = "Flat \(rng.int(1...9))B, \(rng.pick(Names.areas)), Dhaka"
        }
        if let name { customers[c].name = name }
        command(
            "account.update-profile", as: id, role: .customer,
            [(Streams.account(id), ProfileUpdated(userId: id, name: name, phone: phone, address: address))])
    }

    /// The rarer account commands: language, password, image, reset, email change, deletion.
    private func accountChange(_ c: Int) {
        let id = customers[c].id
        let account = Streams.account(id)
        switch rng.below(100) {
        case 0..<20:
            let language: Language = customers[c].language == .enUS ? .bnBD : .enUS
            customers[c].language = language
            command("account.change-language", as: id, role: .customer, [(account, LanguageChanged(userId: id, language: language))])
        case 20..<45:
            command("account.change-password", as: id, role: .customer, [(account, PasswordChanged(userId: id, reauthenticatedAt: Timestamp(microsecondsSinceEpoch: now - 40_000_000)))])
        case 45..<70:
            customers[c].imageCount += 1
            let hash = hex16(rng.next()) + hex16(rng.next()) + hex16(rng.next()) + hex16(rng.next())
            command(
                "account.change-image", as: id, role: .customer,
                [(account, ProfileImageChanged(userId: id, contentHash: hash, byteSize: rng.int64(20_000...1_500_000)))])
        case 70..<90:
            command(
                "account.request-password-reset", as: id, role: .customer,
                [(account, PasswordResetRequested(userId: id, email: customers[c].email))])
        case 90..<98:
            customers[c].emailChanges += 1
            let old = customers[c].email
            let new = "\(customers[c].emailChanges).\(old.split(separator: "@")[0])@post.example"
            customers[c].email = new
            let reauth = Timestamp(microsecondsSinceEpoch: now - rng.int64((10 * Self.second)...(4 * Self.minute)))
            command(
                "account.change-email", as: id, role: .customer,
                [
                    (account, EmailChanged(userId: id, oldEmail: old, newEmail: new, reauthenticatedAt: reauth)),
                    (Streams.email(new), EmailClaimed(email: new, userId: id)),
                    (Streams.email(old), EmailReleased(email: old, userId: id)),
                ])
        default:
            let reauth = Timestamp(microsecondsSinceEpoch: now - rng.int64((10 * Self.second)...(4 * Self.minute)))
            command(
                "account.delete", as: id, role: .customer,
                [
                    (account, AccountDeleted(userId: id, reauthenticatedAt: reauth)),
                    (Streams.email(customers[c].email), EmailReleased(email: customers[c].email, userId: id)),
                ])
            customers[c].deleted = true
            customers[c].currentSession = nil
        }
    }
}
