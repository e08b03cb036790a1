import Foundation
import PawtrailJSON
import Testing

/// Domain verbs and `exec` through the command line: options generated from fields, answers, exit statuses.
@Suite(.ownThreads) struct DomainCLITests {
    @Test func `a verb appends the decided events and prints them`() async throws {
        let cli = InProcessCLI()
        let out = await cli.run("account", "signup", "--as", "u-ann", "--name", "Ann", "--email", "Ann@Example.com", "--language", "bn-BD")
        #expect(out.status == 0)
        #expect(out.lines.first == "account.signup by customer 'u-ann': appended 3 events")
        #expect(out.stdout.contains(#"AccountSignedUp  {"userId":"u-ann","name":"Ann","email":"ann@example.com","language":"bn-BD"}"#))
        let read = await cli.run("log", "read", "--stream", "account-u-ann", "--json")
        let event = try JSONValue.parse(Array(read.lines[0].utf8))
        // The log holds the binary encoding; people and scripts see JSON.
        #expect(event["data"]?["email"] == .string("ann@example.com"))
        #expect(event["metadata"]?["command"] == .string("account.signup"))
        #expect(event["metadata"]?["actor"] == .string("u-ann"))
        #expect(event["metadata"]?["causationId"] != nil)
        #expect(event["metadata"]?["correlationId"] != nil)
    }

    @Test func `rejections print the domain error with its kind and exit status`() async throws {
        let cli = InProcessCLI()
        _ = await cli.run("account", "signup", "--as", "u-ann", "--name", "Ann", "--email", "ann@example.com")
        let taken = await cli.run("account", "signup", "--as", "u-bob", "--name", "Bob", "--email", "ann@example.com", "--json")
        #expect(taken.status == 1)
        #expect(taken.stderr == "Error: the email ann@example.com is already used by another account\n")
        #expect(
            taken.stdout
                == #"{"error":"already-exists","message":"the email ann@example.com is already used by another account","userMessage":"the email ann@example.com is already used by another account"}"#
                + "\n")
        // A customer who reads Bangla is refused in Bangla; the kind, the status and the English message stay.
        _ = await cli.run("account", "signup", "--as", "u-rina", "--name", "Rina", "--email", "rina@example.com", "--language", "bn-BD")
        let bangla = await cli.run("cart", "remove", "--as", "u-rina", "--product-id", "product_cat_001", "--json")
        #expect(bangla.status == 1 && bangla.stderr == "Error: পণ্য 'product_cat_001' কার্টে নেই\n", "\(bangla.stderr)")
        #expect(bangla.stdout.contains(#""error":"not-found","message":"product 'product_cat_001' is not in the cart","userMessage":"পণ্য 'product_cat_001' কার্টে নেই""#), "\(bangla.stdout)")
        let untranslated = await cli.run("pet", "add", "--as", "u-rina", "--pet-id", "p 1", "--name", "Mishti", "--species", "cat")
        #expect(untranslated.stderr.hasPrefix("Error: তথ্য ঠিক নেই (petId): "), "\(untranslated.stderr)")
        let invalid = await cli.run("account", "signup", "--as", "u-cat", "--name", "Cat", "--email", "nope")
        #expect(invalid.status == 65)
        #expect(invalid.stderr == "Error: invalid email: 'nope' is not an email address\n")
    }

    @Test func `option problems are usage errors naming the option`() async throws {
        let cli = InProcessCLI()
        let missing = await cli.run("account", "signup", "--as", "u-ann", "--name", "Ann")
        #expect(missing.status == 64)
        #expect(missing.stderr.hasPrefix("Error: missing expected argument '--email'\n"))
        let badChoice = await cli.run("account", "signup", "--as", "u-ann", "--name", "Ann", "--email", "a@b.co", "--language", "fr")
        #expect(badChoice.status == 64)
        #expect(badChoice.stderr.hasPrefix("Error: invalid value for '--language': 'fr' is not one of 'en-US', 'bn-BD'\n"))
        let badInt = await cli.run("cart", "add", "--as", "guest-1", "--product-id", "p", "--quantity", "two")
        #expect(badInt.status == 64)
        #expect(badInt.stderr.hasPrefix("Error: invalid value for '--quantity': 'two' is not an integer\n"))
        let noActor = await cli.run("cart", "add", "--product-id", "p")
        #expect(noActor.status == 64)
        #expect(noActor.stderr.hasPrefix("Error: missing expected argument '--as <user>'\n"))
    }

    @Test func `help lists the generated options`() async throws {
        let out = await InProcessCLI().run("cart", "add", "--help")
        #expect(out.status == 0)
        #expect(out.stdout.hasPrefix("OVERVIEW: Add units of a product to your cart.\n"))
        #expect(out.stdout.contains("USAGE: pawtrail cart add [--store <path>] --product-id <text> [--quantity <n>] --as <user>"))
        #expect(out.stdout.contains("  --product-id <text>"))
    }

    @Test func `exec skips a byte order mark at the start of its input, as a batch file does`() async throws {
        let dir = try TemporaryDirectory()
        let input = try dir.write("day.jsonl", "\u{FEFF}" + #"{"command":"account.signup","as":"u-ann","name":"Ann","email":"ann@example.com"}"# + "\n")
        let cli = InProcessCLI()
        let run = await cli.run("exec", input)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.hasPrefix(#"{"ok":true,"line":1,"command":"account.signup""#), "\(run.stdout)")
    }

    @Test func `exec answers one JSON line per command and keeps going after a failure`() async throws {
        let dir = try TemporaryDirectory()
        let input = try dir.write(
            "day.jsonl",
            """
            {"command":"account.signup","as":"u-ann","name":"Ann","email":"ann@example.com","now":"2026-12-01T08:00:00Z","commandId":"6f1c6b3e-0000-4000-8000-000000000001","correlationId":"signup-ann"}

            {"command":"account.signup","as":"u-bob","name":"Bob","email":"ann@example.com"}
            {"command":"cart.add","as":"guest-9","productId":"litter","quantity":2}
            {"command":"cart.add","as":"guest-9","productId":"litter","quantity":"lots"}
            {"command":"cart.ad","as":"guest-9"}
            {"command":"cart.add","as":"guest-9","productId":"litter","colour":"red"}
            not json
            """)
        let cli = InProcessCLI()
        // Carts take only listed products: an admin lists `litter` first.
        _ = await cli.run("account", "signup", "--as", "u-ada", "--name", "Ada", "--email", "ada@example.com")
        _ = await cli.run("admin", "bootstrap", "--as", "u-ada")
        let listed = await cli.run(
            "product", "add", "--as", "u-ada", "--product-id", "litter", "--name", "Cat Litter", "--price", "62000 BDT", "--category", "cat",
            "--image-ref", "img_litter")
        #expect(listed.status == 0)
        let out = await cli.run("exec", input)
        #expect(out.status == 1, "the first failure is a rejection (exit 1)")
        let answers = try out.lines.map { try JSONValue.parse(Array($0.utf8)) }
        #expect(answers.count == 7)
        #expect(answers.map { $0["line"] } == [1, 3, 4, 5, 6, 7, 8].map { JSONValue.int($0) })
        #expect(answers.map { $0["ok"] } == [true, false, true, false, false, false, false].map { JSONValue.bool($0) })
        #expect(answers.compactMap { $0["error"] } == ["already-exists", "invalid-command", "invalid-command", "invalid-command", "invalid-command"].map { JSONValue.string($0) })
        #expect(answers[3]["message"] == .string("field 'quantity': 'lots' is not an integer"))
        #expect(answers[4]["message"] == .string("unknown command 'cart.ad'; did you mean 'cart.add'?"))
        #expect(answers[5]["message"] == .string("field 'colour': is not a field of this value"))
        let first = try JSONValue.parse(Array(await cli.run("log", "read", "--stream", "account-u-ann", "--json").lines[0].utf8))
        #expect(first["metadata"]?["causationId"] == .string("6f1c6b3e-0000-4000-8000-000000000001"))
        #expect(first["metadata"]?["correlationId"] == .string("signup-ann"))
        #expect(first["metadata"]?["occurredAt"] == .string("2026-12-01T08:00:00.000000Z"))
    }

    @Test func `exec stops at the first failure when asked`() async throws {
        let dir = try TemporaryDirectory()
        let input = try dir.write(
            "x.jsonl",
            """
            {"command":"cart.add","as":"u-nobody","productId":"litter"}
            {"command":"cart.add","as":"guest-9","productId":"litter"}
            """)
        let out = await InProcessCLI().run("exec", "--stop-on-error", input)
        #expect(out.status == 1)
        #expect(out.lines.count == 1)
        #expect(out.stdout.contains(#""error":"forbidden","message":"user 'u-nobody' has no account""#))
    }

    @Test func `exec reads standard input through the real binary`() throws {
        let dir = try TemporaryDirectory()
        let out = try PawtrailProcess.run(
            ["--store", dir.path("store"), "exec"],
            stdin: """
                {"command":"account.signup","as":"u-ada","name":"Ada","email":"ada@example.com"}
                {"command":"admin.bootstrap","as":"u-ada"}
                {"command":"product.add","as":"u-ada","productId":"litter","name":"Cat Litter","price":"62000 BDT","category":"cat","imageRef":"img_litter"}
                {"command":"cart.add","as":"guest-1","productId":"litter","quantity":3}

                """)
        #expect(out.status == 0)
        #expect(out.stdout.contains(#""events":[{"position":5,"stream":"cart-guest-1","version":0,"type":"CartItemAdded","data":{"ownerId":"guest-1","productId":"litter","quantity":3}}]"#))
    }
}
