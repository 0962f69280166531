// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The local search index in PostgreSQL with PostGIS, shared by every machine using the database:
/// each record's words folded as search folds them (`LocalIndex.queryWords`) in a `tsvector` with a GIN
/// index, its point in a `geography` with a GiST index, and its words prefixed with its grid cell in a
/// second GIN index. Searches are in `PostgresIndex+Search.swift`.
public final class PostgresIndex: SearchIndex {
    let pool: PostgresPool

    /// The index in `pool`'s database (migrated by `DatabaseSchema`).
    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// Writers take turns (the totals count each record once); readers never wait for them.
    static let writeLock = 0x7068_6f74_6f69_6478  // "photoidx"

    /// The columns a record is copied in by, in order.
    private static let columns: [(name: String, type: String)] = [
        ("kind", "text"), ("id", "text"), ("title", "text"), ("subtitle", "text"), ("latitude", "double precision"),
        ("longitude", "double precision"), ("thumbnail", "text"), ("image", "text"), ("owner", "text"),
        ("taken", "text"), ("count", "integer"), ("page", "text"), ("license_id", "text"), ("license_name", "text"),
        ("license_url", "text"), ("origin", "text"), ("body", "text"), ("tokens", "integer"), ("photo", "bytea"),
        ("cell_words", "tsvector"),
    ]

    public func add(_ records: [IndexRecord], origin: String) throws {
        try load(records, origin: origin)
    }

    /// The secondary indexes, made again after a load into an empty table.
    private static let indexes = [
        "CREATE INDEX index_records_words ON index_records USING gin (words)",
        "CREATE INDEX index_records_location ON index_records USING gist (location)",
        "CREATE INDEX index_records_origin ON index_records (origin)",
        "CREATE INDEX index_records_cell_words ON index_records USING gin (cell_words)",
    ]

    /// Adds or replaces `records` in one transaction, streamed through one `COPY` however many they are
    /// (the last of each kind and id wins, as one upsert after another would). Into an empty index the
    /// rows go before its GIN and GiST indexes are made, several times faster than keeping them up to
    /// date row by row, and in the order of their points' geohash: the rows of one circle then share a
    /// few pages instead of each being on its own.
    public func load(_ records: some Sequence<IndexRecord>, origin: String) throws {
        let names = Self.columns.map(\.name).joined(separator: ", ")
        try pool.transaction { connection in
            try connection.liftTimeouts()
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(Self.writeLock)])
            try Self.planForBatches(connection)
            try connection.execute(
                "CREATE TEMPORARY TABLE incoming (ordinal bigserial, "
                    + Self.columns.map { "\($0.name) \($0.type)" }.joined(separator: ", ") + ") ON COMMIT DROP")
            try connection.copy(
                "COPY incoming (\(names)) FROM STDIN", rows: records.lazy.map { Self.copyRow($0, origin) })
            let latest = "SELECT DISTINCT ON (kind, id) \(names) FROM incoming ORDER BY kind, id, ordinal DESC"
            // Only the table's owner may drop and make its indexes; a serving role (deploy/roles.sql) adds rows.
            let emptyAndOwned = try connection.execute(
                """
                SELECT NOT EXISTS (SELECT 1 FROM index_records)
                    AND pg_has_role((SELECT relowner FROM pg_class WHERE oid = 'index_records'::regclass), 'USAGE')
                """
            ).text(0, 0)
            if emptyAndOwned == "t" {
                try connection.execute(
                    "DROP INDEX index_records_words, index_records_location, index_records_origin, index_records_cell_words"
                )
                try connection.execute(
                    """
                    WITH added AS (INSERT INTO index_records (\(names)) SELECT \(names) FROM (\(latest)) l
                        ORDER BY ST_GeoHash(ST_SetSRID(ST_MakePoint(longitude, latitude), 4326), 8) RETURNING tokens)
                    UPDATE index_totals SET records = (SELECT count(*) FROM added),
                        tokens = (SELECT coalesce(sum(tokens), 0) FROM added)
                    """)
                for statement in Self.indexes { try connection.execute(statement) }
                try connection.execute("ANALYZE index_records")
                try Self.recountBeginnings(connection)
            } else {
                try connection.execute("CREATE TEMPORARY TABLE latest ON COMMIT DROP AS \(latest)")
                // Its real size, so the totals' join below looks its keys up rather than read every record.
                try connection.execute("ANALYZE latest")
                let kept = try Self.countsKept(connection)
                // The totals count a replaced record once, with its new length.
                try connection.execute(
                    """
                    UPDATE index_totals SET
                        records = records + (SELECT count(*) FROM latest i WHERE NOT EXISTS
                            (SELECT 1 FROM index_records r WHERE r.kind = i.kind AND r.id = i.id)),
                        tokens = tokens + (SELECT coalesce(sum(tokens), 0) FROM latest)
                            - (SELECT coalesce(sum(r.tokens), 0) FROM index_records r JOIN latest i USING (kind, id))
                    """)
                // A replaced record's words counted out, its new ones in (the words the row will make), at once.
                if kept {
                    try Self.countBeginnings(
                        // Each by its key: a join may read every record, for 10,000 of millions.
                        out:
                            "SELECT (SELECT r.words FROM index_records r WHERE r.kind = l.kind AND r.id = l.id) FROM latest l",
                        in: "SELECT to_tsvector('simple', body) FROM latest", connection)
                }
                try connection.execute(
                    """
                    INSERT INTO index_records (\(names)) SELECT \(names) FROM latest
                    ON CONFLICT (kind, id) DO UPDATE SET
                    """ + " "
                        + Self.columns.dropFirst(2).map { "\($0.name) = excluded.\($0.name)" }.joined(separator: ", "))
                if !kept { try Self.recountBeginnings(connection) }
            }
        }
    }

    /// A record as a row of `COPY … FROM STDIN` in `columns`' order, made in one string (a load sends millions).
    private static func copyRow(_ record: IndexRecord, _ origin: String) -> String {
        let annotation = record.annotation
        let words = LocalIndex.queryWords(record.text)
        var row = ""
        row.reserveCapacity(256)
        func put(_ escaped: String, last: Bool = false) {
            row += escaped
            row += last ? "\n" : "\t"
        }
        func field(_ value: String?, last: Bool = false) { put(PostgresConnection.copyField(value), last: last) }
        field(annotation.kind.rawValue)
        field(annotation.id)
        field(annotation.title)
        field(annotation.subtitle)
        field(annotation.coordinate.map { String($0.latitude) })
        field(annotation.coordinate.map { String($0.longitude) })
        field(annotation.thumbnailURL)
        field(annotation.imageURL)
        field(annotation.owner)
        field(annotation.dateTaken)
        field(annotation.photoCount.map(String.init))
        field(annotation.pageURL)
        field(annotation.license?.id)
        field(annotation.license?.name)
        field(annotation.license?.url)
        field(origin)
        field(words.joined(separator: " "))
        // A located record's length counts its grid cell's token too, as SQLite's FTS5 table does.
        field(String(words.count + (annotation.coordinate == nil ? 0 : 1)))
        put(PostgresValue.optional(record.encodedPhoto, PostgresValue.bytes).copyField)
        field(annotation.coordinate.flatMap { cellWords(words, $0) }, last: true)
        return row
    }

    /// `words` prefixed with the cell of `cellDegrees` holding `coordinate`, as a tsvector's text (each
    /// word cut to 200 letters, as migration 3 makes them for rows loaded before it); nil without words.
    /// Made byte by byte: a load makes one for each of millions of records.
    static func cellWords(_ words: [String], _ coordinate: Coordinate) -> String? {
        guard !words.isEmpty else { return nil }
        let cell =
            "'zc\(Int(((coordinate.latitude + 90) / cellDegrees).rounded(.down)))"
            + "x\(Int(((coordinate.longitude + 180) / cellDegrees).rounded(.down)))_"
        var text = ""
        text.reserveCapacity(words.count * (cell.utf8.count + 12))
        for word in words {
            if !text.isEmpty { text += " " }
            text += cell
            let letters = word.utf8.count <= 200 ? Substring(word) : Substring(word.unicodeScalars.prefix(200))
            if letters.utf8.contains(where: { $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: "\\") }) {
                text += letters.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''")
            } else {
                text += letters
            }
            text += "'"
        }
        return text
    }

    /// A row's annotation; nil without a coordinate or a known kind.
    static func annotation(_ rows: PostgresRows, _ row: Int) throws(DatabaseError) -> Annotation? {
        guard let latitude = try rows.real(row, 4), let longitude = try rows.real(row, 5),
            let coordinate = Coordinate(latitude: latitude, longitude: longitude),
            let kind = Annotation.Kind(rawValue: rows.text(row, 0) ?? "")
        else { return nil }
        return Annotation(
            kind: kind, id: rows.text(row, 1) ?? "", title: rows.text(row, 2) ?? "",
            subtitle: rows.text(row, 3) ?? "", coordinate: coordinate, photoCount: try rows.integer(row, 10),
            thumbnailURL: rows.text(row, 6), imageURL: rows.text(row, 7), owner: rows.text(row, 8),
            dateTaken: rows.text(row, 9), pageURL: rows.text(row, 11),
            license: rows.text(row, 12).map {
                License(
                    id: $0, name: rows.text(row, 13) ?? "",
                    url: rows.text(row, 14))
            })
    }

    public func photo(id: String) throws -> Photo? {
        let bytes = try pool.withConnection { connection in
            try connection.execute(
                "SELECT photo FROM index_records WHERE kind = 'photo' AND id = $1",
                [.text(id)], binaryResult: true
            ).bytes(0, 0)
        }
        return bytes.flatMap { try? JSONDecoder().decode(Photo.self, from: $0) }
    }

    public func count() throws -> Int {
        try pool.withConnection { try $0.execute("SELECT records FROM index_totals").integer(0, 0) ?? 0 }
    }

    public func marker(_ key: String) throws -> String? {
        try pool.withConnection {
            try $0.execute("SELECT value FROM index_markers WHERE key = $1", [.text(key)]).text(0, 0)
        }
    }

    public func setMarker(_ key: String, _ value: String) throws {
        try pool.withConnection { connection in
            try connection.execute(
                """
                INSERT INTO index_markers (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, [.text(key), .text(value)])
        }
    }

    public func remove(origin: String) throws {
        try pool.transaction { connection in
            try connection.liftTimeouts()
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(Self.writeLock)])
            try Self.planForBatches(connection)
            // The last origin's records gone, no word is held; else theirs are counted out.
            let others = try connection.execute(
                "SELECT EXISTS (SELECT 1 FROM index_records WHERE origin <> $1)", [.text(origin)]
            ).text(0, 0)
            try Self.delete(where: "origin = $1", [.text(origin)], countingOut: others == "t", connection)
            if others != "t" { try Self.recountBeginnings(connection) }
        }
    }

    public func remove(photos ids: [String], origin: String) throws {
        guard !ids.isEmpty else { return }
        try pool.transaction { connection in
            try connection.liftTimeouts()
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(Self.writeLock)])
            try Self.planForBatches(connection)
            try Self.delete(
                where: "kind = 'photo' AND origin = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))",
                [.text(origin), .text(try JSONOutput.text(ids))], connection)
        }
    }

    /// Deletes the records `which` selects (a condition on index_records, its parameters `values`), taken
    /// out of the totals and, unless `countingOut` is false (the caller counts again), out of the word
    /// counts (all counted again if an older photomap emptied them). Under the write lock, in the
    /// caller's transaction.
    private static func delete(
        where which: String, _ values: [PostgresValue], countingOut: Bool = true, _ connection: PostgresConnection
    ) throws {
        try connection.execute(
            """
            UPDATE index_totals t SET records = t.records - gone.records, tokens = t.tokens - gone.tokens
            FROM (SELECT count(*) AS records, coalesce(sum(tokens), 0) AS tokens FROM index_records WHERE \(which)) gone
            """, values)
        let kept = try countsKept(connection)
        if countingOut, kept {
            try countBeginnings(out: "SELECT words FROM index_records WHERE \(which)", connection, values: values)
        }
        try connection.execute("DELETE FROM index_records WHERE \(which)", values)
        if countingOut, !kept { try recountBeginnings(connection) }
    }

    /// Empties the index: records, totals, markers and word counts.
    func removeAll() throws {
        try pool.transaction { connection in
            try connection.liftTimeouts()
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(Self.writeLock)])
            // TRUNCATE is quicker and leaves no dead rows, but a serving role (deploy/roles.sql) may only DELETE.
            let mayTruncate =
                try connection.execute("SELECT has_table_privilege('index_records', 'TRUNCATE')").text(0, 0) == "t"
            try connection.execute(
                (mayTruncate
                    ? "TRUNCATE index_records, index_markers, index_word_rows"
                    : "DELETE FROM index_records; DELETE FROM index_markers; DELETE FROM index_word_rows")
                    + "; UPDATE index_totals SET records = 0, tokens = 0")
            try Self.recountBeginnings(connection)
        }
    }
}

/// The index in PostgreSQL, as `SearchIndexStore`: every handle shares the pool.
public struct PostgresIndexStore: SearchIndexStore {
    let pool: PostgresPool

    public func open() throws -> any SearchIndex { PostgresIndex(pool: pool) }

    public func openEmptied() throws -> any SearchIndex {
        let index = PostgresIndex(pool: pool)
        try index.removeAll()
        return index
    }

    public var description: String { "the database \(pool.address)" }
}
