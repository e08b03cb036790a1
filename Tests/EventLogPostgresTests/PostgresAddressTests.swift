@testable import EventLogPostgres
import Foundation
import PostgresTestSupport
import Testing

/// Which connection URIs the wire client serves, and what it reads from them; the rest go to libpq.
@Suite struct PostgresAddressTests {
    @Test func `a socket URI is read field by field, percent-decoded`() throws {
        let a = try #require(PostgresAddress.native("postgresql://ann:s%40cret@/shop?host=/tmp/pg%20sock&port=55433&application_name=till-2&options=-c%20synchronous_commit%3Dremote_apply", environment: [:]))
        #expect(a.host == "/tmp/pg sock")
        #expect(a.port == 55433)
        #expect(a.user == "ann")
        #expect(a.password == "s@cret")
        #expect(a.database == "shop")
        #expect(a.applicationName == "till-2")
        #expect(a.options == "-c synchronous_commit=remote_apply")
    }

    @Test func `defaults are libpq's: the Debian socket directory, port 5432, the database named for the user`() throws {
        let a = try #require(PostgresAddress.native("postgres://bob@", environment: [:]))
        #expect(a.host == "/var/run/postgresql")
        #expect(a.port == 5432)
        #expect(a.database == "bob")
        #expect(a.applicationName == "pawtrail")
        #expect(a.connectTimeoutSeconds == 5)
    }

    @Test func `TCP without TLS turned off, several hosts, session attributes, unknown parameters and PG variables go to libpq`() {
        let libpq = [
            "postgresql://db.example/shop",
            "postgresql://db.example/shop?sslmode=require",
            "postgresql://a,b/shop?target_session_attrs=read-write",
            "postgresql://@/shop?host=/tmp/a,/tmp/b",
            "postgresql:///shop?target_session_attrs=read-write",
            "postgresql:///shop?service=main",
            "postgresql://[::1]/shop?sslmode=disable",
            "postgresql://ann@/shop%zz",
            "host=/tmp dbname=shop",
        ]
        for url in libpq { #expect(PostgresAddress.native(url, environment: [:]) == nil, "\(url)") }
        #expect(PostgresAddress.native("postgresql:///shop", environment: ["PGPASSFILE": "/x"]) == nil)
        #expect(PostgresAddress.native("postgresql://db.example:6432/shop?sslmode=disable", environment: [:])?.port == 6432)
    }
}

/// A login the server refuses leaves no socket behind and closes nothing else.
@Suite struct PostgresWireLoginTests {
    @Test func `a refused login is an error, and the descriptors of the process stay as they were`() throws {
        let server = try PostgresTestServer.require()
        let missing = PostgresTestServer.database("pt_no_such_database", in: server)
        // A descriptor of our own, open across the failed logins: it must still be ours afterwards.
        let probe = open("/dev/null", O_RDONLY)
        defer { close(probe) }
        for _ in 0..<20 {
            #expect(throws: (any Error).self) { _ = try PostgresConnection(url: missing, schema: "public") }
        }
        #expect(fcntl(probe, F_GETFD) != -1, "a descriptor the failed logins did not own was closed")
    }
}
