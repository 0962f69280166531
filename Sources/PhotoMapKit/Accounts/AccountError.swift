// SPDX-License-Identifier: Apache-2.0
/// What can go wrong with the people who may sign in.
public enum AccountError: Error, CustomStringConvertible, Sendable, Equatable {
    /// `users add` for a name already there.
    case duplicate(UserName)
    /// A name no user has.
    case unknownUser(UserName)
    /// A password shorter than `PasswordHash.minimumLength`, or longer than its maximum.
    case passwordLength(minimum: Int, maximum: Int)
    /// libsodium could not hash (out of memory for Argon2id's buffer) or start.
    case hashingFailed
    /// The accounts' file cannot be read or written.
    case unreadable(path: String, reason: String)

    /// What failed.
    public var description: String {
        switch self {
        case let .duplicate(name): "a user named '\(name)' exists already"
        case let .unknownUser(name): "there is no user named '\(name)'"
        case let .passwordLength(minimum, maximum): "a password must be \(minimum) to \(maximum) characters"
        case .hashingFailed: "the password could not be hashed (libsodium's Argon2id had no memory for it)"
        case let .unreadable(path, reason): "the users and sessions in \(path) cannot be read: \(reason)"
        }
    }
}
