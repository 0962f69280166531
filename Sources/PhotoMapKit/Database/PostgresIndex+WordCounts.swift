// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// bm25's counts in PostgreSQL (migration 13): `index_word_rows` holds, for each word beginning, how many
/// records hold it, kept by the transaction that adds, replaces or removes records. Its row of the empty
/// word (`mark`, no beginning is empty) says the counts are kept: an older photomap still running empties
/// the whole table after each of its loads, so the mark gone means the counts are stale. A search then
/// counts its words itself and has them counted again apart (`healCounts`); a writer counts them again in
/// its own transaction.
extension PostgresIndex {
    /// The longest word beginning `index_word_rows` counts (migration 13); a longer query word is counted.
    static let countedLength = 32

    /// How long counting the records of a word the word index parses otherwise may take.
    static let countingSeconds = 60

    /// The word of the row saying the counts are kept (migration 13 writes it, as does every count from scratch).
    static let mark = ""

    /// The databases this process heals the counts of, one heal at a time each (other processes find the
    /// write lock taken).
    static let healing = Locked(Set<String>())

    /// A writer's statements, planned without JIT: their estimates (1,000 beginnings a record) make
    /// PostgreSQL compile them, 0.4–0.6 s for a batch of 10,000 records that takes about as long to count.
    static func planForBatches(_ connection: PostgresConnection) throws {
        try connection.execute("SET LOCAL jit = off")
    }

    /// Whether the counts are kept (the mark is there), read in the caller's transaction.
    static func countsKept(_ connection: PostgresConnection) throws -> Bool {
        try connection.execute("SELECT EXISTS (SELECT 1 FROM index_word_rows WHERE word = $1)", [.text(mark)])
            .text(0, 0) == "t"
    }

    /// Takes out the word beginnings of the records `out` selects and adds those of `in` (SQL queries giving
    /// each record's `words`, their parameters `values`) in one statement: each beginning's change summed
    /// over the batch and written once, a row whose count reaches 0 deleted. Under the write lock.
    static func countBeginnings(
        out: String? = nil, in added: String? = nil, _ connection: PostgresConnection, values: [PostgresValue] = []
    ) throws {
        let records = [
            out.map { "SELECT -1 AS sign, words FROM (\($0)) o (words)" },
            added.map { "SELECT 1 AS sign, words FROM (\($0)) i (words)" },
        ].compactMap { $0 }.joined(separator: " UNION ALL ")
        guard !records.isEmpty else { return }
        try connection.execute(
            """
            WITH change AS (
                SELECT word, sum(sign) AS records FROM (\(records)) r, index_word_beginnings(r.words) AS word
                GROUP BY word HAVING sum(sign) <> 0),
            gone AS (
                DELETE FROM index_word_rows w USING change c WHERE w.word = c.word AND w.records + c.records = 0
                RETURNING w.word)
            INSERT INTO index_word_rows (word, records)
            SELECT word, records FROM change WHERE word NOT IN (SELECT word FROM gone)
            ON CONFLICT (word) DO UPDATE SET records = index_word_rows.records + excluded.records
            """, values)
    }

    /// Counts every record's word beginnings from scratch, with the mark. Under the write lock.
    static func recountBeginnings(_ connection: PostgresConnection) throws {
        try connection.execute("SET LOCAL work_mem = '256MB'")
        try connection.execute("DELETE FROM index_word_rows")
        try connection.execute(
            """
            INSERT INTO index_word_rows (word, records)
            SELECT word, count(*) FROM index_records, index_word_beginnings(words) AS word GROUP BY word
            """)
        try connection.execute("INSERT INTO index_word_rows (word, records) VALUES ($1, 0)", [.text(mark)])
    }

    /// Counts the word beginnings again when they are stale, unless a writer holds the lock (it counts them
    /// itself) and `waiting` is false; true when it did. A search starts it apart, which a command's process
    /// ends before it is done (its server process may still hold the lock a moment); `db migrate` waits.
    @discardableResult
    public func healCounts(waiting: Bool = false) throws -> Bool {
        try pool.transaction { connection in
            try connection.liftTimeouts()
            let locked = try connection.execute(
                waiting ? "SELECT pg_advisory_xact_lock($1) IS NOT NULL" : "SELECT pg_try_advisory_xact_lock($1)",
                [.integer(Self.writeLock)])
            guard locked.text(0, 0) == "t", try !Self.countsKept(connection) else { return false }
            // A process that ends before the count does (a command's search) leaves the server counting
            // on, the lock held, unless it checks for its client (PostgreSQL 14 on).
            let checks = try connection.execute(
                "SELECT EXISTS (SELECT 1 FROM pg_settings WHERE name = 'client_connection_check_interval')")
            if checks.text(0, 0) == "t" { try connection.execute("SET LOCAL client_connection_check_interval = '1s'") }
            try Self.planForBatches(connection)
            try Self.recountBeginnings(connection)
            return true
        }
    }

    /// `healCounts` on another thread, unless one runs already: counting ten million records takes
    /// minutes, more than a search may wait. One that fails is tried again by the next search finding
    /// the counts stale.
    private func healCountsApart() {
        let pool = pool, database = pool.address.description
        guard Self.healing.withLock({ $0.insert(database).inserted }) else { return }
        DispatchQueue.global(qos: .utility).async {
            defer { _ = Self.healing.withLock { $0.remove(database) } }
            _ = try? PostgresIndex(pool: pool).healCounts()
        }
    }

    /// The records and tokens in all, and how many records hold a word beginning with each of `words`
    /// (bm25's N, the average length, and each word's n), read from the totals kept as records change, in
    /// one statement (one snapshot). A word the word index would not keep as itself (one of several
    /// lexemes, or none) or longer than `countedLength` is counted instead, as every search counted before
    /// migration 13, and so is every word while the counts are stale (their heal started).
    func wordCounts(_ words: [String], _ connection: PostgresConnection) throws -> (
        records: Double, tokens: Double, counts: [Int]
    ) {
        let rows = try connection.execute(
            """
            SELECT t.records, t.tokens, coalesce(w.records, 0),
                char_length(q.word) <= \(Self.countedLength)
                    AND tsvector_to_array(to_tsvector('simple', q.word)) = ARRAY[q.word],
                EXISTS (SELECT 1 FROM index_word_rows m WHERE m.word = $2)
            FROM index_totals t CROSS JOIN jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS q(word, position)
            LEFT JOIN index_word_rows w ON w.word = q.word ORDER BY q.position
            """, [.text(try JSONOutput.text(words)), .text(Self.mark)])
        let kept = rows.count > 0 && rows.text(0, 4) == "t"
        if !kept { healCountsApart() }
        var counts: [Int] = []
        for (row, word) in words.enumerated() {
            if kept, row < rows.count, rows.text(row, 3) == "t" {
                counts.append(try rows.integer(row, 2) ?? 0)
                continue
            }
            // Counting a word in half of ten million records takes seconds; it may outlast a request's
            // statement timeout.
            counts.append(
                try connection.transaction {
                    try connection.execute("SET LOCAL statement_timeout = '\(Self.countingSeconds)s'")
                    return try connection.execute(
                        "SELECT count(*) FROM index_records WHERE words @@ to_tsquery('simple', $1)",
                        [.text(Self.prefixQuery([word]))]
                    ).integer(0, 0) ?? 0
                })
        }
        guard rows.count > 0 else { return (0, 0, counts) }
        return (Double(try rows.integer(0, 0) ?? 0), Double(try rows.integer(0, 1) ?? 0), counts)
    }
}
