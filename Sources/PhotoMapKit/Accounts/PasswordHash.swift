// SPDX-License-Identifier: Apache-2.0
import CSodium
import Dispatch

/// Passwords, kept only as Argon2id hashes in libsodium's string form (`$argon2id$v=19$m=65536,t=2,p=1$…`,
/// salt and cost inside), made by `crypto_pwhash_str` and checked by `crypto_pwhash_str_verify`.
///
/// The cost is libsodium's "interactive" one: 64 MiB and 2 passes, about 0.1 s on one core of these
/// machines. It is what libsodium advises for a sign-in someone waits for; a guess at a stolen hash costs
/// an attacker the same 64 MiB, which is what makes GPUs slow at it. At most `concurrentHashes` run at
/// once, so a crowd signing in holds 128 MiB, not 64 MiB a request.
public enum PasswordHash {
    /// The shortest password taken.
    public static let minimumLength = 10
    /// The longest (a bound on what is read and hashed; a passphrase fits easily).
    public static let maximumLength = 1_024
    /// Argon2id runs at once in this process.
    public static let concurrentHashes = 2

    private static let slots = DispatchSemaphore(value: concurrentHashes)

    /// Whether `password` has a length `hash` takes.
    public static func accepts(_ password: String) -> Bool {
        (minimumLength...maximumLength).contains(password.count) && password.utf8.count <= 4 * maximumLength
    }

    /// The Argon2id hash of `password`, with a fresh random salt.
    public static func hash(_ password: String) throws(AccountError) -> String {
        guard accepts(password) else { throw .passwordLength(minimum: minimumLength, maximum: maximumLength) }
        guard Sodium.ready else { throw .hashingFailed }
        var output = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
        slots.wait()
        let code = crypto_pwhash_str(
            &output, password, UInt64(password.utf8.count), UInt64(crypto_pwhash_opslimit_interactive()),
            crypto_pwhash_memlimit_interactive())
        slots.signal()
        guard code == 0 else { throw .hashingFailed }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` is the one `hash` was made from. A hash that is not libsodium's (damaged, or
    /// empty) matches nothing.
    public static func verify(_ password: String, against hash: String) -> Bool {
        guard Sodium.ready, password.utf8.count <= 4 * maximumLength else { return false }
        slots.wait()
        defer { slots.signal() }
        return crypto_pwhash_str_verify(hash, password, UInt64(password.utf8.count)) == 0
    }

    /// A stored hash no password matches: a user who cannot sign in with a password (yet).
    public static let locked = "!"

    /// The hash of a random password nobody knows: checked against for a name no user has, so an unknown
    /// name costs the same time as a wrong password and the answer's timing tells nothing.
    public static let unknownUserHash: String = {
        (try? hash(SecretToken.random().text)) ?? ""
    }()
}

/// libsodium started once per process (`sodium_init` is safe to call again; it must run before use).
enum Sodium {
    static let ready: Bool = sodium_init() >= 0
}
