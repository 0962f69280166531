// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// The users, sessions and one-time sign-in links in PostgreSQL (migration 6), shared by every server of
/// a fleet: a session started through one instance is known to the others, and ended on all of them at
/// once. Times go as seconds since 1970 (`to_timestamp`), compared by the database.
public struct PostgresAccounts: AccountStore {
    let pool: PostgresPool

    /// The accounts of `pool`'s database.
    public init(pool: PostgresPool) {
        self.pool = pool
    }

    public func add(_ user: User, passwordHash: String) throws {
        let added = try pool.withConnection { connection in
            try connection.execute(
                """
                INSERT INTO users (name, role, password_hash, created) VALUES ($1, $2, $3, to_timestamp($4))
                ON CONFLICT (name) DO NOTHING RETURNING name
                """,
                [
                    .text(user.name.text), .text(user.role.rawValue), .text(passwordHash),
                    .double(user.created.timeIntervalSince1970),
                ]
            ).count
        }
        guard added == 1 else { throw AccountError.duplicate(user.name) }
    }

    public func users() throws -> [User] {
        let rows = try pool.withConnection { connection in
            try connection.execute(
                "SELECT name, role, extract(epoch FROM created)::float8 FROM users ORDER BY name COLLATE \"C\"")
        }
        return try (0..<rows.count).compactMap { row in
            try Self.user(rows.text(row, 0), rows.text(row, 1), rows.real(row, 2))
        }
    }

    public func user(named name: UserName) throws -> (user: User, passwordHash: String)? {
        let rows = try pool.withConnection { connection in
            try connection.execute(
                "SELECT name, role, extract(epoch FROM created)::float8, password_hash FROM users WHERE name = $1",
                [.text(name.text)])
        }
        guard rows.count == 1, let user = try Self.user(rows.text(0, 0), rows.text(0, 1), rows.real(0, 2)) else {
            return nil
        }
        return (user, rows.text(0, 3) ?? "")
    }

    public func remove(_ name: UserName) throws -> Bool {
        // The sessions go with the user (ON DELETE CASCADE).
        try pool.withConnection { connection in
            try connection.execute("DELETE FROM users WHERE name = $1 RETURNING name", [.text(name.text)]).count == 1
        }
    }

    public func setPasswordHash(_ hash: String, for name: UserName) throws -> Bool {
        try pool.transaction { connection in
            let changed = try connection.execute(
                "UPDATE users SET password_hash = $1 WHERE name = $2 RETURNING name", [.text(hash), .text(name.text)]
            ).count
            guard changed == 1 else { return false }
            try connection.execute("DELETE FROM sessions WHERE user_name = $1", [.text(name.text)])
            return true
        }
    }

    public func startSession(digest: String, for name: UserName, expires: Date) throws {
        try pool.transaction { connection in
            // Sessions that ended are forgotten as new ones start: the table holds only live ones and a few.
            try connection.execute("DELETE FROM sessions WHERE expires < clock_timestamp()")
            try connection.execute(
                "INSERT INTO sessions (digest, user_name, expires) VALUES ($1, $2, to_timestamp($3))",
                [.text(digest), .text(name.text), .double(expires.timeIntervalSince1970)])
        }
    }

    public func session(digest: String, now: Date, renewedUntil: Date) throws -> Session? {
        try pool.withConnection { connection in
            let rows = try connection.execute(
                """
                SELECT extract(epoch FROM s.expires)::float8, u.name, u.role, extract(epoch FROM u.created)::float8
                FROM sessions s JOIN users u ON u.name = s.user_name WHERE s.digest = $1
                """, [.text(digest)])
            guard rows.count == 1, let expires = try rows.real(0, 0),
                let user = try Self.user(rows.text(0, 1), rows.text(0, 2), rows.real(0, 3))
            else { return nil }
            let ends = Date(timeIntervalSince1970: expires)
            guard ends >= now else {
                try connection.execute("DELETE FROM sessions WHERE digest = $1", [.text(digest)])
                return nil
            }
            guard renewedUntil.timeIntervalSince(ends) > 24 * 3600 else { return Session(user: user, expires: ends) }
            try connection.execute(
                "UPDATE sessions SET expires = to_timestamp($1) WHERE digest = $2",
                [.double(renewedUntil.timeIntervalSince1970), .text(digest)])
            return Session(user: user, expires: renewedUntil)
        }
    }

    public func endSession(digest: String) throws {
        try pool.withConnection { connection in
            try connection.execute("DELETE FROM sessions WHERE digest = $1", [.text(digest)])
        }
    }

    public func addSignInLink(digest: String, expires: Date) throws {
        try pool.transaction { connection in
            try connection.execute("DELETE FROM sign_in_links WHERE expires < clock_timestamp()")
            try connection.execute(
                "INSERT INTO sign_in_links (digest, expires) VALUES ($1, to_timestamp($2))",
                [.text(digest), .double(expires.timeIntervalSince1970)])
        }
    }

    public func takeSignInLink(digest: String, now: Date) throws -> Bool {
        // Deleted whether or not it is still valid: a link is tried once, on whichever instance.
        let rows = try pool.withConnection { connection in
            try connection.execute(
                "DELETE FROM sign_in_links WHERE digest = $1 RETURNING extract(epoch FROM expires)::float8",
                [.text(digest)])
        }
        guard rows.count == 1, let expires = try rows.real(0, 0) else { return false }
        return Date(timeIntervalSince1970: expires) >= now
    }

    /// A row's user; nil for a role this photomap does not know (written by a newer one).
    private static func user(_ name: String?, _ role: String?, _ created: Double?) -> User? {
        guard let name = name.flatMap(UserName.init), let role = role.flatMap(Role.init(rawValue:)) else { return nil }
        return User(name: name, role: role, created: Date(timeIntervalSince1970: created ?? 0))
    }
}
