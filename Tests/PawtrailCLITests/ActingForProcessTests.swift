import Foundation
import Testing

/// Staff acting for a customer through the binary: `--for` on a verb and `"for"` in `exec`, told in the customer's
/// activity and the order's history.
@Suite(.ownThreads) struct ActingForProcessTests {
    @Test func `staff book and take a phone order for a customer, and both names are told`() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("store")
        func run(_ arguments: String...) throws -> CommandOutcome {
            try PawtrailProcess.run(["--store", store] + arguments)
        }
        let setup = [
            #"{"command":"account.signup","as":"u-ada","name":"Ada","email":"ada@shop.example"}"#,
            #"{"command":"admin.bootstrap","as":"u-ada"}"#,
            #"{"command":"account.signup","as":"u-sam","name":"Sam","email":"sam@shop.example"}"#,
            #"{"command":"role.grant","as":"u-ada","userId":"u-sam","role":"staff"}"#,
            #"{"command":"account.signup","as":"u-ann","name":"Ann","email":"ann@mail.example"}"#,
            #"{"command":"catalog.seed","as":"u-ada"}"#,
            #"{"command":"pet.add","as":"u-ann","petId":"rex","name":"Rex","species":"dog"}"#,
            #"{"command":"cart.add","as":"u-sam","for":"u-ann","productId":"product_cat_001","quantity":2}"#,
        ]
        let exec = try PawtrailProcess.run(["--store", store, "exec", "-"], stdin: setup.joined(separator: "\n") + "\n")
        #expect(exec.status == 0, "\(exec.stdout)\(exec.stderr)")

        let booked = try run(
            "booking", "request", "--as", "u-sam", "--for", "u-ann", "--pet-id", "rex", "--service", "bath",
            "--slot", "2030-01-02T10:00:00Z", "--json")
        #expect(booked.status == 0, "\(booked.stderr)")
        let placed = try run(
            "order", "place", "--as", "u-sam", "--for", "u-ann", "--order-id", "o-phone", "--delivery-address", "Road 1",
            "--delivery-slot", "2030-01-03T10:00:00Z", "--recipient-name", "Ann", "--recipient-phone", "+880 1711 100037",
            "--payment", "cash")
        #expect(placed.status == 0, "\(placed.stderr)")

        let history = try run("order", "history", "o-phone")
        #expect(history.stdout.contains("by u-sam (staff) for u-ann"), "\(history.stdout)")
        let activity = try run("view", "activity", "--user", "u-ann")
        #expect(activity.stdout.contains("(booked by staff u-sam for you)"), "\(activity.stdout)")
        #expect(activity.stdout.contains("(placed by staff u-sam for you)"), "\(activity.stdout)")

        let customer = try run("booking", "request", "--as", "u-ann", "--for", "u-sam", "--pet-id", "rex", "--service", "bath", "--slot", "2030-01-04T10:00:00Z")
        #expect(customer.status == 1 && customer.stderr.contains("only staff act for a customer"), "\(customer.stderr)")
        let help = try run("pet", "add", "--help")
        #expect(!help.stdout.contains("--for"), "only the verbs staff may run for a customer take --for")
        #expect(try run("booking", "request", "--help").stdout.contains("--for <user>"))
    }
}
