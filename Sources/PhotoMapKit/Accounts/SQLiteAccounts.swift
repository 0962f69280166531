// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The users, sessions and one-time sign-in links of one machine, in `{cache}/accounts.sqlite` (readable
/// by its owner only). Each call opens its own connection: a server's threads and the `users` command may
/// use the file at once (WAL, and SQLite's busy wait), and no connection is shared between threads.
public struct SQLiteAccounts: AccountStore {
    /// The database file.
    public let file: URL

    /// The accounts of the cache folder `cacheDirectory`.
    public init(cacheDirectory: URL) {
        file = cacheDirectory.appendingPathComponent("accounts.sqlite")
    }

    public func add(_ user: User, passwordHash: String) throws {
        try withDatabase { database in
            let existing = try database.prepare("SELECT 1 FROM users WHERE name = ?", [.text(user.name.text)])
            guard try !existing.step() else { throw AccountError.duplicate(user.name) }
            try database.prepare(
                "INSERT INTO users (name, role, password_hash, created) VALUES (?, ?, ?, ?)",
                [
                    .text(user.name.text), .text(user.role.rawValue), .text(passwordHash),
                    .integer(Int64(user.created.timeIntervalSince1970)),
                ]
            ).step()
        }
    }

    public func users() throws -> [User] {
        try withDatabase { database in
            let rows = try database.prepare("SELECT name, role, created FROM users ORDER BY name")
            var users: [User] = []
            while try rows.step() {
                if let user = Self.user(name: rows.text(0), role: rows.text(1), created: rows.integer(2)) {
                    users.append(user)
                }
            }
            return users
        }
    }

    public func user(named name: UserName) throws -> (user: User, passwordHash: String)? {
        try withDatabase { database in
            let row = try database.prepare(
                "SELECT name, role, created, password_hash FROM users WHERE name = ?", [.text(name.text)])
            guard try row.step(), let user = Self.user(name: row.text(0), role: row.text(1), created: row.integer(2))
            else { return nil }
            return (user, row.text(3))
        }
    }

    public func remove(_ name: UserName) throws -> Bool {
        try withDatabase { database in
            try database.transaction {
                try database.prepare("DELETE FROM sessions WHERE user_name = ?", [.text(name.text)]).step()
                try database.prepare("DELETE FROM users WHERE name = ?", [.text(name.text)]).step()
                return database.changes > 0
            }
        }
    }

    public func setPasswordHash(_ hash: String, for name: UserName) throws -> Bool {
        try withDatabase { database in
            try database.transaction {
                try database.prepare(
                    "UPDATE users SET password_hash = ? WHERE name = ?", [.text(hash), .text(name.text)]
                )
                .step()
                guard database.changes > 0 else { return false }
                try database.prepare("DELETE FROM sessions WHERE user_name = ?", [.text(name.text)]).step()
                return true
            }
        }
    }

    public func startSession(digest: String, for name: UserName, expires: Date) throws {
        try withDatabase { database in
            // Sessions that ended are forgotten as new ones start: the table holds only live ones and a few.
            try database.prepare(
                "DELETE FROM sessions WHERE expires < ?", [.integer(Int64(Date().timeIntervalSince1970))]
            )
            .step()
            try database.prepare(
                "INSERT INTO sessions (digest, user_name, expires) VALUES (?, ?, ?)",
                [.text(digest), .text(name.text), .integer(Int64(expires.timeIntervalSince1970))]
            ).step()
        }
    }

    public func session(digest: String, now: Date, renewedUntil: Date) throws -> Session? {
        try withDatabase { database in
            let row = try database.prepare(
                """
                SELECT s.expires, u.name, u.role, u.created FROM sessions s JOIN users u ON u.name = s.user_name
                WHERE s.digest = ?
                """, [.text(digest)])
            guard try row.step(), let expires = row.integer(0),
                let user = Self.user(name: row.text(1), role: row.text(2), created: row.integer(3))
            else { return nil }
            let ends = Date(timeIntervalSince1970: TimeInterval(expires))
            guard ends >= now else {
                try database.prepare("DELETE FROM sessions WHERE digest = ?", [.text(digest)]).step()
                return nil
            }
            guard renewedUntil.timeIntervalSince(ends) > 24 * 3600 else { return Session(user: user, expires: ends) }
            try database.prepare(
                "UPDATE sessions SET expires = ? WHERE digest = ?",
                [.integer(Int64(renewedUntil.timeIntervalSince1970)), .text(digest)]
            ).step()
            return Session(user: user, expires: renewedUntil)
        }
    }

    public func endSession(digest: String) throws {
        // Whether a row was there is no matter: the session is gone either way.
        _ = try withDatabase { database in
            try database.prepare("DELETE FROM sessions WHERE digest = ?", [.text(digest)]).step()
        }
    }

    public func addSignInLink(digest: String, expires: Date) throws {
        try withDatabase { database in
            try database.prepare(
                "DELETE FROM sign_in_links WHERE expires < ?", [.integer(Int64(Date().timeIntervalSince1970))]
            )
            .step()
            try database.prepare(
                "INSERT INTO sign_in_links (digest, expires) VALUES (?, ?)",
                [.text(digest), .integer(Int64(expires.timeIntervalSince1970))]
            ).step()
        }
    }

    public func takeSignInLink(digest: String, now: Date) throws -> Bool {
        try withDatabase { database in
            // Deleted whether or not it is still valid: a link is tried once.
            let row = try database.prepare(
                "DELETE FROM sign_in_links WHERE digest = ? RETURNING expires", [.text(digest)])
            guard try row.step(), let expires = row.integer(0) else { return false }
            return Date(timeIntervalSince1970: TimeInterval(expires)) >= now
        }
    }

    /// A row's user; nil for a role this photomap does not know (written by a newer one).
    private static func user(name: String, role: String, created: Int64?) -> User? {
        guard let name = UserName(name), let role = Role(rawValue: role) else { return nil }
        return User(name: name, role: role, created: Date(timeIntervalSince1970: TimeInterval(created ?? 0)))
    }

    /// Runs `body` on a connection to the file, made (mode 0600, tables and all) when it is not there.
    private func withDatabase<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        let manager = FileManager.default
        if !manager.fileExists(atPath: file.path) {
            do {
                try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw AccountError.unreadable(path: file.path, reason: "\(error.localizedDescription)")
            }
            // Made readable by its owner only before SQLite writes a byte: it holds password hashes.
            let descriptor = open(file.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            if descriptor >= 0 { close(descriptor) }
        }
        let database = try SQLiteDatabase(path: file.path)
        try database.execute(
            """
            PRAGMA journal_mode = WAL;
            CREATE TABLE IF NOT EXISTS users (name TEXT PRIMARY KEY, role TEXT NOT NULL,
                password_hash TEXT NOT NULL, created INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS sessions (digest TEXT PRIMARY KEY, user_name TEXT NOT NULL,
                expires INTEGER NOT NULL);
            CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_name);
            CREATE TABLE IF NOT EXISTS sign_in_links (digest TEXT PRIMARY KEY, expires INTEGER NOT NULL);
            """)
        return try body(database)
    }
}
