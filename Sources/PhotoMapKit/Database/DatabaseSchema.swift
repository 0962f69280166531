// SPDX-License-Identifier: Apache-2.0
/// photomap's tables in PostgreSQL, as numbered migrations. `migrate` (`photomap db migrate`, run by a
/// role that may create tables) applies those a database lacks, in one transaction under an advisory
/// lock: ten processes starting at once migrate once, and the others find the work done. Every other
/// command only `check`s the version, so it may run as a role with no right to create anything. A
/// database migrated by a newer photomap is refused, not guessed at.
public enum DatabaseSchema {
    /// Each migration's statements, version 1 first. Never edit one that has shipped: add the next.
    static let migrations: [String] = [
        """
        CREATE EXTENSION IF NOT EXISTS postgis;
        -- The local search index: words folded as search folds them, the tsvector and point made from them.
        CREATE TABLE index_records (
            kind text NOT NULL, id text NOT NULL, title text NOT NULL, subtitle text NOT NULL,
            latitude double precision, longitude double precision, thumbnail text, image text, owner text,
            taken text, count integer, page text, license_id text, license_name text, license_url text,
            origin text NOT NULL, body text NOT NULL, tokens integer NOT NULL, photo bytea,
            words tsvector GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED,
            location geography(Point, 4326) GENERATED ALWAYS AS (
                CASE WHEN latitude IS NULL OR longitude IS NULL THEN NULL
                ELSE ST_SetSRID(ST_MakePoint(longitude, latitude), 4326)::geography END) STORED,
            PRIMARY KEY (kind, id));
        CREATE INDEX index_records_words ON index_records USING gin (words);
        CREATE INDEX index_records_location ON index_records USING gist (location);
        CREATE INDEX index_records_origin ON index_records (origin);
        -- (PostgresIndex.load makes the last three again after filling an empty table.)
        -- Rows and tokens in all, for bm25's averages; one row.
        CREATE TABLE index_totals (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
            records bigint NOT NULL, tokens bigint NOT NULL);
        INSERT INTO index_totals VALUES (true, 0, 0);
        CREATE TABLE index_markers (key text PRIMARY KEY, value text NOT NULL);
        -- Rows matching each word counted so far (bm25's weights), forgotten whenever records change.
        CREATE TABLE index_word_rows (word text PRIMARY KEY, records bigint NOT NULL);
        -- Flickr's answers, flickr.photos.search's as growing listings; keys hold no API key.
        CREATE TABLE kept_answers (key text PRIMARY KEY, body bytea NOT NULL,
            stored_at timestamptz NOT NULL DEFAULT now(), version bigint NOT NULL DEFAULT 1);
        CREATE TABLE recent_photos (id text PRIMARY KEY, photo bytea NOT NULL, viewed_at timestamptz NOT NULL);
        CREATE INDEX recent_photos_viewed ON recent_photos (viewed_at DESC);
        -- Flickr call budgets, one token bucket per API key, keyed by a salted hash of the key.
        CREATE TABLE call_budgets (key_hash text PRIMARY KEY, tokens double precision NOT NULL,
            updated_at timestamptz NOT NULL);
        """,
        """
        -- The imported photos (PostgresLocalCatalog): files as read, photos with their places, one version row.
        CREATE TABLE local_files (path bytea PRIMARY KEY, size bigint NOT NULL, modified bigint NOT NULL,
            inode bigint NOT NULL, photo text, problem text, other boolean NOT NULL);
        CREATE INDEX local_files_photo ON local_files (photo);
        CREATE TABLE local_photos (id text PRIMARY KEY, place text NOT NULL, taken double precision,
            latitude double precision, longitude double precision, record bytea NOT NULL);
        CREATE INDEX local_photos_place ON local_photos (place, taken DESC);
        CREATE TABLE local_places (id text PRIMARY KEY, short_name text NOT NULL, full_name text NOT NULL,
            latitude double precision, longitude double precision);
        CREATE TABLE local_version (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
            version bigint NOT NULL);
        INSERT INTO local_version VALUES (true, 0);
        """,
        """
        -- Each located record's words prefixed with its cell of a 0.02° grid (`zc<row>x<column>_<word>`, words
        -- cut to 200 letters; PostgresIndex.cellWords makes them for the rows it loads, this for those there
        -- before): a search in a small circle asks the GIN index for its word in the circle's cells, never
        -- reading a common word's list of millions of rows.
        ALTER TABLE index_records ADD COLUMN cell_words tsvector;
        UPDATE index_records SET cell_words = array_to_tsvector(ARRAY(
            SELECT 'zc' || floor((latitude + 90) / 0.02)::bigint || 'x' || floor((longitude + 180) / 0.02)::bigint
                || '_' || left(word, 200) FROM unnest(string_to_array(body, ' ')) AS word))
        WHERE latitude IS NOT NULL AND longitude IS NOT NULL AND body <> '';
        CREATE INDEX index_records_cell_words ON index_records USING gin (cell_words);
        """,
        """
        -- Geofences (Flickr's model): circles within which imported photos are shown without a location;
        -- each photo marked hidden when one holds it (PostgresLocalCatalog.refreshHidden).
        CREATE TABLE local_fences (name text PRIMARY KEY, latitude double precision NOT NULL,
            longitude double precision NOT NULL, radius double precision NOT NULL);
        ALTER TABLE local_photos ADD COLUMN hidden boolean NOT NULL DEFAULT false;
        """,
        """
        -- What `geotag` reads of each imported photo, as LocalCatalog keeps it: the clock as the camera wrote
        -- it (DateTimeOriginal, SubSecTimeOriginal, OffsetTimeOriginal in seconds), the camera (Make, Model),
        -- and where its location came from ('exif', 'track', 'estimated'). Photos imported before have none.
        ALTER TABLE local_photos ADD COLUMN clock text, ADD COLUMN subsecond text, ADD COLUMN clock_offset integer,
            ADD COLUMN make text, ADD COLUMN model text, ADD COLUMN location_source text;
        -- The lines of the tracks photos were located from, for maps: each once, by the digest of its points
        -- (16 bytes a point, TrackLineBytes), drawn in the order of position.
        CREATE TABLE local_track_lines (digest bytea PRIMARY KEY, position bigint NOT NULL, points bytea NOT NULL);
        """,
        """
        -- The people who may sign in to `serve` (PostgresAccounts): passwords as Argon2id hashes only; sessions
        -- and the owner's one-time sign-in links by their tokens' SHA-256, never the tokens.
        CREATE TABLE users (name text PRIMARY KEY, role text NOT NULL, password_hash text NOT NULL,
            created timestamptz NOT NULL);
        CREATE TABLE sessions (digest text PRIMARY KEY,
            user_name text NOT NULL REFERENCES users (name) ON DELETE CASCADE, expires timestamptz NOT NULL);
        CREATE INDEX sessions_user ON sessions (user_name);
        CREATE TABLE sign_in_links (digest text PRIMARY KEY, expires timestamptz NOT NULL);
        """,
        """
        -- Who sees each imported photo and where it was taken (Audience: public, friends, family,
        -- friends+family, private). Photos imported before keep what they had: public.
        ALTER TABLE local_photos ADD COLUMN visibility text NOT NULL DEFAULT 'public',
            ADD COLUMN location_audience text NOT NULL DEFAULT 'public';
        """,
        // The map of everything's points and per-tile aggregates, kept by triggers (MapGridSQL), after the
        // audiences' columns. (Made as the map is now: migration 15 makes it so on databases migrated before.)
        MapGridSQL.postgres,
        """
        -- When each track line began (seconds since 1970, UTC): a trip's route is the lines of its days.
        ALTER TABLE local_track_lines ADD COLUMN started double precision;
        """,
        // The map's triggers leave a transaction that keeps the map itself, a batch at a time, to it.
        MapGridSQL.postgresBatches,
        """
        -- The owners' last location edits made through `serve` (PostgresEditHistory), so that any instance
        -- undoes them: the photos as they were and as the edit left them, as JSON, newest the highest position.
        CREATE TABLE location_edits (id text PRIMARY KEY, owner text NOT NULL,
            position bigint GENERATED ALWAYS AS IDENTITY, before bytea NOT NULL, after bytea NOT NULL);
        CREATE INDEX location_edits_owner ON location_edits (owner, position);
        """,
        """
        -- Each imported photo's time taken as its record holds it ("YYYY-MM-DD HH:MM:SS", its own local time),
        -- beside the record: trips and `visited` read it for every photo without decoding the records. Filled
        -- from the records of the photos there before; the map's triggers are left out of the fill (it moves
        -- no point) and back on after it.
        ALTER TABLE local_photos ADD COLUMN date_taken text;
        SELECT set_config('\(MapGridSQL.batchSetting)', 'on', true);
        UPDATE local_photos SET date_taken = convert_from(record, 'UTF8')::jsonb ->> 'dateTaken';
        SELECT set_config('\(MapGridSQL.batchSetting)', 'off', true);
        """,
        """
        -- Every beginning of every word of a record's words, once per record: how many records hold a word
        -- beginning so is bm25's n for a query word (a prefix, `'word':*`). index_word_rows keeps that count
        -- for each beginning, no longer a cache forgotten on every change: PostgresIndex adds and subtracts
        -- the beginnings of the records it adds, replaces and removes, in their transaction, so no search
        -- counts a word's records (seconds for a word in half of ten million). Beginnings are kept up to
        -- \(PostgresIndex.countedLength) characters, so a record of long words (text from anyone) adds a
        -- bounded number of rows; a longer query word is counted. Counted under the index's write lock, so
        -- no load commits between the count and the migration's end. The row of the empty word says the counts
        -- are kept: an older photomap empties the table, and PostgresIndex then counts them again (a database
        -- migrated to 13 before this row was written finds its counts stale once, and heals them).
        SELECT pg_advisory_xact_lock(\(PostgresIndex.writeLock));
        CREATE OR REPLACE FUNCTION index_word_beginnings(words tsvector) RETURNS SETOF text
            IMMUTABLE STRICT PARALLEL SAFE LANGUAGE sql AS $$
            SELECT DISTINCT left(lexeme, length) FROM unnest(tsvector_to_array(words)) AS lexeme,
                generate_series(1, least(char_length(lexeme), \(PostgresIndex.countedLength))) AS length
            $$;
        DELETE FROM index_word_rows;
        INSERT INTO index_word_rows (word, records)
            SELECT word, count(*) FROM index_records, index_word_beginnings(words) AS word GROUP BY word;
        INSERT INTO index_word_rows (word, records) VALUES ('', 0);
        """,
        // The rows of the days photos were taken on, kept by statement triggers (`trip_days`).
        PostgresLocalCatalog.tripDaysMigration,
        """
        -- 15 made the map again to keep every located photo with who sees it, and to sum coordinates as
        -- integers; 16 totalled the low zooms' cells over every month. Migration 17 makes the map as it is
        -- now over any map before it, so these two are left to it.
        SELECT 1;
        """,
        "SELECT 1; -- (16: see 15)",
        // The map made again as it is now: its cells and totals keep their least photo's own coordinate, so a
        // tile reads a cluster of one where it is with its cell, not from the points.
        MapGridSQL.postgresMadeAgain,
    ]

    /// The migration that gave imported photos their audiences (`db migrate` says what they kept).
    public static let audiencesVersion = 7

    /// The migration that gave imported photos the column of their time taken, filled from their records.
    static let dateTakenVersion = 12

    /// The migration that made index_word_rows a kept count of each word beginning's records.
    static let wordCountsVersion = 13

    /// The migration that made `trip_days`, filled from the photos there.
    static let tripDaysVersion = 14

    /// The migration that made the map keep every located photo with who sees it.
    public static let mapAudiencesVersion = 15

    /// The migration that made the low zooms' totals over every month (`map_totals`), now left to 17.
    static let mapTotalsVersion = 16

    /// The migration that makes the map as it is now over any made before (`MapGridSQL.postgresMadeAgain`).
    public static let mapVersion = 17

    /// The schema version this photomap writes and reads.
    public static var currentVersion: Int { migrations.count }

    /// An arbitrary constant naming photomap's migration lock among the database's advisory locks.
    static let migrationLock = 0x7068_6f74_6f6d_6170  // "photomap"

    /// Applies the migrations `pool`'s database lacks; returns the versions it applied (none when it
    /// was current). Throws `schemaTooNew` for a database a newer photomap migrated.
    @discardableResult
    public static func migrate(_ pool: PostgresPool) throws -> [Int] {
        try pool.transaction { connection in
            try connection.liftTimeouts()
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(migrationLock)])
            try connection.execute("CREATE TABLE IF NOT EXISTS photomap_schema (version integer NOT NULL)")
            let found = try version(on: connection)
            guard found <= currentVersion else {
                throw DatabaseError.schemaTooNew(server: pool.address.description, found: found, known: currentVersion)
            }
            let pending = Array((found + 1)..<(currentVersion + 1))
            for version in pending {
                try connection.execute(migrations[version - 1])
                try connection.execute("INSERT INTO photomap_schema (version) VALUES ($1)", [.integer(version)])
            }
            return pending
        }
    }

    /// Throws unless the database's schema is this photomap's: `schemaTooOld` for one never migrated
    /// (version 0) or migrated by an older photomap, `schemaTooNew`. Reads only: creates nothing.
    public static func check(_ pool: PostgresPool) throws {
        let found = try pool.withConnection { try version(on: $0) }
        let server = pool.address.description
        guard found >= currentVersion else {
            throw DatabaseError.schemaTooOld(server: server, found: found, known: currentVersion)
        }
        guard found <= currentVersion else {
            throw DatabaseError.schemaTooNew(server: server, found: found, known: currentVersion)
        }
    }

    /// The database's schema version; 0 when it has no photomap_schema table.
    private static func version(on connection: PostgresConnection) throws -> Int {
        guard try connection.execute("SELECT to_regclass('photomap_schema') IS NOT NULL").text(0, 0) == "t" else {
            return 0
        }
        return try connection.execute("SELECT max(version) FROM photomap_schema").integer(0, 0) ?? 0
    }

    /// What `db status` shows.
    public struct Status: Sendable {
        /// The database's schema version (0: never migrated).
        public var version: Int
        /// Rows of each table, by name.
        public var rows: [(table: String, count: Int)]
        /// PostgreSQL's and PostGIS's versions.
        public var server: String
        public var postgis: String?
    }

    /// The schema version and the rows of each table.
    public static func status(_ pool: PostgresPool) throws -> Status {
        try pool.withConnection { connection in
            let server = try connection.execute("SHOW server_version").text(0, 0) ?? "unknown"
            let postgis = try? connection.execute("SELECT extversion FROM pg_extension WHERE extname = 'postgis'")
                .text(0, 0)
            let version = try version(on: connection)
            var rows: [(String, Int)] = []
            // Each table counted from the migration that made it on.
            let tables = [
                ("index_records", 1), ("kept_answers", 1), ("recent_photos", 1), ("call_budgets", 1),
                ("local_photos", 2), ("local_files", 2), ("local_fences", 4),
                ("local_track_lines", 5), ("users", 6), ("sessions", 6), ("map_points", 7),
                ("location_edits", 11), ("trip_days", tripDaysVersion),
            ]
            for (table, since) in tables where version >= since {
                rows.append((table, try connection.execute("SELECT count(*) FROM \(table)").integer(0, 0) ?? 0))
            }
            return Status(version: version, rows: rows, server: server, postgis: postgis)
        }
    }
}
