import EventLog
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension PostgresWire {
    /// Opens a socket to the server: the Unix socket `.s.PGSQL.<port>` in a directory, or TCP to a host, within the
    /// address's connect timeout.
    static func open(_ address: PostgresAddress) throws -> Int32 {
        if address.host.hasPrefix("/") {
            let path = address.host + "/.s.PGSQL.\(address.port)"
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw PostgresFailure.connectionLost("socket: \(String(cString: strerror(errno)))") }
            var un = sockaddr_un()
            un.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: un.sun_path) else {
                close(fd)
                throw Unsupported(reason: "the socket path is too long")
            }
            withUnsafeMutableBytes(of: &un.sun_path) { $0.copyBytes(from: bytes) }
            let made = withUnsafePointer(to: &un) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard made == 0 else {
                let why = String(cString: strerror(errno))
                close(fd)
                throw PostgresFailure.connectionLost("connection to server on socket \"\(path)\" failed: \(why)")
            }
            return fd
        }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(address.host, String(address.port), &hints, &found) == 0, let first = found else {
            throw PostgresFailure.connectionLost("could not translate host name \"\(address.host)\" to an address")
        }
        defer { freeaddrinfo(found) }
        var why = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let a = next {
            next = a.pointee.ai_next
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), a.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            if connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) != 0 && errno != EINPROGRESS {
                why = String(cString: strerror(errno))
                close(fd)
                continue
            }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if poll(&p, 1, Int32(address.connectTimeoutSeconds * 1000)) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0 {
                why = error != 0 ? String(cString: strerror(error)) : "timeout expired"
                close(fd)
                continue
            }
            // Blocking from here on, as libpq's statements are; the server's statement timeout bounds them.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            return fd
        }
        throw PostgresFailure.connectionLost("connection to server at \"\(address.host)\", port \(address.port) failed: \(why)")
    }
}

/// A protocol message being built: its type byte, then its length (counting itself), then the body.
struct MessageWriter {
    private var body: [UInt8] = []

    mutating func byte(_ v: UInt8) { body.append(v) }
    mutating func int16(_ v: Int16) { withUnsafeBytes(of: v.bigEndian) { body.append(contentsOf: $0) } }
    mutating func int32(_ v: Int32) { withUnsafeBytes(of: v.bigEndian) { body.append(contentsOf: $0) } }
    mutating func append(_ bytes: some Collection<UInt8>) { body.append(contentsOf: bytes) }

    mutating func cString(_ s: String) {
        body.append(contentsOf: s.utf8)
        body.append(0)
    }

    /// The message (a startup message has no type byte).
    func bytes(type: UInt8?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 5)
        if let type { out.append(type) }
        withUnsafeBytes(of: Int32(body.count + 4).bigEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: body)
        return out
    }
}

/// Reads a message's body; reading past its end gives zeros, never a trap (a malformed message is then refused
/// by what it fails to say).
struct MessageReader {
    private let body: ArraySlice<UInt8>
    private var at: Int

    init(_ body: ArraySlice<UInt8>) {
        self.body = body
        at = body.startIndex
    }

    mutating func byteOrNil() -> UInt8? {
        guard at < body.endIndex else { return nil }
        defer { at += 1 }
        return body[at]
    }

    mutating func int16() -> Int16 {
        guard at + 2 <= body.endIndex else { return 0 }
        defer { at += 2 }
        return Int16(bitPattern: UInt16(body[at]) << 8 | UInt16(body[at + 1]))
    }

    mutating func int32() -> Int32 {
        guard at + 4 <= body.endIndex else { return 0 }
        defer { at += 4 }
        return Int32(bitPattern: UInt32(body[at]) << 24 | UInt32(body[at + 1]) << 16 | UInt32(body[at + 2]) << 8 | UInt32(body[at + 3]))
    }

    mutating func bytes(_ n: Int) -> ArraySlice<UInt8> {
        let end = min(at + n, body.endIndex)
        defer { at = end }
        return body[at..<end]
    }

    mutating func cString() -> String {
        let end = body[at...].firstIndex(of: 0) ?? body.endIndex
        defer { at = min(end + 1, body.endIndex) }
        return String(decoding: body[at..<end], as: UTF8.self)
    }
}
