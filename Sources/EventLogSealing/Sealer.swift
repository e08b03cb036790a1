import CSodium
import EventLog
public import Foundation

/// Seals and opens personal sections with libsodium: XChaCha20-Poly1305 under the subject's key, bound to the
/// event's id and subject as associated data, so a sealed section cannot be moved to another event.
///
/// The nonce is a keyed BLAKE2b hash of the event's id and the plain values: sealing is deterministic, so an
/// append retried with the same event id stores the same bytes and the store's idempotency check still holds, and
/// two different plaintexts under one key never share a nonce.
public enum Sealer {
    /// libsodium's one-time initialization, thread-safe and idempotent.
    private static let ready: Bool = sodium_init() >= 0

    /// The length of a key.
    public static let keyLength = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    static let nonceLength = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    static let tagLength = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)

    /// A new random key.
    public static func newKey() -> [UInt8] {
        precondition(ready, "libsodium failed to initialize")
        var key = [UInt8](repeating: 0, count: keyLength)
        key.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        return key
    }

    /// Seals plain values.
    ///
    /// - Parameters:
    ///   - values: The plain values.
    ///   - key: The subject's key.
    ///   - eventID: The event's id.
    ///   - subject: The subject.
    /// - Returns: The nonce and the ciphertext.
    public static func seal(_ values: [String], key: [UInt8], eventID: UUID, subject: String) -> (nonce: [UInt8], ciphertext: [UInt8]) {
        precondition(ready, "libsodium failed to initialize")
        let plain = PersonalSection.encode(values: values)
        let ad = associatedData(eventID: eventID, subject: subject)
        var nonce = [UInt8](repeating: 0, count: nonceLength)
        let nonceInput = ad + plain
        _ = nonce.withUnsafeMutableBufferPointer { out in
            crypto_generichash(out.baseAddress!, out.count, nonceInput, UInt64(nonceInput.count), key, key.count)
        }
        var ciphertext = [UInt8](repeating: 0, count: plain.count + tagLength)
        var written: UInt64 = 0
        _ = ciphertext.withUnsafeMutableBufferPointer { out in
            crypto_aead_xchacha20poly1305_ietf_encrypt(
                out.baseAddress!, &written, plain, UInt64(plain.count), ad, UInt64(ad.count), nil, nonce, key)
        }
        return (nonce, Array(ciphertext.prefix(Int(written))))
    }

    /// Opens sealed values.
    ///
    /// - Returns: The plain values, or `nil` when the ciphertext does not authenticate under this key, id and subject.
    public static func open(nonce: [UInt8], ciphertext: [UInt8], key: [UInt8], eventID: UUID, subject: String) -> [String]? {
        precondition(ready, "libsodium failed to initialize")
        guard nonce.count == nonceLength, ciphertext.count >= tagLength, key.count == keyLength else { return nil }
        let ad = associatedData(eventID: eventID, subject: subject)
        var plain = [UInt8](repeating: 0, count: ciphertext.count - tagLength)
        var written: UInt64 = 0
        let status = plain.withUnsafeMutableBufferPointer { out in
            crypto_aead_xchacha20poly1305_ietf_decrypt(
                out.baseAddress, &written, nil, ciphertext, UInt64(ciphertext.count), ad, UInt64(ad.count), nonce, key)
        }
        guard status == 0 else { return nil }
        return PersonalSection.decode(values: Array(plain.prefix(Int(written))))
    }

    /// A 256-bit BLAKE2b digest in lowercase hex: a name for a value that must not appear in the clear, such as an
    /// email address in the name of the stream that keeps it unique.
    ///
    /// - Parameter text: The value.
    /// - Returns: 64 hex digits.
    public static func digest(_ text: String) -> String {
        precondition(ready, "libsodium failed to initialize")
        let input = Array(text.utf8)
        var out = [UInt8](repeating: 0, count: 32)
        _ = out.withUnsafeMutableBufferPointer { o in crypto_generichash(o.baseAddress!, o.count, input, UInt64(input.count), nil, 0) }
        return LowercaseHex.encode(out)
    }

    private static func associatedData(eventID: UUID, subject: String) -> [UInt8] {
        var ad = withUnsafeBytes(of: eventID.uuid) { Array($0) }
        ad.append(contentsOf: subject.utf8)
        return ad
    }
}
