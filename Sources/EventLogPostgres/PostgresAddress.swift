import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One server and one login, read from a connection URI, when the wire client (``PostgresWire``) can serve it: a Unix
/// socket, or TCP with `sslmode=disable`; one host; no session attributes to check. Everything else (TLS, several
/// hosts, `target_session_attrs=read-write`, service files, `PG*` environment variables, a parameter not known
/// here) is libpq's, which implements all of it.
struct PostgresAddress {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String
    var applicationName: String
    var options: String?
    var connectTimeoutSeconds: Int

    /// What the startup message sends.
    var startupParameters: [(String, String)] {
        var p = [("user", user), ("database", database), ("application_name", applicationName), ("client_encoding", "UTF8")]
        if let options { p.append(("options", options)) }
        return p
    }

    /// The parameters a URI may give that the wire client honours.
    private static let known: Set<String> = [
        "host", "port", "user", "password", "dbname", "application_name", "connect_timeout", "options", "sslmode", "target_session_attrs",
    ]

    /// The address a URI names, or `nil` when libpq must connect (see the type's summary).
    ///
    /// - Parameters:
    ///   - url: A `postgresql://` or `postgres://` URI.
    ///   - environment: The process environment (libpq reads `PG*` variables; any one of them sends the URI to it).
    static func native(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> PostgresAddress? {
        guard !environment.keys.contains(where: { $0.hasPrefix("PG") }) else { return nil }
        let rest: Substring
        if url.hasPrefix("postgresql://") {
            rest = url.dropFirst(13)
        } else if url.hasPrefix("postgres://") {
            rest = url.dropFirst(11)
        } else {
            return nil
        }
        let (main, query) = rest.firstIndex(of: "?").map { (rest[..<$0], rest[rest.index(after: $0)...]) } ?? (rest, "")
        let (authority, path) = main.firstIndex(of: "/").map { (main[..<$0], main[main.index(after: $0)...]) } ?? (main, "")
        var values: [String: String] = [:]
        var hostPart = authority
        // A malformed escape anywhere is libpq's to report.
        func set(_ key: String, _ text: Substring) -> Bool {
            guard let value = decoded(text) else { return false }
            values[key] = value
            return true
        }
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostPart = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                guard set("user", userInfo[..<colon]), set("password", userInfo[userInfo.index(after: colon)...]) else { return nil }
            } else {
                guard set("user", userInfo) else { return nil }
            }
        }
        guard !hostPart.contains(","), !hostPart.hasPrefix("[") else { return nil }
        if let colon = hostPart.firstIndex(of: ":") {
            guard set("host", hostPart[..<colon]), set("port", hostPart[hostPart.index(after: colon)...]) else { return nil }
        } else if !hostPart.isEmpty {
            guard set("host", hostPart) else { return nil }
        }
        if !path.isEmpty { guard set("dbname", path) else { return nil } }
        for pair in query.split(separator: "&") where !pair.isEmpty {
            guard let eq = pair.firstIndex(of: "="), let key = decoded(pair[..<eq]), let value = decoded(pair[pair.index(after: eq)...]),
                known.contains(key)
            else { return nil }
            values[key] = value
        }
        let host = values["host"].flatMap { $0.isEmpty ? nil : $0 } ?? "/var/run/postgresql"
        guard !host.contains(","), values["port"].map({ !$0.contains(",") }) ?? true else { return nil }
        guard let port = Int(values["port"] ?? "5432"), (1...65535).contains(port) else { return nil }
        if !host.hasPrefix("/"), values["sslmode"] != "disable" { return nil }
        if let attributes = values["target_session_attrs"], attributes != "any" { return nil }
        guard let user = values["user"].flatMap({ $0.isEmpty ? nil : $0 }) ?? currentUser() else { return nil }
        guard let timeout = Int(values["connect_timeout"] ?? "5"), timeout >= 0 else { return nil }
        return PostgresAddress(
            host: host, port: port, user: user, password: values["password"], database: values["dbname"].flatMap { $0.isEmpty ? nil : $0 } ?? user,
            applicationName: values["application_name"] ?? "pawtrail", options: values["options"],
            connectTimeoutSeconds: timeout == 0 ? 3600 : max(timeout, 2))
    }

    /// Percent-decoding as libpq does it (`+` stays `+`); `nil` for a malformed escape.
    static func decoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let utf8 = text.utf8
        while i < utf8.endIndex {
            let c = utf8[i]
            if c == UInt8(ascii: "%") {
                let h = utf8.index(after: i)
                guard h < utf8.endIndex, utf8.index(after: h) < utf8.endIndex,
                    let hi = hexValue(utf8[h]), let lo = hexValue(utf8[utf8.index(after: h)])
                else { return nil }
                bytes.append(hi << 4 | lo)
                i = utf8.index(h, offsetBy: 2)
            } else {
                bytes.append(c)
                i = utf8.index(after: i)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The user the process runs as, libpq's default user name.
    private static func currentUser() -> String? {
        guard let pw = getpwuid(geteuid()) else { return nil }
        return String(cString: pw.pointee.pw_name)
    }
}
