/// Why a command was rejected, in the domain's words. Each case has a stable kind for scripts and an exit status.
public enum DomainError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A field's value is malformed or out of range (exit 65).
    case invalid(field: String, reason: String)
    /// The actor may not do this (exit 1).
    case forbidden(String)
    /// The thing the command names does not exist (exit 1).
    case notFound(String)
    /// The thing the command would create exists already (exit 1).
    case alreadyExists(String)
    /// The thing is in a state that does not allow the command; the message names the current state (exit 1).
    case invalidState(String)
    /// Not enough stock for one or more products (exit 1).
    case stockShort([StockShortage])
    /// Another business rule refused the command (exit 1).
    case rejected(String)
    /// Other writers kept changing the same streams; retrying later may succeed (exit 75).
    case conflict(String)

    /// The stable machine-readable kind (`stock-short`).
    public var kind: String {
        switch self {
        case .invalid: "invalid-command"
        case .forbidden: "forbidden"
        case .notFound: "not-found"
        case .alreadyExists: "already-exists"
        case .invalidState: "invalid-state"
        case .stockShort: "stock-short"
        case .rejected: "rejected"
        case .conflict: "conflict"
        }
    }

    public var description: String {
        switch self {
        case .invalid(let field, let reason): "invalid \(field): \(reason)"
        case .forbidden(let m), .notFound(let m), .alreadyExists(let m), .invalidState(let m), .rejected(let m),
            .conflict(let m):
            m
        case .stockShort(let lines):
            "not enough stock: "
                + lines.map { "\($0.productID) (available \($0.available), requested \($0.requested))" }
                .joined(separator: "; ")
        }
    }
}

/// One product a command wanted more of than is available.
public struct StockShortage: Hashable, Sendable {
    /// The product.
    public var productID: String
    /// Units available (on hand minus reserved) when the command was decided.
    public var available: Int64
    /// Units the command asked for.
    public var requested: Int64

    /// Creates a shortage.
    public init(productID: String, available: Int64, requested: Int64) {
        self.productID = productID
        self.available = available
        self.requested = requested
    }
}
