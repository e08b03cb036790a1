import Foundation
import PawtrailSQLite
import Testing

/// The personal index beside the read models: `projections status` shows it, `projections audit` compares it with
/// one made from the log and names what differs, `projections rebuild personal-index` (or `--all`) makes it anew.
@Suite(.ownThreads) struct PersonalIndexProcessTests {
    static func store(_ dir: TemporaryDirectory) throws -> String {
        let store = dir.path("store")
        let setup = [
            #"{"command":"account.signup","as":"u-ada","name":"Ada Lovelace","email":"ada@shop.example"}"#,
            #"{"command":"admin.bootstrap","as":"u-ada"}"#,
            #"{"command":"account.signup","as":"u-ann","name":"Ann Quokka","email":"ann@quokka.example"}"#,
            #"{"command":"account.update-profile","as":"u-ann","name":"Annapurna Quokka","phone":"+880 1711 424242"}"#,
            #"{"command":"account.signup","as":"u-bob","name":"Bob Bilby","email":"bob@bilby.example"}"#,
        ]
        let exec = try PawtrailProcess.run(["--store", store, "exec", "-"], stdin: setup.joined(separator: "\n") + "\n")
        #expect(exec.status == 0, "\(exec.stdout)\(exec.stderr)")
        return store
    }

    @Test func `status shows the index, audit finds a changed entry and a value left behind, and a rebuild mends both`() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(dir)
        let before = try PawtrailProcess.run(["--store", store, "projections", "status", "--json"])
        #expect(before.status == 0 && before.lines.last?.contains(#""projection":"personal-index","schemaVersion":1,"built":false"#) == true, "\(before.stdout)")

        let directory = try PawtrailProcess.run(["--store", store, "view", "customers", "--json"])
        #expect(directory.status == 0 && directory.stdout.contains("Annapurna Quokka"), "\(directory.stdout)\(directory.stderr)")
        let built = try PawtrailProcess.run(["--store", store, "projections", "status"])
        #expect(built.lines.last?.hasPrefix("personal-index") == true && built.lines.last?.contains("index") == true, "\(built.stdout)")
        let clean = try PawtrailProcess.run(["--store", store, "projections", "audit", "personal-index"])
        #expect(clean.status == 0 && clean.stdout.hasPrefix("personal-index: ok"), "\(clean.stdout)\(clean.stderr)")

        // A wrong sort key, and the values of an account that was never there, as a faulty erasure would leave them.
        do {
            let db = try SQLiteDatabase(path: store + "/projections/personal-index.sqlite", access: .readWrite)
            try db.execute("UPDATE entries SET sort_key = 'zzz' WHERE subject = 'u-ann' AND until IS NULL")
            try db.execute("INSERT INTO remembered VALUES (1, 'u-gone', 'Gone Person')")
        }
        let audit = try PawtrailProcess.run(["--store", store, "projections", "audit"])
        #expect(audit.status == 1, "\(audit.stdout)\(audit.stderr)")
        #expect(audit.stdout.contains("personal-index: 3 differences"), "\(audit.stdout)")
        #expect(audit.stdout.contains("entries[u-ann]: live sort key zzz;"), "\(audit.stdout)")
        #expect(audit.stdout.contains("remembered[1]: live Gone Person, rebuilt (missing)"), "\(audit.stdout)")
        let json = try PawtrailProcess.run(["--store", store, "projections", "audit", "personal-index", "--json"])
        #expect(json.lines.count == 1 && json.stdout.contains(#""ok":false"#), "\(json.stdout)")

        let rebuild = try PawtrailProcess.run(["--store", store, "projections", "rebuild", "personal-index"])
        #expect(rebuild.status == 0 && rebuild.stdout.hasPrefix("Rebuilt personal-index:"), "\(rebuild.stdout)\(rebuild.stderr)")
        let mended = try PawtrailProcess.run(["--store", store, "projections", "audit"])
        #expect(mended.status == 0 && mended.stdout.contains("personal-index: ok"), "\(mended.stdout)\(mended.stderr)")
    }

    @Test func `rebuild --all makes the index too, and a name that is neither a read model nor the index is refused`() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(dir)
        let all = try PawtrailProcess.run(["--store", store, "projections", "rebuild", "--all", "--json"])
        #expect(all.status == 0 && all.stdout.contains(#""customers","#) && all.stdout.contains(#""personal-index"]"#), "\(all.stdout)\(all.stderr)")
        let status = try PawtrailProcess.run(["--store", store, "projections", "status", "--json"])
        #expect(status.lines.last?.contains(#""built":true"#) == true && status.lines.last?.contains(#""lag":0"#) == true, "\(status.stdout)")
        let typo = try PawtrailProcess.run(["--store", store, "projections", "rebuild", "personal-indx"])
        #expect(typo.status == 64 && typo.stderr.contains("did you mean 'personal-index'?"), "\(typo.stderr)")
    }
}
