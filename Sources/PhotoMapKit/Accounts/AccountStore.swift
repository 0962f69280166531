// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// One person who may sign in.
public struct User: Sendable, Equatable {
    public var name: UserName
    public var role: Role
    /// When `users add` made them.
    public var created: Date

    /// A user.
    public init(name: UserName, role: Role, created: Date) {
        self.name = name
        self.role = role
        self.created = created
    }
}

/// A signed-in session, as a store found it by its token's digest.
public struct Session: Sendable, Equatable {
    public var user: User
    /// When it ends unless used again.
    public var expires: Date
}

/// Where the people who may sign in, their sessions and the owner's one-time sign-in links are kept: the
/// cache folder's `accounts.sqlite` (`SQLiteAccounts`), or PostgreSQL (`PostgresAccounts`), which a fleet
/// behind nginx shares. Passwords arrive hashed (`PasswordHash`) and tokens as their digests
/// (`SecretToken.digest`): no store ever holds a secret that signs someone in.
public protocol AccountStore: Sendable {
    /// Adds a user; `AccountError.duplicate` when the name is taken.
    func add(_ user: User, passwordHash: String) throws
    /// Every user, by name.
    func users() throws -> [User]
    /// The user named `name` and their password's hash, or nil.
    func user(named name: UserName) throws -> (user: User, passwordHash: String)?
    /// Removes a user and ends their sessions; false when there was none.
    func remove(_ name: UserName) throws -> Bool
    /// Replaces a user's password hash and ends their sessions; false when there is no such user.
    func setPasswordHash(_ hash: String, for name: UserName) throws -> Bool

    /// Keeps a session of `name` under `digest`, ending at `expires`.
    func startSession(digest: String, for name: UserName, expires: Date) throws
    /// The session kept under `digest`, unless it ended before `now` (it is then deleted); one found is
    /// renewed to `renewedUntil` when that is later than its end by more than a day, so one in use lives on.
    func session(digest: String, now: Date, renewedUntil: Date) throws -> Session?
    /// Ends the session kept under `digest` (nothing when there is none).
    func endSession(digest: String) throws

    /// Keeps a one-time sign-in link's digest, valid until `expires`.
    func addSignInLink(digest: String, expires: Date) throws
    /// Takes the link kept under `digest`: true once, if it had not ended before `now`; never again.
    func takeSignInLink(digest: String, now: Date) throws -> Bool
}

extension AccountStore {
    /// How long a session lasts unless used.
    public static var sessionLifetime: TimeInterval { 30 * 24 * 3600 }
    /// How long the owner's one-time link may wait to be opened.
    public static var signInLinkLifetime: TimeInterval { 10 * 60 }
}
