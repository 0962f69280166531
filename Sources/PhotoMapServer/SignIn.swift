// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapKit

/// Signing people in and out of `serve`: checks a name and password (or the owner's one-time link)
/// against the accounts, slowed by the throttle, and keeps sessions by their tokens' digests. The clock
/// is given, so tests move time instead of waiting.
public final class SignIn: Sendable {
    /// What a sign-in came to.
    public enum Outcome: Sendable, Equatable {
        /// Signed in: the new session's token (the cookie's value) and who.
        case signedIn(SecretToken, User)
        /// A wrong name, password or link: all alike.
        case refused
        /// Too many failures: try again after this many seconds.
        case wait(seconds: Int)
    }

    /// Where the people and their sessions are kept.
    public let accounts: any AccountStore
    let throttle: SignInThrottle
    let clock: @Sendable () -> Date

    /// Sign-in over `accounts`, reading `clock` (the system's by default).
    public init(accounts: any AccountStore, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.accounts = accounts
        self.clock = clock
        throttle = SignInThrottle(clock: clock)
        // Made now, off the caller's thread, so that the first unknown name takes no longer than the others.
        DispatchQueue.global(qos: .utility).async { _ = PasswordHash.unknownUserHash }
    }

    /// Checks `name` and `password`, as the form sent them, from `address`. An unknown (or malformed) name
    /// is checked against a hash nobody's password makes, so it takes the time a wrong password does.
    public func signIn(name: String, password: String, from address: String) throws -> Outcome {
        let account = String(name.prefix(64))
        if case let .wait(seconds) = throttle.check(account: account, address: address) {
            return .wait(seconds: seconds)
        }
        let found = try UserName(name).flatMap { try accounts.user(named: $0) }
        let matches = PasswordHash.verify(password, against: found?.passwordHash ?? PasswordHash.unknownUserHash)
        guard let user = found?.user, matches else {
            throttle.failed(account: account, address: address)
            return .refused
        }
        throttle.succeeded(account: account)
        return .signedIn(try start(user), user)
    }

    /// Signs in as the owner with a one-time link's `token`: once, within its ten minutes.
    public func signIn(link token: String, from address: String) throws -> Outcome {
        let account = "(link)"
        if case let .wait(seconds) = throttle.check(account: account, address: address) {
            return .wait(seconds: seconds)
        }
        guard let token = SecretToken(token), try accounts.takeSignInLink(digest: token.digest, now: clock()),
            let owner = try accounts.users().first(where: { $0.role == .owner })
        else {
            throttle.failed(account: account, address: address)
            return .refused
        }
        return .signedIn(try start(owner), owner)
    }

    /// The session `token` names, if it is still open (renewed as it is used).
    public func session(_ token: SecretToken) throws -> Session? {
        let now = clock()
        return try accounts.session(
            digest: token.digest, now: now, renewedUntil: now.addingTimeInterval(SQLiteAccounts.sessionLifetime))
    }

    /// Ends the session `token` names.
    public func signOut(_ token: SecretToken) throws {
        try accounts.endSession(digest: token.digest)
    }

    /// A one-time sign-in link's token for the owner, kept (hashed) for ten minutes. When no user is the
    /// owner yet, `owner` is made one, with a password nobody knows (`users passwd owner` sets one); its
    /// name is handed back so the caller can say so.
    public func ownerLink() throws -> (token: SecretToken, madeOwner: UserName?) {
        var made: UserName?
        if try !accounts.users().contains(where: { $0.role == .owner }), let name = UserName("owner") {
            // "!" is no hash libsodium makes, so no password matches it (a locked password, as in /etc/shadow).
            try accounts.add(User(name: name, role: .owner, created: clock()), passwordHash: PasswordHash.locked)
            made = name
        }
        let token = SecretToken.random()
        try accounts.addSignInLink(
            digest: token.digest, expires: clock().addingTimeInterval(SQLiteAccounts.signInLinkLifetime))
        return (token, made)
    }

    private func start(_ user: User) throws -> SecretToken {
        let token = SecretToken.random()
        try accounts.startSession(
            digest: token.digest, for: user.name,
            expires: clock().addingTimeInterval(SQLiteAccounts.sessionLifetime))
        return token
    }
}
