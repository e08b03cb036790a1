import EventLog
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A client of PostgreSQL's frontend/backend protocol (version 3) over a socket of its own, for the connections libpq
/// is not needed for (``PostgresAddress/native``): loading libpq and the twenty libraries it links costs every
/// process about 6 ms, a third of a CLI command on PostgreSQL. Statements go as simple queries (text results) or as
/// Parse/Bind/Execute/Sync with binary parameters and results, as libpq's `PQexecParams` sends them. The socket is
/// owned once and closed in `deinit`; a failed read or write leaves the client broken (``isUsable`` false). Not for
/// use from two threads at once.
final class PostgresWire {
    let fd: Int32
    private var input: [UInt8] = []
    private var inputStart = 0
    /// What one `recv` reads into, before it joins `input`.
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    var isUsable = true
    private(set) var backendPID: Int32 = 0
    /// Notifications that arrived while a statement ran, not yet taken by ``waitForNotification(timeout:)``.
    var notified = false

    /// Why the wire client cannot connect where libpq could: the caller falls back to libpq.
    struct Unsupported: Error {
        var reason: String
    }

    /// Connects and logs in.
    ///
    /// - Parameter address: Where and as whom.
    /// - Throws: ``Unsupported`` when the server asks for an authentication this client does not speak (libpq then
    ///   connects instead); ``PostgresFailure`` when the server refuses or cannot be reached.
    init(_ address: PostgresAddress) throws {
        do {
            fd = try Self.open(address)
        } catch {
            // Not every property is set yet, so deinit will not run: the buffer is freed here. From the next line on
            // every property is set, and a throw runs deinit, which closes the socket and frees the buffer (doing it
            // here too would close a descriptor number another thread may have been given meanwhile).
            chunk.deallocate()
            throw error
        }
        var startup = MessageWriter()
        startup.int32(196_608)
        for (key, value) in address.startupParameters {
            startup.cString(key)
            startup.cString(value)
        }
        startup.byte(0)
        try send(startup.bytes(type: nil))
        try login(password: address.password)
    }

    deinit {
        defer { chunk.deallocate() }
        if isUsable {
            // Terminate, as libpq's PQfinish says goodbye; nothing to wait for.
            let bye = MessageWriter().bytes(type: UInt8(ascii: "X"))
            _ = bye.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        close(fd)
    }

    private func login(password: String?) throws {
        while true {
            let (type, body) = try receive()
            var r = MessageReader(body)
            switch type {
            case UInt8(ascii: "R"):
                let code = r.int32()
                switch code {
                case 0: continue
                case 3:
                    guard let password else { throw Unsupported(reason: "the server asks for a password and none was given") }
                    var m = MessageWriter()
                    m.cString(password)
                    try send(m.bytes(type: UInt8(ascii: "p")))
                default:
                    throw Unsupported(reason: "the server asks for authentication method \(code)")
                }
            case UInt8(ascii: "K"):
                backendPID = r.int32()
            case UInt8(ascii: "Z"):
                return
            case UInt8(ascii: "E"):
                throw Self.failure(body)
            default:
                continue
            }
        }
    }

    // MARK: - Statements

    /// Runs statements as one simple query and returns the last one's rows (text format), as libpq's `PQexec` does.
    ///
    /// - Parameter sql: The statements.
    /// - Returns: The last statement's rows.
    /// - Throws: ``PostgresFailure``: the first statement the server refused, or a lost connection.
    func simpleQuery(_ sql: String) throws(PostgresFailure) -> PostgresResult {
        var m = MessageWriter()
        m.cString(sql)
        try send(m.bytes(type: UInt8(ascii: "Q")))
        return try collect(copyData: nil)
    }

    /// Runs one statement with binary parameters and takes its rows in binary format, as `PQexecParams` does.
    ///
    /// - Parameters:
    ///   - sql: The statement.
    ///   - parameters: Their type OIDs and binary values (`nil`: NULL).
    /// - Returns: The rows.
    /// - Throws: ``PostgresFailure``.
    func query(_ sql: String, types: [UInt32], values: [[UInt8]?]) throws(PostgresFailure) -> PostgresResult {
        try send(Self.extendedMessages(sql, types: types, values: values))
        return try collect(copyData: nil)
    }

    /// Parse, Bind, Execute and Sync of one statement with binary parameters and results.
    static func extendedMessages(_ sql: String, types: [UInt32], values: [[UInt8]?]) -> [UInt8] {
        var out: [UInt8] = []
        var parse = MessageWriter()
        parse.cString("")
        parse.cString(sql)
        parse.int16(Int16(types.count))
        for t in types { parse.int32(Int32(bitPattern: t)) }
        out += parse.bytes(type: UInt8(ascii: "P"))
        var bind = MessageWriter()
        bind.cString("")
        bind.cString("")
        bind.int16(1)
        bind.int16(1)
        bind.int16(Int16(values.count))
        for v in values {
            if let v {
                bind.int32(Int32(v.count))
                bind.append(v)
            } else {
                bind.int32(-1)
            }
        }
        bind.int16(1)
        bind.int16(1)
        out += bind.bytes(type: UInt8(ascii: "B"))
        var execute = MessageWriter()
        execute.cString("")
        execute.int32(0)
        out += execute.bytes(type: UInt8(ascii: "E"))
        out += MessageWriter().bytes(type: UInt8(ascii: "S"))
        return out
    }

    /// Runs a `COPY ... FROM STDIN` and sends it the data.
    ///
    /// - Parameters:
    ///   - sql: The COPY statement.
    ///   - data: What to copy, in the statement's format.
    /// - Throws: ``PostgresFailure``.
    func copyIn(_ sql: String, data: [UInt8]) throws(PostgresFailure) {
        var m = MessageWriter()
        m.cString(sql)
        try send(m.bytes(type: UInt8(ascii: "Q")))
        _ = try collect(copyData: data)
    }

    /// Reads the responses to what was sent, up to ReadyForQuery: the last rows, or the first error. When the
    /// server asks for COPY data, sends `copyData` in chunks and ends it, unless `copySent` says it went ahead.
    func collect(copyData: [UInt8]?, copySent: Bool = false) throws(PostgresFailure) -> PostgresResult {
        var data: [UInt8] = []
        var fields: [Int] = []
        var columns = 0
        var failure: PostgresFailure?
        while true {
            let message: (type: UInt8, body: ArraySlice<UInt8>)
            message = try receive()
            let body = message.body
            switch message.type {
            case UInt8(ascii: "T"):
                // A new result: the last statement's rows are what a caller gets.
                data.removeAll(keepingCapacity: true)
                fields.removeAll(keepingCapacity: true)
                var r = MessageReader(body)
                columns = Int(r.int16())
            case UInt8(ascii: "D"):
                var r = MessageReader(body)
                let n = Int(r.int16())
                columns = n
                for _ in 0..<n {
                    let length = Int(r.int32())
                    fields.append(data.count)
                    fields.append(length)
                    if length > 0 { data.append(contentsOf: r.bytes(length)) }
                }
            case UInt8(ascii: "E"):
                if failure == nil { failure = Self.failure(body) }
            case UInt8(ascii: "G"):
                if !copySent { try sendCopy(copyData ?? []) }
            case UInt8(ascii: "A"):
                notified = true
            case UInt8(ascii: "Z"):
                if let failure { throw failure }
                return PostgresResult(data: data, fields: fields, columns: columns)
            default:
                continue
            }
        }
    }

    private func sendCopy(_ data: [UInt8]) throws(PostgresFailure) {
        var out: [UInt8] = []
        Self.appendCopyMessages(data, to: &out)
        try send(out)
    }

    /// CopyData messages of the data, in chunks, and CopyDone, appended to `out`: each chunk is copied once, straight
    /// behind its message header.
    static func appendCopyMessages(_ data: [UInt8], to out: inout [UInt8]) {
        out.reserveCapacity(out.count + data.count + (data.count >> 20 + 1) * 5 + 5)
        var sent = 0
        while sent < data.count {
            let n = min(1 << 20, data.count - sent)
            out.append(UInt8(ascii: "d"))
            withUnsafeBytes(of: Int32(n + 4).bigEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: data[sent..<(sent + n)])
            sent += n
        }
        out += MessageWriter().bytes(type: UInt8(ascii: "c"))
    }

    // MARK: - Messages and the socket

    func send(_ bytes: [UInt8]) throws(PostgresFailure) {
        // The pointer's closure rethrows untyped errors, so it hands back why it stopped instead.
        let failure: PostgresFailure? = bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if n < 0 {
                    if errno == EINTR { continue }
                    return .connectionLost("could not send to the server: \(String(cString: strerror(errno)))")
                }
                sent += n
            }
            return nil
        }
        if let failure {
            isUsable = false
            throw failure
        }
    }

    /// The type of the next message when it is whole in the buffer.
    func peekType() -> UInt8? {
        let available = input.count - inputStart
        guard available >= 5 else { return nil }
        let length = Int(UInt32(input[inputStart + 1]) << 24 | UInt32(input[inputStart + 2]) << 16 | UInt32(input[inputStart + 3]) << 8 | UInt32(input[inputStart + 4]))
        return available >= 1 + length ? input[inputStart] : nil
    }

    func receive() throws(PostgresFailure) -> (type: UInt8, body: ArraySlice<UInt8>) {
        while peekType() == nil {
            guard try fill() else {
                isUsable = false
                throw PostgresFailure.connectionLost("the server closed the connection")
            }
        }
        let type = input[inputStart]
        let length = Int(UInt32(input[inputStart + 1]) << 24 | UInt32(input[inputStart + 2]) << 16 | UInt32(input[inputStart + 3]) << 8 | UInt32(input[inputStart + 4]))
        let body = input[(inputStart + 5)..<(inputStart + 1 + length)]
        inputStart += 1 + length
        return (type, body)
    }

    /// Reads what the socket has; `false` at its end.
    func fill() throws(PostgresFailure) -> Bool {
        if inputStart > 0 && inputStart == input.count {
            input.removeAll(keepingCapacity: true)
            inputStart = 0
        } else if inputStart > 1 << 20 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
        while true {
            let n = recv(fd, chunk.baseAddress, chunk.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                isUsable = false
                throw PostgresFailure.connectionLost("could not read from the server: \(String(cString: strerror(errno)))")
            }
            input.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
            return n > 0
        }
    }

    static func failure(_ body: ArraySlice<UInt8>) -> PostgresFailure {
        var state = "?????"
        var message = "unknown error"
        var r = MessageReader(body)
        while let field = r.byteOrNil(), field != 0 {
            let value = r.cString()
            if field == UInt8(ascii: "C") { state = value }
            if field == UInt8(ascii: "M") { message = value }
        }
        return .statement(sqlstate: state, message: message)
    }
}
