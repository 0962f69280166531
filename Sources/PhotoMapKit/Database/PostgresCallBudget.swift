// SPDX-License-Identifier: Apache-2.0
/// An API key's call budget as one row of PostgreSQL, refilled and taken from in one statement (the
/// row's lock makes it atomic), with the database's clock: every machine using the key draws on one
/// bucket, so together they stay under Flickr's limit.
public struct PostgresCallBudget: CallBudgetStore {
    let pool: PostgresPool
    /// The key's salted hash: the key itself is never stored.
    let keyHash: String

    /// The budget of `apiKey` in `pool`'s database.
    public init(pool: PostgresPool, apiKey: String) {
        self.pool = pool
        keyHash = Self.keyHash(apiKey)
    }

    public func take(_ tokens: Double, capacity: Double, refillPerSecond: Double) throws -> Double {
        try pool.withConnection { connection in
            // A clock set back refills nothing: the refill counts from the later of the two times.
            try connection.execute(
                """
                INSERT INTO call_budgets AS b (key_hash, tokens, updated_at) VALUES ($1, $2::float8 - $3::float8, clock_timestamp())
                ON CONFLICT (key_hash) DO UPDATE SET
                    tokens = least($2::float8, b.tokens
                        + greatest(extract(epoch FROM clock_timestamp() - b.updated_at), 0) * $4::float8) - $3::float8,
                    updated_at = greatest(clock_timestamp(), b.updated_at)
                RETURNING tokens
                """, [.text(keyHash), .double(capacity), .double(tokens), .double(refillPerSecond)]
            ).real(0, 0) ?? 0
        }
    }

    public var description: String { "the database \(pool.address)" }
}
