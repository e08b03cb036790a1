import EventLog
import EventLogFile
import Foundation
import PawtrailJSON
import Testing

/// `account delete` erases: the account's personal fields are sealed under its key from the start, and deletion
/// destroys the key and the copies derived from them, so no byte of them is left in the store directory, while
/// the log stays whole and the read models still audit clean.
@Suite(.ownThreads) struct CryptoShreddingProcessTests {
    static let needles = ["Annapurna Quokkaby", "annapurna@quokka.example", "1711 424242", "17 Wombat Row", "leave it with the marmot", "marmot has it"]

    /// The files of the store directory that hold any of the needles.
    static func filesHolding(_ needles: [String], in directory: String) throws -> [String] {
        var found: [String] = []
        let enumerator = try #require(FileManager.default.enumerator(atPath: directory))
        while let relative = enumerator.nextObject() as? String {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                let data = FileManager.default.contents(atPath: path)
            else { continue }
            let bytes = [UInt8](data)
            if needles.contains(where: { bytes.firstRange(of: Array($0.utf8)) != nil }) { found.append(relative) }
        }
        return found.sorted()
    }

    /// The events of the log as the file store holds them, beneath the sealing layer (segments are compressed, so a
    /// grep of the files alone would not see what they hold).
    static func rawEventsHolding(_ needles: [String], in store: String) async throws -> [UInt64] {
        let raw = try FileEventStore.open(path: store, options: FileEventStoreOptions())
        defer { raw.close() }
        let batch = try await raw.read(ReadRequest(source: .all, from: 0, limit: 10_000))
        return batch.events.filter { e in needles.contains { e.data.firstRange(of: Array($0.utf8)) != nil } }.map(\.position)
    }

    @Test func `after deletion no byte of the personal fields is left in the store, and the log and read models stay sound`() async throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("store")
        let setup = [
            #"{"command":"account.signup","as":"u-ada","name":"Ada","email":"ada@shop.example"}"#,
            #"{"command":"admin.bootstrap","as":"u-ada"}"#,
            #"{"command":"account.signup","as":"u-sam","name":"Sam","email":"sam@shop.example"}"#,
            #"{"command":"role.grant","as":"u-ada","userId":"u-sam","role":"staff"}"#,
            #"{"command":"account.signup","as":"u-ann","name":"Annapurna Quokkaby","email":"annapurna@quokka.example"}"#,
            #"{"command":"account.update-profile","as":"u-ann","phone":"+880 1711 424242","address":"17 Wombat Row"}"#,
            #"{"command":"account.signup","as":"u-bob","name":"Bob Bilby","email":"bob@bilby.example"}"#,
            #"{"command":"catalog.seed","as":"u-ada"}"#,
            #"{"command":"pet.add","as":"u-ann","petId":"rex","name":"Rex","species":"dog"}"#,
            #"{"command":"booking.request","as":"u-ann","bookingId":"b-1","petId":"rex","service":"bath","slot":"2030-01-02T10:00:00Z"}"#,
            #"{"command":"cart.add","as":"u-ann","productId":"product_cat_001","quantity":1}"#,
            #"{"command":"order.place","as":"u-ann","orderId":"o-1","deliveryAddress":"17 Wombat Row","deliverySlot":"2030-01-01T10:00:00Z","recipientName":"Annapurna Quokkaby","recipientPhone":"+880 1711 424242","payment":"cash"}"#,
            #"{"command":"conversation.start","as":"u-ann","conversationId":"c-1","subject":"order","subjectId":"o-1"}"#,
            #"{"command":"conversation.send","as":"u-ann","conversationId":"c-1","clientMessageId":"m-1","text":"Please leave it with the marmot"}"#,
            #"{"command":"conversation.send","as":"u-sam","conversationId":"c-1","clientMessageId":"m-2","text":"The marmot has it"}"#,
            #"{"command":"account.request-password-reset","as":"u-ann"}"#,
        ]
        let exec = try PawtrailProcess.run(["--store", store, "exec", "-"], stdin: setup.joined(separator: "\n") + "\n")
        #expect(exec.status == 0, "\(exec.stdout)\(exec.stderr)")
        #expect(try await Self.rawEventsHolding(Self.needles, in: store).isEmpty, "the log holds personal fields sealed from the start")
        let rebuild = try PawtrailProcess.run(["--store", store, "projections", "rebuild", "--all"])
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        // The directory's search builds the personal index, the one place beside the log with values in the clear.
        let found = try PawtrailProcess.run(["--store", store, "view", "customers", "--search", "quokkaby"])
        #expect(found.status == 0 && found.stdout.contains("u-ann") && found.stdout.contains("1 account,"), "\(found.stdout)")
        let before = try Self.filesHolding(Self.needles, in: store)
        #expect(before.contains { $0.hasPrefix("projections/personal-index.sqlite") }, "the personal index holds them before: \(before)")
        let exportBefore = try PawtrailProcess.run(["--store", store, "projections", "export", "--sqlite", dir.path("before.db")])
        #expect(try exportBefore.status == 0 && Self.filesHolding(Self.needles, in: dir.path("")).contains("before.db"), "an export holds them before")
        try FileManager.default.removeItem(atPath: dir.path("before.db"))
        // The read models keep tokens, which their views open from the log: no copy in them.
        #expect(before.filter { $0.hasPrefix("projections/") }.allSatisfy { $0.hasPrefix("projections/personal-index.sqlite") }, "\(before)")
        let orderBefore = try PawtrailProcess.run(["--store", store, "view", "order", "--id", "o-1", "--json"])
        #expect(orderBefore.stdout.contains("17 Wombat Row") && orderBefore.stdout.contains("Annapurna Quokkaby"), "\(orderBefore.stdout)")
        let threadBefore = try PawtrailProcess.run(["--store", store, "view", "conversation", "--id", "c-1", "--as", "u-sam"])
        #expect(threadBefore.stdout.contains("Please leave it with the marmot"), "\(threadBefore.stdout)")

        let deleted = try PawtrailProcess.run([
            "--store", store, "account", "delete", "--as", "u-ann", "--reauthenticated-at", Timestamp.now().iso8601,
        ])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("Ended: 1 pet(s) removed, their bookings cancelled; 1 order(s) not yet shipped cancelled."), "\(deleted.stdout)")
        #expect(deleted.stdout.contains("its snapshots and its directory entries removed."), "\(deleted.stdout)")
        #expect(!deleted.stdout.contains("rebuilt"), "no read model is rebuilt: \(deleted.stdout)")
        let gone = try PawtrailProcess.run(["--store", store, "view", "customers", "--search", "quokkaby"])
        #expect(gone.status == 0 && gone.stdout.contains("0 accounts,"), "\(gone.stdout)")
        let pastSearch = try PawtrailProcess.run(["--store", store, "view", "customers", "--search", "quokkaby", "--at-position", "30"])
        #expect(pastSearch.status == 0 && pastSearch.stdout.contains("0 accounts,"), "erased from the directory's past too: \(pastSearch.stdout)")
        let order = try PawtrailProcess.run(["--store", store, "view", "order", "--id", "o-1", "--json"])
        #expect(order.stdout.contains(#""status":"cancelled""#), "\(order.stdout)")
        let pet = try PawtrailProcess.run(["--store", store, "view", "pet", "--id", "rex", "--json"])
        #expect(pet.stdout.contains(#""removed":true"#), "\(pet.stdout)")
        let agenda = try PawtrailProcess.run(["--store", store, "view", "agenda", "--day", "2030-01-02"])
        #expect(agenda.stdout.contains("0 bookings in 0 slots (1 cancelled)"), "\(agenda.stdout)")
        let stock = try PawtrailProcess.run(["--store", store, "view", "inventory", "--json"])
        #expect(stock.status == 0 && !stock.stdout.isEmpty)

        #expect(try Self.filesHolding(Self.needles, in: store) == [], "no file of the store holds a personal field")
        #expect(try await Self.rawEventsHolding(Self.needles, in: store).isEmpty)
        // The read models' files are compressed: their history is checked through time travel, at every position
        // from the sign-up to the deletion.
        for position in [10, 11, 16, 24, 26] {
            let past = try PawtrailProcess.run(["--store", store, "view", "customer", "--id", "u-ann", "--at-position", "\(position)", "--json"])
            #expect(past.status == 0 && !Self.needles.contains { past.stdout.contains($0) }, "at \(position): \(past.stdout)")
            let history = try PawtrailProcess.run(["--store", store, "view", "order", "--id", "o-1", "--at-position", "\(position + 6)", "--json"])
            #expect(!Self.needles.contains { history.stdout.contains($0) }, "\(history.stdout)")
        }

        // Every read model's present state, written out uncompressed, holds none of them either.
        let export = try PawtrailProcess.run(["--store", store, "projections", "export", "--sqlite", dir.path("rm.db")])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try Self.filesHolding(Self.needles, in: dir.path("")).filter { $0.hasPrefix("rm.db") } == [], "the export holds none")

        let verify = try PawtrailProcess.run(["--store", store, "log", "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let audit = try PawtrailProcess.run(["--store", store, "projections", "audit"])
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")

        let read = try PawtrailProcess.run(["--store", store, "log", "read", "--stream", "account-u-ann", "--json"])
        #expect(read.status == 0)
        #expect(read.stdout.contains(#""name":"[erased]""#) && read.stdout.contains(#""address":"[erased]""#), "\(read.stdout)")
        let customer = try PawtrailProcess.run(["--store", store, "view", "customer", "--id", "u-ann", "--json"])
        #expect(customer.status == 0 && customer.stdout.contains("[erased]") && !customer.stdout.contains("Annapurna"), "\(customer.stdout)")
        let thread = try PawtrailProcess.run(["--store", store, "view", "conversation", "--id", "c-1", "--json", "--as", "u-sam"])
        #expect(thread.status == 0 && thread.stdout.contains("[erased]") && !thread.stdout.contains("marmot"), "\(thread.stdout)")
        let bob = try PawtrailProcess.run(["--store", store, "view", "customer", "--id", "u-bob", "--json"])
        #expect(bob.stdout.contains("Bob Bilby"))

        // The address is free again, and a new account's data is sealed under its own key.
        let again = try PawtrailProcess.run([
            "--store", store, "account", "signup", "--as", "u-ann2", "--name", "Annapurna Quokkaby", "--email", "annapurna@quokka.example",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        let newView = try PawtrailProcess.run(["--store", store, "view", "customer", "--id", "u-ann2", "--json"])
        #expect(newView.stdout.contains("Annapurna Quokkaby"))
        #expect(try await Self.rawEventsHolding(Self.needles, in: store).isEmpty)
    }
}
