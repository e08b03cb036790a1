public import EventLog
import Synchronization

/// Personal-data keys in memory, for tests and the in-memory store.
public final class MemoryPersonalDataKeys: PersonalDataKeys {
    private enum Entry { case key([UInt8]), destroyed }
    private let entries = Mutex<[String: Entry]>([:])

    /// Creates an empty key store.
    public init() {}

    public func key(for subject: String) async throws -> [UInt8]? {
        entries.withLock { if case .key(let k) = $0[subject] { return k } else { return nil } }
    }

    public func createKey(for subject: String, make: @Sendable () -> [UInt8]) async throws -> [UInt8]? {
        entries.withLock { entries in
            switch entries[subject] {
            case .key(let k): return k
            case .destroyed: return nil
            case nil:
                let k = make()
                entries[subject] = .key(k)
                return k
            }
        }
    }

    public func destroyKey(for subject: String) async throws {
        entries.withLock { $0[subject] = .destroyed }
    }
}
