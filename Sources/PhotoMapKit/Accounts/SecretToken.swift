// SPDX-License-Identifier: Apache-2.0
import CSodium
import PhotoMapSupport

/// A random 256-bit secret from libsodium's CSPRNG (the kernel's getrandom), as 43 characters of
/// base64url without padding: session cookies, CSRF tokens, the owner's one-time sign-in link. Stores
/// keep only its SHA-256 (`digest`), so a copy of the database signs no one in.
public struct SecretToken: Sendable, Equatable {
    /// The token as sent (a cookie's value, a link's `token=`).
    public let text: String

    /// A fresh random token.
    public static func random() -> SecretToken {
        var bytes = [UInt8](repeating: 0, count: 32)
        // randombytes_buf reads the kernel's getrandom once sodium_init has run.
        _ = Sodium.ready
        randombytes_buf(&bytes, bytes.count)
        return SecretToken(verified: base64URL(bytes))
    }

    /// A token as a request carried it, or nil when it has not a token's shape (43 base64url characters).
    public init?(_ text: String) {
        guard text.utf8.count == 43,
            text.utf8.allSatisfy({ byte in
                Self.alphabet.utf8.contains(byte)
            })
        else { return nil }
        self.text = text
    }

    private init(verified text: String) {
        self.text = text
    }

    /// The SHA-256 of the token as hex: what a store keeps and looks up by.
    public var digest: String { SHA256.hex(text) }

    /// A second secret made from this one for `purpose` (a session's CSRF token): knowing it tells nothing
    /// of the token, and only someone holding the token could have made it.
    public func derived(_ purpose: String) -> String {
        Self.base64URL(SHA256.digest(Array("photomap \(purpose)\u{0}\(text)".utf8)))
    }

    /// Whether `a` and `b` are equal, in a time that depends only on their lengths.
    public static func same(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    private static func base64URL(_ bytes: [UInt8]) -> String {
        let digits = Array(alphabet.utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { output.append(digits[(value >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
