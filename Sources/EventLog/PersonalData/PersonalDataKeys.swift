/// Where a store keeps the per-subject keys that seal personal data: beside the log, never in it, so that
/// destroying a key erases its subject's data while the log stays append-only.
///
/// # Conformance requirements
/// - A key, once created, is durable before ``createKey(for:)`` returns, and the same key is returned until it is
///   destroyed.
/// - After ``destroyKey(for:)`` returns, the key's bytes are gone from the backend, and the subject never gets a
///   key again: ``createKey(for:)`` returns `nil`, so data about an erased subject is never sealed readable.
public protocol PersonalDataKeys: Sendable {
    /// The subject's key.
    ///
    /// - Parameter subject: An account's id.
    /// - Returns: The 32-byte key, or `nil` when the subject has none or it was destroyed.
    /// - Throws: An I/O error of the backend.
    func key(for subject: String) async throws -> [UInt8]?

    /// The subject's key, created when it has none.
    ///
    /// - Parameters:
    ///   - subject: An account's id.
    ///   - make: Makes a new random key.
    /// - Returns: The key, or `nil` when the subject's key was destroyed.
    /// - Throws: An I/O error of the backend.
    func createKey(for subject: String, make: @Sendable () -> [UInt8]) async throws -> [UInt8]?

    /// Destroys the subject's key for good.
    ///
    /// - Parameter subject: An account's id.
    /// - Throws: An I/O error of the backend.
    func destroyKey(for subject: String) async throws
}
