// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// Flickr's answers kept in PostgreSQL, shared by every machine using the database: a listing one
/// server fetched answers the others without a call. Rows are keyed by the hash of the request's key
/// (as files are named); an answer's age is its row's.
public struct PostgresAnswers: AnswerStore {
    let pool: PostgresPool
    public let timeToLive: TimeInterval

    /// Answers in `pool`'s database, fresh for `timeToLive` seconds.
    public init(pool: PostgresPool, timeToLive: TimeInterval) {
        self.pool = pool
        self.timeToLive = timeToLive
    }

    public func answer(for key: String, allowStale: Bool) -> Data? {
        let anyAge = allowStale || !timeToLive.isFinite
        return try? pool.withConnection { connection in
            try connection.execute(
                """
                SELECT body FROM kept_answers
                WHERE key = $1 AND ($2::boolean OR stored_at > now() - make_interval(secs => $3::double precision))
                """, [.text(SHA256.hex(key)), .bool(anyAge), .double(anyAge ? 0 : timeToLive)],
                binaryResult: true
            ).bytes(0, 0)
        }
    }

    public func store(_ answer: Data, for key: String) throws {
        try pool.withConnection { connection in
            try connection.execute(
                """
                INSERT INTO kept_answers (key, body, stored_at) VALUES ($1, $2, now())
                ON CONFLICT (key) DO UPDATE SET body = excluded.body, stored_at = excluded.stored_at
                """, [.text(SHA256.hex(key)), .bytes(answer)])
        }
    }

    /// In one transaction holding a lock on the key: the row's own lock cannot serve, as a listing's
    /// first two writers find no row to lock, so a transaction-scoped advisory lock on the key's hash
    /// does (waited for at most `lock_timeout`, like a row lock).
    public func update(_ key: String, _ merge: (Data?) throws -> Data?) throws {
        let hash = SHA256.hex(key)
        try pool.transaction { connection in
            try connection.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [.text(hash)])
            let kept = try connection.execute(
                "SELECT body FROM kept_answers WHERE key = $1", [.text(hash)], binaryResult: true
            ).bytes(0, 0)
            guard let merged = try merge(kept) else { return }
            try connection.execute(
                """
                INSERT INTO kept_answers (key, body, stored_at) VALUES ($1, $2, now())
                ON CONFLICT (key) DO UPDATE SET body = excluded.body, stored_at = excluded.stored_at
                """, [.text(hash), .bytes(merged)])
        }
    }

    public func remove(_ key: String) {
        _ = try? pool.withConnection {
            try $0.execute("DELETE FROM kept_answers WHERE key = $1", [.text(SHA256.hex(key))])
        }
    }

    /// The row's transaction id: every write of the row changes it.
    public func version(for key: String) -> String? {
        try? pool.withConnection {
            try $0.execute("SELECT xmin::text FROM kept_answers WHERE key = $1", [.text(SHA256.hex(key))]).text(0, 0)
        }
    }

    public func allAnswers() -> [Data] {
        let rows = try? pool.withConnection { try $0.execute("SELECT body FROM kept_answers", [], binaryResult: true) }
        return rows.map { rows in (0..<rows.count).compactMap { rows.bytes($0, 0) } } ?? []
    }

    public var description: String { "the database \(pool.address)" }
}
